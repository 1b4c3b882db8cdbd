/**
 * An independent UTF-8 reference for tests (RFC 3629; table 3-7 of the Unicode standard):
 * the offset of the first byte of the first ill-formed sequence in bytes[start, end), or -1.
 * Written from the table, not from core/utf8.ts, so the two can be compared.
 */
export function referenceFindInvalidUtf8(bytes: Uint8Array, start: number, end: number): number {
  let i = start;
  while (i < end) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    // Trailing bytes, and the range of the first of them (the others are 80..BF).
    let trail: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) trail = 1;
    else if (b === 0xe0) [trail, lo] = [2, 0xa0];
    else if (b === 0xed) [trail, hi] = [2, 0x9f];
    else if (b >= 0xe1 && b <= 0xef) trail = 2;
    else if (b === 0xf0) [trail, lo] = [3, 0x90];
    else if (b === 0xf4) [trail, hi] = [3, 0x8f];
    else if (b >= 0xf1 && b <= 0xf3) trail = 3;
    else return i;
    if (i + trail >= end) return i;
    if (bytes[i + 1] < lo || bytes[i + 1] > hi) return i;
    for (let k = 2; k <= trail; k++) if ((bytes[i + k] & 0xc0) !== 0x80) return i;
    i += trail + 1;
  }
  return -1;
}
