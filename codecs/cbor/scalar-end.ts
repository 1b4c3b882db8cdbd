import { findInvalidUtf8 } from '../core/utf8.js';

/**
 * The end of a well-formed scalar CBOR item at `start` that ends before `limit`: an integer,
 * a float, a one-byte simple value (0..23: RFC 8949 section 3.3 makes all of them
 * well-formed, 20..23 being false, true, null and undefined; json-pack reads the others
 * as JsonPackValue), a definite byte string or a definite text string of valid UTF-8. -1
 * for anything else (containers, tags, indefinite strings, two-byte simple values) and for
 * anything malformed or cut off: the caller then lets the CBOR walker read it and name the
 * error. A fast path for the constants inside json-joy models and patches.
 */
export function cborScalarEnd(bytes: Uint8Array, start: number, limit: number): number {
  const ib = bytes[start];
  const major = ib >> 5;
  const ai = ib & 31;
  if (major === 7) {
    if (ai < 24) return start + 1;
    if (ai >= 25 && ai <= 27) {
      const end = start + 1 + (1 << (ai - 24));
      return end <= limit ? end : -1;
    }
    return -1;
  }
  if (major > 3 || ai > 27) return -1;
  let arg = ai;
  let p = start + 1;
  if (ai >= 24) {
    const size = 1 << (ai - 24);
    if (p + size > limit) return -1;
    arg = 0;
    for (let i = 0; i < size; i++) arg = arg * 256 + bytes[p + i];
    p += size;
  }
  if (major <= 1) return p;
  if (arg > limit - p) return -1;
  if (major === 3 && findInvalidUtf8(bytes, p, p + arg) >= 0) return -1;
  return p + arg;
}
