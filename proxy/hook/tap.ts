/**
 * What the patched sockets report, as capture events: connection ids, times and the bytes
 * of each message (copied, so the app may reuse its buffers). Shared by the `ws` patch and
 * the global WebSocket patch. Never throws into the app: a failure to record is dropped.
 */
import type { Direction, Opcode } from '../../codecs/capture/types.js';
import type { HookSink } from './capture-sink.js';

export interface Tap {
  newId(): string;
  opened(id: string, url: string, protocol: string, extensions: string): void;
  message(id: string, direction: Direction, opcode: Opcode, data: Uint8Array): void;
  closed(id: string, code: number, reason: string, wasClean: boolean): void;
}

export function createTap(sink: HookSink, now: () => number = () => performance.timeOrigin + performance.now()): Tap {
  let next = 1;
  const prefix = `pid${process.pid}-`;
  return {
    newId: () => `${prefix}${next++}`,
    opened(id, url, protocol, extensions) {
      sink.opened({ connectionId: id, url, protocol, extensions, extensionsRecorded: true, time: now() });
    },
    message(id, direction, opcode, data) {
      sink.frame({ connectionId: id, direction, time: now(), opcode, data });
    },
    closed(id, code, reason, wasClean) {
      sink.closed(id, code, reason, wasClean, now());
    },
  };
}

const encoder = new TextEncoder();

/** A copy of what was sent or received, whatever form it came in (string, Buffer, ArrayBuffer, view, Buffer[]). */
export function bytesOf(data: unknown): Uint8Array | null {
  if (typeof data === 'string') return encoder.encode(data);
  if (data instanceof ArrayBuffer) return new Uint8Array(data.slice(0));
  if (ArrayBuffer.isView(data))
    return new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
  if (Array.isArray(data) && data.every((d) => ArrayBuffer.isView(d)))
    return new Uint8Array(Buffer.concat(data as Buffer[]));
  return null;
}
