/**
 * lib0's encodings as Yjs and y-protocols write them (lib0/encoding.js), read at a byte
 * position with bounds checks and no allocation: readers return the end of what they read,
 * or a negative code, and leave the value in `lib0Value`.
 *
 * - varUint: little-endian groups of 7 bits, the high bit says "more" (the same LEB128 as
 *   Protobuf's varints: read by `codecs/protobuf/wire.ts`). lib0 refuses values past 2^53.
 * - varInt: the first byte holds "more" (bit 7), the sign (bit 6) and 6 bits; then groups of 7.
 */
import { readVarint, varintValue, VARINT_TRUNCATED } from '../protobuf/wire.js';

/** Ran out of bytes. */
export const LIB0_TRUNCATED = -1;
/** A varUint / varInt past 2^53 (lib0 throws "integer out of range"). */
export const LIB0_TOO_LARGE = -2;

/** The value of the last successful read. */
export let lib0Value = 0;

/** Reads a varUint at `pos` (not past `end`). */
export function readVarUint(bytes: Uint8Array, pos: number, end: number): number {
  const after = readVarint(bytes, pos, end);
  if (after === VARINT_TRUNCATED) return LIB0_TRUNCATED;
  if (after < 0 || varintValue > Number.MAX_SAFE_INTEGER) return LIB0_TOO_LARGE;
  lib0Value = varintValue;
  return after;
}

/** Reads a signed varInt at `pos` (not past `end`). A negative zero reads as -0, as lib0's does. */
export function readVarInt(bytes: Uint8Array, pos: number, end: number): number {
  if (pos >= end) return LIB0_TRUNCATED;
  let b = bytes[pos++];
  let num = b & 0x3f;
  let scale = 64;
  const sign = b & 0x40 ? -1 : 1;
  while (b & 0x80) {
    if (pos >= end) return LIB0_TRUNCATED;
    b = bytes[pos++];
    num += (b & 0x7f) * scale;
    scale *= 128;
    if (num > Number.MAX_SAFE_INTEGER) return LIB0_TOO_LARGE;
  }
  lib0Value = sign * num;
  return pos;
}
