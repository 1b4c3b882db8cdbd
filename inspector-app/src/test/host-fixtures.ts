/** Tests only: the host an app test plays, and the frames it sends. */
import type { HostCapabilities } from '../protocol/transport.js';
import type { WireFrame } from '../protocol/messages.js';

/** A host that opens files but neither connects nor sends, light theme, named "test"; `over` changes any of it. */
export const testHostCapabilities = (over: Partial<HostCapabilities> = {}): HostCapabilities => ({
  connect: false,
  sendFrames: false,
  files: true,
  theme: 'light',
  hostName: 'test',
  ...over,
});

/** A received binary frame on connection c1 at 1_700_000_000_000 holding `data`; `extra` changes any of it. */
export const wireFrame = (data: Uint8Array, extra: Partial<WireFrame> = {}): WireFrame => ({
  connectionId: 'c1',
  direction: 'received',
  time: 1_700_000_000_000,
  opcode: 'binary',
  data,
  ...extra,
});
