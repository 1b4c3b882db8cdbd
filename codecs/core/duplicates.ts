import { Flag } from './kinds.js';
import type { SpanIndex } from './span-index.js';

/**
 * Reports keys of one recorded map that equal an earlier key of it: in CBOR and MessagePack
 * (and the CBOR inside json-joy frames) keys equal when their encoded bytes do; in JSON when
 * their decoded values do (`"a"`, `"\u0061"`). Walkers call it when a map's entries are
 * recorded (a full index reports every duplicate; a shallow one, those of the maps expanded
 * so far).
 *
 * It runs for every map of a full index, so it makes nothing per key or per map: key bytes
 * are compared in place (a JSON key with escapes is first decoded into a reused buffer),
 * maps whose keys all differ in length stop after one pass, small maps compare pairs, large
 * ones go through a reused open-addressing table of key hashes, a hash match confirmed byte
 * for byte. The store is read through its packed slab arrays (no typed array is made).
 */
export function reportDuplicateKeys(index: SpanIndex, mapId: number): void {
  const store = index.store;
  const i32 = store.slabI32;
  const u8 = store.slabU8;
  const c = store.cap;
  const startAt = store.i32At;
  const endAt = startAt + c;
  const nextSiblingAt = startAt + 4 * c;
  const flagsAt = store.u8At + c;
  const json = index.walker.format === 'json';
  const bytes = index.bytes;
  let decoded = 0; // bytes used in `decodedKeys`
  let lengthsSeen = 0; // bit n: a key of n (modulo 32) bytes
  let repeat = false;
  let n = 0;
  for (let k = i32[startAt + 3 * c + mapId]; k >= 0; k = i32[nextSiblingAt + k]) {
    const flags = u8[flagsAt + k];
    if ((flags & Flag.key) === 0 || (flags & Flag.incomplete) !== 0) continue;
    if (n === keyNode.length) growKeys();
    let at = i32[startAt + k];
    let size = i32[endAt + k] - at;
    let inDecoded = 0;
    if (json) {
      // The text between the quotes; decoded when it holds an escape.
      at++;
      size -= 2;
      if (hasBackslash(bytes, at, size)) {
        const from = decoded;
        decoded = decodeJsonString(bytes, at, at + size, decoded);
        at = from;
        size = decoded - from;
        inDecoded = 1;
      }
    }
    keyNode[n] = k;
    keyAt[n] = at;
    keySize[n] = size;
    keyDecoded[n] = inDecoded;
    n++;
    const bit = 1 << (size & 31);
    if ((lengthsSeen & bit) !== 0) repeat = true;
    lengthsSeen |= bit;
  }
  // Equal keys have equal lengths: most maps have no two alike and are done here.
  if (repeat) {
    if (n <= SMALL_MAP) comparePairs(index, bytes, n);
    else compareHashed(index, bytes, n);
  }
  // A large decoded buffer is not kept for the next map (it holds copies of key text).
  if (decodedKeys.length > DECODED_KEEP) decodedKeys = new Uint8Array(DECODED_KEEP);
}

/** Up to this many keys, comparing each with the earlier ones costs less than hashing. */
const SMALL_MAP = 16;
const DECODED_KEEP = 4096;

// Reused per-key scratch (numbers only: nothing here refers to a frame).
let keyNode = new Int32Array(64);
let keyAt = new Int32Array(64);
let keySize = new Int32Array(64);
let keyDecoded = new Uint8Array(64);
let keyHashes = new Int32Array(64);
/** Open-addressing table of key positions (index into the arrays above), -1 = empty. */
let table = new Int32Array(128);
/** Decoded text of the JSON keys with escapes in the current map (UTF-8; lone surrogates as WTF-8). */
let decodedKeys = new Uint8Array(DECODED_KEEP);

function growKeys(): void {
  const size = keyNode.length * 2;
  const grow = <T extends Int32Array | Uint8Array>(a: T, make: (n: number) => T): T => {
    const b = make(size);
    b.set(a);
    return b;
  };
  keyNode = grow(keyNode, (s) => new Int32Array(s));
  keyAt = grow(keyAt, (s) => new Int32Array(s));
  keySize = grow(keySize, (s) => new Int32Array(s));
  keyDecoded = grow(keyDecoded, (s) => new Uint8Array(s));
  keyHashes = new Int32Array(size);
}

function sourceOf(bytes: Uint8Array, i: number): Uint8Array {
  return keyDecoded[i] ? decodedKeys : bytes;
}

function comparePairs(index: SpanIndex, bytes: Uint8Array, n: number): void {
  for (let i = 1; i < n; i++) {
    const size = keySize[i];
    const a = sourceOf(bytes, i);
    const at = keyAt[i];
    for (let j = 0; j < i; j++) {
      if (keySize[j] === size && sameBytes(a, at, sourceOf(bytes, j), keyAt[j], size)) {
        report(index, keyNode[i], keyNode[j]);
        break;
      }
    }
  }
}

function compareHashed(index: SpanIndex, bytes: Uint8Array, n: number): void {
  let slots = table.length;
  while (slots < 2 * n) slots *= 2;
  if (slots !== table.length) table = new Int32Array(slots);
  const mask = slots - 1;
  table.fill(-1);
  for (let i = 0; i < n; i++) {
    const a = sourceOf(bytes, i);
    const at = keyAt[i];
    const size = keySize[i];
    const h = keyHash(a, at, size);
    keyHashes[i] = h;
    let slot = h & mask;
    for (;;) {
      const j = table[slot];
      if (j < 0) {
        // The first key with these bytes: later equal keys find it.
        table[slot] = i;
        break;
      }
      if (keyHashes[j] === h && keySize[j] === size && sameBytes(a, at, sourceOf(bytes, j), keyAt[j], size)) {
        report(index, keyNode[i], keyNode[j]);
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
}

/** A 32-bit FNV-1a hash of bytes[at, at + size) (exported for the collision test). */
export function keyHash(bytes: Uint8Array, at: number, size: number): number {
  let h = 0x811c9dc5 ^ size;
  const end = at + size;
  for (let i = at; i < end; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h;
}

function report(index: SpanIndex, dup: number, first: number): void {
  const { store } = index;
  store.flags[dup] |= Flag.duplicateKey;
  index.warn({
    code: 'duplicate-key',
    offset: store.start[dup],
    node: dup,
    message: `duplicate map key at byte ${store.start[dup]} (first at byte ${store.start[first]})`,
  });
}

function sameBytes(a: Uint8Array, at: number, b: Uint8Array, bt: number, size: number): boolean {
  for (let i = 0; i < size; i++) if (a[at + i] !== b[bt + i]) return false;
  return true;
}

function hasBackslash(bytes: Uint8Array, at: number, size: number): boolean {
  const end = at + size;
  for (let i = at; i < end; i++) if (bytes[i] === 0x5c) return true;
  return false;
}

/**
 * Decodes the (validated) JSON string text bytes[start, end) into `decodedKeys` from `out`
 * on, returning where it ended: raw bytes are copied, escapes become their UTF-8; a `\u`
 * surrogate pair joins into one code point, a lone surrogate is written as its three-byte
 * form (WTF-8), so two keys decode to the same bytes exactly when JSON.parse gives the same
 * string.
 */
function decodeJsonString(bytes: Uint8Array, start: number, end: number, out: number): number {
  // At most as many bytes as the text (an escape is never shorter than its UTF-8).
  if (out + (end - start) > decodedKeys.length) {
    const grown = new Uint8Array(Math.max(decodedKeys.length * 2, out + (end - start)));
    grown.set(decodedKeys.subarray(0, out));
    decodedKeys = grown;
  }
  const dst = decodedKeys;
  let i = start;
  while (i < end) {
    const b = bytes[i];
    if (b !== 0x5c) {
      dst[out++] = b;
      i++;
      continue;
    }
    const e = bytes[i + 1];
    i += 2;
    if (e !== 0x75) {
      dst[out++] = e === 0x62 ? 8 : e === 0x66 ? 12 : e === 0x6e ? 10 : e === 0x72 ? 13 : e === 0x74 ? 9 : e; // b f n r t, or " \ /
      continue;
    }
    let cp = hex4(bytes, i);
    i += 4;
    if (cp >= 0xd800 && cp < 0xdc00 && i + 6 <= end && bytes[i] === 0x5c && bytes[i + 1] === 0x75) {
      const low = hex4(bytes, i + 2);
      if (low >= 0xdc00 && low < 0xe000) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
        i += 6;
      }
    }
    if (cp < 0x80) dst[out++] = cp;
    else if (cp < 0x800) {
      dst[out++] = 0xc0 | (cp >> 6);
      dst[out++] = 0x80 | (cp & 63);
    } else if (cp < 0x10000) {
      dst[out++] = 0xe0 | (cp >> 12);
      dst[out++] = 0x80 | ((cp >> 6) & 63);
      dst[out++] = 0x80 | (cp & 63);
    } else {
      dst[out++] = 0xf0 | (cp >> 18);
      dst[out++] = 0x80 | ((cp >> 12) & 63);
      dst[out++] = 0x80 | ((cp >> 6) & 63);
      dst[out++] = 0x80 | (cp & 63);
    }
  }
  return out;
}

function hex4(bytes: Uint8Array, at: number): number {
  return (
    (hexDigit(bytes[at]) << 12) |
    (hexDigit(bytes[at + 1]) << 8) |
    (hexDigit(bytes[at + 2]) << 4) |
    hexDigit(bytes[at + 3])
  );
}

function hexDigit(b: number): number {
  return b <= 0x39 ? b - 0x30 : (b | 0x20) - 0x57;
}
