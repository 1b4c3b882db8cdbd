/**
 * Frame tables (messages.ts: FRAME_COLUMNS float64s per frame: socketId, flags, time, byte
 * length). Every receiver checks every row before it trusts one: a page (or a compromised
 * renderer) can post any numbers. Imported by the relay bundle: keep it small.
 */
import { FRAME_COLUMNS, FRAME_FLAGS_MAX, FRAME_ROW_BYTES, type WireBytes, type WireFrameBytes } from './messages.js';

const isSafeCount = Number.isSafeInteger;

/** Decoded byte length of wire bytes (base64 is measured, not decoded; a Blob by its size). */
export function wireByteLength(data: WireFrameBytes): number {
  if ('blob' in data) return data.blob.size;
  if ('b64' in data) {
    const s = data.b64;
    const pad = s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0;
    return Math.max(0, Math.floor((s.length * 3) / 4) - pad);
  }
  return data.bytes.byteLength;
}

/** Rows (frames) of a wire frame table. */
export const wireFrameCount = (table: WireBytes): number => Math.floor(wireByteLength(table) / FRAME_ROW_BYTES);

/**
 * True when rows 0 … `count` - 1 of `table` are frames: socketId a safe integer ≥ 0, flags
 * 0…31 (received, binary, sent or delivered by wirescope, held, dropped by a rule), time finite, byte length a safe integer ≥ 0, and the lengths add up to exactly
 * `byteLength` (the frames' bytes leave nothing out and nothing over).
 */
export function checkFrameTable(table: Float64Array, count: number, byteLength: number): boolean {
  if (table.length < count * FRAME_COLUMNS) return false;
  let total = 0;
  for (let i = 0, r = 0; i < count; i++, r += FRAME_COLUMNS) {
    const socketId = table[r]!;
    const flags = table[r + 1]!;
    const time = table[r + 2]!;
    const length = table[r + 3]!;
    if (!(socketId >= 0 && isSafeCount(socketId))) return false;
    if (!(flags >= 0 && flags <= FRAME_FLAGS_MAX && isSafeCount(flags))) return false;
    if (!(time - time === 0)) return false; // finite (NaN and ±Infinity give NaN)
    if (!(length >= 0 && isSafeCount(length))) return false;
    total += length;
    if (total > byteLength) return false;
  }
  return total === byteLength;
}

/** A Float64Array over `bytes` (copied when the view is not 8-byte aligned); null unless whole rows. */
export function frameTableOf(bytes: Uint8Array): Float64Array | null {
  if (bytes.byteLength % FRAME_ROW_BYTES !== 0) return null;
  const aligned = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
  return new Float64Array(aligned.buffer, aligned.byteOffset, aligned.byteLength / 8);
}
