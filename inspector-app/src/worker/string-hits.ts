/**
 * Does a needle's raw hit lie inside one text string (a key or a string value)? Answered by
 * walking the frame's heads in byte order, with no index, no node and no string made: CBOR
 * and MessagePack write a container's children right after its head, so reading one head
 * after another visits every item in order, and a string's payload is the bytes after its
 * head. JSON without backslashes needs only the count of quotes before the hit.
 *
 * The frames searched decoded whole, so their heads are well formed; anything this walk does
 * not read plainly (CBOR's indefinite text, whose chunks join, or a head past the end) gives
 * null, and the caller takes the exact way.
 */
import { findAscii, type AsciiNeedle } from './ascii-find.js';

/** The formats whose strings this walk finds. */
export type StringScanFormat = 'cbor' | 'msgpack' | 'json';

/**
 * `first`: the needle's first hit (findAscii). true when some hit lies whole in one text
 * string's payload, false when none does, null when the walk met a head it does not read.
 */
export function hitInTextString(
  bytes: Uint8Array,
  format: StringScanFormat,
  needle: AsciiNeedle,
  first: number,
): boolean | null {
  if (format === 'json') return jsonHitInString(bytes, needle, first);
  const length = needle.lower.length;
  const head = format === 'cbor' ? cborHead : msgpackHead;
  const item: Head = { size: 0, payload: 0, text: false };
  let p = 0;
  let hit = first;
  while (hit >= 0) {
    if (p >= bytes.length || !head(bytes, p, item)) return null;
    const payloadAt = p + item.size;
    const end = payloadAt + item.payload;
    if (end > bytes.length) return null;
    if (end <= hit) {
      p = end;
      continue;
    }
    // This item's bytes hold the hit: a string's payload, or a head the hit only crosses.
    if (item.text && hit >= payloadAt && hit + length <= end) return true;
    hit = findAscii(bytes, needle, hit + 1);
  }
  return false;
}

/** Does a CBOR frame hold an indefinite text string (or a head this walk does not read)? */
export function hasIndefiniteText(bytes: Uint8Array): boolean {
  if (bytes.indexOf(0x7f) < 0) return false;
  const item: Head = { size: 0, payload: 0, text: false };
  for (let p = 0; p < bytes.length; p += item.size + item.payload) {
    if (bytes[p] === 0x7f || !cborHead(bytes, p, item)) return true;
  }
  return false;
}

interface Head {
  /** Bytes of the head (with any fixed-size value it carries). */
  size: number;
  /** Bytes of payload after the head (strings, byte strings, extensions); 0 for containers, whose children follow. */
  payload: number;
  text: boolean;
}

function uintAt(bytes: Uint8Array, p: number, n: number): number {
  let v = 0;
  for (let k = 0; k < n; k++) v = v * 256 + bytes[p + k];
  return v;
}

/** false: a head this walk does not read. */
function cborHead(bytes: Uint8Array, p: number, out: Head): boolean {
  const b = bytes[p];
  const major = b >> 5;
  const info = b & 31;
  let size: number;
  let arg: number;
  if (info < 24) [size, arg] = [1, info];
  else if (info <= 27) {
    const n = 1 << (info - 24);
    if (p + 1 + n > bytes.length) return false;
    [size, arg] = [1 + n, uintAt(bytes, p + 1, n)];
  } else if (info === 31 && (major === 2 || major === 4 || major === 5 || major === 7)) {
    // Indefinite byte string (its chunks follow as heads), array, map, or the break.
    [size, arg] = [1, 0];
  } else return false; // reserved, or indefinite text (its chunks join: a hit may span two)
  out.size = size;
  out.payload = major === 2 || major === 3 ? arg : 0;
  out.text = major === 3;
  return true;
}

/** Head sizes of MessagePack's 0xc0–0xdf (0: never used), after which payload/containers follow. */
const MSGPACK_FIXED: readonly number[] = [
  1, 0, 1, 1, 2, 3, 5, 3, 4, 6, 5, 9, 2, 3, 5, 9, 2, 3, 5, 9, 2, 2, 2, 2, 2, 2, 3, 5, 3, 5, 3, 5,
];

function msgpackHead(bytes: Uint8Array, p: number, out: Head): boolean {
  const b = bytes[p];
  out.text = false;
  out.payload = 0;
  if (b < 0x80 || b >= 0xe0 || b < 0xa0) {
    // fixint, fixmap, fixarray, negative fixint
    out.size = 1;
    return true;
  }
  if (b < 0xc0) {
    out.size = 1;
    out.payload = b & 31;
    out.text = true;
    return true;
  }
  const size = MSGPACK_FIXED[b - 0xc0];
  if (size === 0 || p + size > bytes.length) return false;
  out.size = size;
  if (b >= 0xc4 && b <= 0xc6)
    out.payload = uintAt(bytes, p + 1, size - 1); // bin
  else if (b >= 0xc7 && b <= 0xc9)
    out.payload = uintAt(bytes, p + 1, size - 2); // ext: length, then type
  else if (b >= 0xd4 && b <= 0xd8)
    out.payload = 1 << (b - 0xd4); // fixext: type in the head
  else if (b >= 0xd9 && b <= 0xdb) {
    out.payload = uintAt(bytes, p + 1, size - 1);
    out.text = true;
  }
  return true;
}

/** JSON without backslashes: a hit lies in a string when an odd number of quotes precede it (the needle holds no quote). */
function jsonHitInString(bytes: Uint8Array, needle: AsciiNeedle, first: number): boolean {
  let quotes = 0;
  let p = 0;
  for (let hit = first; hit >= 0; hit = findAscii(bytes, needle, hit + 1)) {
    for (let q = bytes.indexOf(0x22, p); q >= 0 && q < hit; q = bytes.indexOf(0x22, q + 1)) {
      quotes++;
      p = q + 1;
    }
    if (p < hit) p = hit;
    if (quotes % 2 === 1) return true;
  }
  return false;
}
