/**
 * A batch of frames as a host hands it over packed: one buffer the frames tile in order, and
 * a few typed arrays beside it — no object per frame. The extension's panel receives its
 * frames this way from the page (a table and one byte string per batch): building a
 * `WireFrame` per frame there, and an ingest object per frame in the app, only for both to
 * be packed again for the decode worker, was per-frame work on the panel's main thread under
 * a flood (10,000 frames/s).
 */
import type { Direction, Opcode, WireFrame } from '../../../codecs/capture/types.js';

export interface PackedFrames {
  /** The batch's bytes; frame k is bytes ends[k − 1] … ends[k] (from 0 for the first). */
  readonly bytes: Uint8Array;
  readonly ends: Float64Array;
  readonly times: Float64Array;
  /** Bit 0: sent (else received); bit 1: text (else binary); bit 2: wirescope sent or delivered it; bits 3 and 4: an intercept rule held or dropped it. */
  readonly kinds: Uint8Array;
  /** Index into `connections` per frame. */
  readonly connectionOf: Uint32Array;
  readonly connections: readonly string[];
}

export const KIND_SENT = 1;
export const KIND_TEXT = 2;
export const KIND_WIRESCOPE = 4;
/** An intercept rule held the frame (the panel's Forward / Drop act on it). */
export const KIND_HELD = 8;
/** An intercept rule dropped the frame. */
export const KIND_DROPPED = 16;

export const kindOf = (direction: Direction, opcode: Opcode): number =>
  (direction === 'sent' ? KIND_SENT : 0) | (opcode === 'text' ? KIND_TEXT : 0);

/** Shape and consistency check (from an untrusted side): every array as long as `ends`, ends rising within the bytes, connections indexed. */
export function isPackedFrames(v: unknown): v is PackedFrames {
  if (typeof v !== 'object' || v === null) return false;
  const p = v as Record<string, unknown>;
  if (
    !(p.bytes instanceof Uint8Array) ||
    !(p.ends instanceof Float64Array) ||
    !(p.times instanceof Float64Array) ||
    !(p.kinds instanceof Uint8Array) ||
    !(p.connectionOf instanceof Uint32Array)
  )
    return false;
  if (!Array.isArray(p.connections) || !p.connections.every((c) => typeof c === 'string')) return false;
  const n = p.ends.length;
  if (p.times.length !== n || p.kinds.length !== n || p.connectionOf.length !== n) return false;
  let end = 0;
  for (let k = 0; k < n; k++) {
    const e = p.ends[k]!;
    if (!Number.isInteger(e) || e < end || p.connectionOf[k]! >= p.connections.length) return false;
    end = e;
  }
  return end === p.bytes.byteLength;
}

/** The frames one by one (views of the bytes): for hosts' tests and anything that wants objects. */
export function unpackFrames(p: PackedFrames): WireFrame[] {
  const out: WireFrame[] = [];
  let start = 0;
  for (let k = 0; k < p.ends.length; k++) {
    const end = p.ends[k]!;
    const kind = p.kinds[k]!;
    out.push({
      connectionId: p.connections[p.connectionOf[k]!]!,
      direction: kind & KIND_SENT ? 'sent' : 'received',
      time: p.times[k]!,
      opcode: kind & KIND_TEXT ? 'text' : 'binary',
      data: p.bytes.subarray(start, end),
      ...(kind & KIND_WIRESCOPE ? { origin: 'wirescope' as const } : {}),
    });
    start = end;
  }
  return out;
}
