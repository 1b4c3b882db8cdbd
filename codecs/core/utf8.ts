/**
 * Strict UTF-8 validation (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF).
 * Returns -1 when bytes[start, end) is valid, else the offset of the first byte of the
 * offending sequence. No allocation: it runs over every text string of a frame.
 */
export function findInvalidUtf8(bytes: Uint8Array, start: number, end: number): number {
  // Long text: the platform's strict decoder validates an order of magnitude faster than
  // a JS loop; it throws only on invalid input, and then the loop below finds the offset.
  if (end - start >= NATIVE_MIN) {
    try {
      strict.decode(bytes.subarray(start, end));
      return -1;
    } catch {
      // fall through to locate the offending byte
    }
  }
  let i = start;
  // Long strings: test aligned 32-bit words for ASCII, four bytes per load.
  const words = end - start >= 32 ? wordsOf(bytes) : null;
  while (i < end) {
    if (words) {
      const base = bytes.byteOffset;
      while (i < end && ((base + i) & 3) !== 0 && bytes[i] < 0x80) i++;
      let w = (base + i) >> 2;
      const wEnd = (base + end) >> 2;
      while (w < wEnd && (words[w] & 0x80808080) === 0) w++;
      i = Math.max(i, (w << 2) - base);
    }
    // ASCII runs, four bytes per test: most text on the wire is ASCII.
    while (i + 4 <= end && (bytes[i] | bytes[i + 1] | bytes[i + 2] | bytes[i + 3]) < 0x80) i += 4;
    if (i >= end) break;
    const b0 = bytes[i];
    if (b0 < 0x80) {
      i++;
      continue;
    }
    if (b0 >= 0xc2 && b0 <= 0xdf) {
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
  }
  return -1;
}

// ignoreBOM: a text string that starts with U+FEFF keeps it; it is content, not a marker.
const NATIVE_MIN = 256;
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A Uint32 view of the buffer under `bytes` (cached for the last buffer seen). */
let wordsBuffer: ArrayBufferLike | null = null;
let wordsView: Uint32Array | null = null;
function wordsOf(bytes: Uint8Array): Uint32Array {
  if (wordsBuffer !== bytes.buffer) {
    wordsBuffer = bytes.buffer;
    wordsView = new Uint32Array(bytes.buffer, 0, bytes.buffer.byteLength >> 2);
  }
  return wordsView!;
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
