import type { IngestFrame } from '../api.js';

/** What a test frame is unless told otherwise: received, binary, on connection c1, at one fixed time. */
const USUAL = { connectionId: 'c1', direction: 'received', time: 1_700_000_000_000, opcode: 'binary' } as const;

/**
 * A frame maker: each call makes the next frame (ids 1, 2, … per maker) holding `data`, with
 * this maker's `defaults` over the usual fields and the call's `extra` over those.
 */
export function numberedFrames(defaults: Partial<Omit<IngestFrame, 'frameId' | 'data'>> = {}) {
  let nextId = 1;
  return (data: Uint8Array, extra: Partial<IngestFrame> = {}): IngestFrame => ({
    frameId: nextId++,
    ...USUAL,
    ...defaults,
    data,
    ...extra,
  });
}
