/**
 * Case-insensitive search for an ASCII needle in raw bytes, without making a string. The
 * scan runs on the engine's native `indexOf` for one byte of the needle (the "anchor": the
 * one least likely to be common in app traffic, in both cases for a letter) and compares the
 * rest only where the anchor occurs, so a frame costs a few native scans instead of a
 * JavaScript loop over every byte.
 */

/** Bytes most common in JSON-ish app traffic first; a needle's byte found later here is a better anchor. */
const COMMON_FIRST = ' "eE:,tTaAoOiInNsSrRhHlLdDcCuUmM0123456789.fFpPgGwWyYbBvVkK-_/xXjJqQzZ';

export interface AsciiNeedle {
  /** The needle's bytes, lowercase. */
  readonly lower: Uint8Array;
  /** Index in the needle of the anchor byte, and the anchor's two cases (equal for a non-letter). */
  readonly anchorAt: number;
  readonly anchorLower: number;
  readonly anchorUpper: number;
}

/** null for an empty or non-ASCII needle (those take the decoding way). `needle` is lowercase. */
export function asciiNeedle(needle: string): AsciiNeedle | null {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: any 7-bit byte, control characters included
  if (!needle || !/^[\x00-\x7f]*$/.test(needle)) return null;
  const lower = Uint8Array.from(needle, (c) => c.charCodeAt(0));
  let anchorAt = 0;
  let rarest = -1;
  for (let i = 0; i < lower.length; i++) {
    const seen = COMMON_FIRST.indexOf(String.fromCharCode(lower[i]));
    const rarity = seen < 0 ? COMMON_FIRST.length : seen;
    if (rarity > rarest) [rarest, anchorAt] = [rarity, i];
  }
  const anchorLower = lower[anchorAt];
  const anchorUpper = anchorLower >= 0x61 && anchorLower <= 0x7a ? anchorLower - 0x20 : anchorLower;
  return { lower, anchorAt, anchorLower, anchorUpper };
}

/** The offset of the first case-insensitive occurrence of the needle at or after `from`; -1: none. */
export function findAscii(bytes: Uint8Array, needle: AsciiNeedle, from: number): number {
  const { lower, anchorAt, anchorLower, anchorUpper } = needle;
  const lastAnchor = bytes.length - lower.length + anchorAt;
  const start = from + anchorAt;
  if (start > lastAnchor) return -1;
  let lo = bytes.indexOf(anchorLower, start);
  let up = anchorUpper === anchorLower ? -1 : bytes.indexOf(anchorUpper, start);
  while (lo >= 0 || up >= 0) {
    const at = up < 0 || (lo >= 0 && lo < up) ? lo : up;
    if (at > lastAnchor) return -1;
    if (matchesAt(bytes, lower, at - anchorAt)) return at - anchorAt;
    if (at === lo) lo = bytes.indexOf(anchorLower, at + 1);
    else up = bytes.indexOf(anchorUpper, at + 1);
  }
  return -1;
}

function matchesAt(bytes: Uint8Array, lower: Uint8Array, at: number): boolean {
  for (let k = 0; k < lower.length; k++) {
    let c = bytes[at + k];
    if (c >= 0x41 && c <= 0x5a) c += 0x20;
    if (c !== lower[k]) return false;
  }
  return true;
}
