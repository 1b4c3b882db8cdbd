import { createWasmUtf8, type WasmUtf8 } from './utf8-wasm/wasm-validator.js';

/**
 * Strict UTF-8 validation (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF).
 * Returns -1 when bytes[start, end) is valid, else the offset of the first byte of the
 * offending sequence. No allocation: it runs over every text string of a frame.
 */
export function findInvalidUtf8(bytes: Uint8Array, start: number, end: number): number {
  return findInvalidUtf8In(bytes, end - start >= VIEW_MIN ? viewOf(bytes) : null, start, end);
}

/**
 * `findInvalidUtf8` for a caller that validates many strings of one frame: `view` is
 * `byteView(bytes)`, made once per frame (or null: bytewise only, for short strings).
 *
 * ASCII runs are skipped 16 bytes per step; a JS loop checks the multi-byte sequences. That
 * was faster than the platform's strict TextDecoder (used here before for long strings) at
 * every length and mix measured, ASCII, Latin, CJK, emoji, 64 B to 60 KB: the decoder
 * validates quickly, then builds a string nobody needs.
 */
export function findInvalidUtf8In(bytes: Uint8Array, view: DataView | null, start: number, end: number): number {
  let i = start;
  for (;;) {
    if (view) {
      i = asciiEnd(bytes, view, i, end);
    } else {
      // Four bytes per test: most text on the wire is ASCII.
      while (i + 4 <= end && (bytes[i] | bytes[i + 1] | bytes[i + 2] | bytes[i + 3]) < 0x80) i += 4;
      while (i < end && bytes[i] < 0x80) i++;
    }
    if (i >= end) return -1;
    // A multi-byte sequence, or what should have been one; then back to ASCII.
    do {
      const b0 = bytes[i];
      if (b0 < 0x80) {
        i++;
      } else if (b0 >= 0xc2 && b0 <= 0xdf) {
        if (i + 1 >= end || (bytes[i + 1] & 0xc0) !== 0x80) return i;
        i += 2;
      } else if (b0 >= 0xe0 && b0 <= 0xef) {
        if (i + 2 >= end) return i;
        const b1 = bytes[i + 1];
        if ((b1 & 0xc0) !== 0x80 || (bytes[i + 2] & 0xc0) !== 0x80) return i;
        if (b0 === 0xe0 && b1 < 0xa0) return i; // overlong
        if (b0 === 0xed && b1 >= 0xa0) return i; // UTF-16 surrogate
        i += 3;
      } else if (b0 >= 0xf0 && b0 <= 0xf4) {
        if (i + 3 >= end) return i;
        const b1 = bytes[i + 1];
        if ((b1 & 0xc0) !== 0x80 || (bytes[i + 2] & 0xc0) !== 0x80 || (bytes[i + 3] & 0xc0) !== 0x80) return i;
        if (b0 === 0xf0 && b1 < 0x90) return i; // overlong
        if (b0 === 0xf4 && b1 >= 0x90) return i; // above U+10FFFF
        i += 4;
      } else {
        return i;
      }
      // Text that is not mostly ASCII (CJK, emoji) stays in this loop.
    } while (i < end && bytes[i] >= 0x80);
    if (i >= end) return -1;
  }
}

/** From this length on a string is worth a DataView (making one costs about as much as checking 100 bytes bytewise). */
const VIEW_MIN = 32;

/**
 * A DataView of exactly the bytes of `bytes` (same indices), for 32-bit loads at any
 * offset: `asciiEnd` and the CBOR walker test four bytes per load with it. One per frame.
 */
export function byteView(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Sign bits of the four bytes of a 32-bit load: set for a byte >= 0x80. */
const HIGH_BITS = 0x80808080;

/**
 * The offset of the first non-ASCII byte in bytes[start, end), or `end`; `view` is
 * `byteView(bytes)`. Four 32-bit loads per 16-byte step (unaligned loads are fine on every
 * engine that matters, and need no alignment prologue for a string at any offset); the
 * last step of a string of 16 bytes or more overlaps the one before. Where a step finds a
 * high bit, the byte is located from the bits of its load (`firstHighByte`) rather than
 * by narrower loops: in mixed-script text an ASCII run ends every few dozen bytes, at an
 * unpredictable place, and each narrower loop's exit was one more mispredicted branch
 * (text-heavy records, 512 KB: about a sixth less time per byte).
 */
export function asciiEnd(bytes: Uint8Array, view: DataView, start: number, end: number): number {
  let i = start;
  if (end - i >= 16) {
    for (;;) {
      // The last step overlaps the one before: the bytes before `i` are ASCII, so the
      // first high byte it finds is at `i` or after.
      if (i + 16 > end) i = end - 16;
      const a = view.getInt32(i, true);
      const b = view.getInt32(i + 4, true);
      const c = view.getInt32(i + 8, true);
      const d = view.getInt32(i + 12, true);
      if (((a | b | c | d) & HIGH_BITS) !== 0) {
        if ((a & HIGH_BITS) !== 0) return i + firstHighByte(a & HIGH_BITS);
        if ((b & HIGH_BITS) !== 0) return i + 4 + firstHighByte(b & HIGH_BITS);
        if ((c & HIGH_BITS) !== 0) return i + 8 + firstHighByte(c & HIGH_BITS);
        return i + 12 + firstHighByte(d & HIGH_BITS);
      }
      i += 16;
      if (i >= end) return end;
    }
  }
  while (i + 4 <= end) {
    const high = view.getInt32(i, true) & HIGH_BITS;
    if (high !== 0) return i + firstHighByte(high);
    i += 4;
  }
  while (i < end && bytes[i] < 0x80) i++;
  return i;
}

/** The index (0-3) of the first byte >= 0x80 in a little-endian 32-bit load, from its high bits (not 0): the lowest set bit's byte. */
function firstHighByte(high: number): number {
  return (31 - Math.clz32(high & -high)) >> 3;
}

/**
 * `byteView` of the last Uint8Array `findInvalidUtf8` scanned: its callers validate the
 * strings of one frame in turn, and making the view costs more than checking a short
 * string. (A Uint8Array keeps its buffer and offset; only a length-tracking one over a
 * resizable buffer changes length, and then gets a new view.)
 */
let viewBytes: Uint8Array | null = null;
let viewLength = -1;
let viewOfBytes: DataView | null = null;
function viewOf(bytes: Uint8Array): DataView {
  if (viewBytes !== bytes || viewLength !== bytes.byteLength) {
    viewBytes = bytes;
    viewLength = bytes.byteLength;
    viewOfBytes = byteView(bytes);
  }
  return viewOfBytes!;
}

/** Forgets the cached view and the SIMD validator's frame (SpanIndex calls this when a walk ends: no cache may keep the last frame alive). */
export function releaseByteView(): void {
  viewBytes = null;
  viewLength = -1;
  viewOfBytes = null;
  simd?.release();
}

/**
 * Forgets the frame the SIMD validator holds a window of (walkers call this as a walk starts:
 * its window is keyed by the Uint8Array, whose bytes may have changed since the last walk).
 */
export function releaseSimdFrame(): void {
  simd?.release();
}

/**
 * The WebAssembly SIMD validator (utf8-wasm/), made at the first long string; null where
 * WebAssembly or SIMD is missing or a CSP forbids compiling it: then everything runs the JS
 * validator above, with the same results.
 */
let simd: WasmUtf8 | null | undefined;

/**
 * Uses `validator` for long strings from now on (null: the JS validator only; undefined: the
 * default, made again at the next long string). For tests and the benchmark.
 */
export function setSimdUtf8(validator: WasmUtf8 | null | undefined): void {
  simd?.release();
  simd = validator;
}

/** The SIMD validator in use, made on first call from `globalThis.WebAssembly`. */
export function simdUtf8(): WasmUtf8 | null {
  if (simd === undefined) simd = createWasmUtf8(globalThis.WebAssembly);
  return simd;
}

/**
 * From this length a string goes to the SIMD validator whole; a shorter one goes there from
 * its first non-ASCII byte (found by `asciiEnd`) if SIMD_REST_MIN bytes or more remain.
 * Measured (`npm run bench -- --utf8-only`, docs/BENCHMARKS.md): a call costs about what
 * the JS loops take for 64-96 bytes of ASCII, while SIMD is faster than them on any
 * non-ASCII text from 24 bytes up (CJK about 3x, mixed-script text 1.3x at 24 bytes, 2x
 * from 96, 3.5x on long strings).
 */
export const SIMD_MIN = 96;
export const SIMD_REST_MIN = 16;

/**
 * `findInvalidUtf8In` for a walker's string of more than 16 bytes, `view` being
 * `byteView(bytes)`: by the SIMD validator where it is available and the string long enough,
 * else by the JS loops; the same result either way. Call `releaseByteView` when the walk ends.
 */
export function findInvalidLongUtf8(bytes: Uint8Array, view: DataView, start: number, end: number): number {
  const validator = simd === undefined ? simdUtf8() : simd;
  if (validator !== null && end - start >= SIMD_MIN) return findInvalidUtf8With(validator, bytes, start, end);
  const ascii = asciiEnd(bytes, view, start, end);
  if (ascii === end) return -1;
  if (validator !== null && end - ascii >= SIMD_REST_MIN) return findInvalidUtf8With(validator, bytes, ascii, end);
  return findInvalidUtf8In(bytes, view, ascii, end);
}

/**
 * The first invalid byte of bytes[start, end) by `validator`, or -1. The SIMD validator says
 * in which 16-byte block it saw an error; the offending sequence starts at most 16 bytes
 * before that block and the bytes before it are valid, so the JS validator, run from the
 * sequence boundary there, reports the byte it would have reported from `start`.
 */
export function findInvalidUtf8With(validator: WasmUtf8, bytes: Uint8Array, start: number, end: number): number {
  let seen: number;
  try {
    seen = validator.errorBlock(bytes, start, end);
  } catch {
    // The memory could not grow for this string: the JS validator checks it.
    return findInvalidUtf8In(bytes, null, start, end);
  }
  if (seen < 0) return -1;
  let from = Math.max(start, seen - 16);
  // Back to the lead byte of the sequence `from` is in (valid text: at most 3 steps).
  while (from > start && (bytes[from] & 0xc0) === 0x80) from--;
  const bad = findInvalidUtf8In(bytes, null, from, end);
  // Never expected (the property tests compare the two): the JS validator has the last word.
  return bad >= 0 ? bad : findInvalidUtf8In(bytes, null, start, end);
}

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** Decodes bytes that `findInvalidUtf8` accepted. */
export function decodeUtf8(bytes: Uint8Array, start: number, end: number): string {
  // Short ASCII strings are faster by hand than through TextDecoder.
  if (end - start < 16) {
    let s = '';
    for (let i = start; i < end; i++) {
      const b = bytes[i];
      if (b >= 0x80) return decoder.decode(bytes.subarray(start, end));
      s += String.fromCharCode(b);
    }
    return s;
  }
  return decoder.decode(bytes.subarray(start, end));
}

/** UTF-16 code units of valid UTF-8 bytes: one per sequence, two per 4-byte sequence (json-joy counts string positions this way). */
export function utf16LengthOfUtf8(bytes: Uint8Array, start: number, end: number): number {
  let n = 0;
  let i = start;
  while (i < end) {
    // ASCII runs four bytes at a time: one code unit per byte.
    while (i + 4 <= end && (bytes[i] | bytes[i + 1] | bytes[i + 2] | bytes[i + 3]) < 0x80) {
      n += 4;
      i += 4;
    }
    if (i >= end) break;
    const b = bytes[i++];
    if ((b & 0xc0) !== 0x80) n += b >= 0xf0 ? 2 : 1;
  }
  return n;
}

// ignoreBOM: a text string that starts with U+FEFF keeps it; it is content, not a marker.
const NATIVE_MIN = 256;
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * For valid UTF-8: its length in UTF-16 code units; otherwise -1. One pass: long text is
 * decoded by the platform's strict decoder (whose string has the length we want), short
 * text is validated and counted by the JS loops.
 */
export function utf16LengthIfValidUtf8(bytes: Uint8Array, start: number, end: number): number {
  if (end - start >= NATIVE_MIN) {
    try {
      return strict.decode(bytes.subarray(start, end)).length;
    } catch {
      return -1;
    }
  }
  return findInvalidUtf8(bytes, start, end) < 0 ? utf16LengthOfUtf8(bytes, start, end) : -1;
}
