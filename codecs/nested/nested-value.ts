import { Flag, Kind } from '../core/kinds.js';
import { SpanIndex, type FormatWalker } from '../core/span-index.js';
import { cborWalker } from '../cbor/walker.js';
import { msgpackWalker } from '../msgpack/walker.js';
import { jsonWalker } from '../json/walker.js';
import { embeddedCbor, embeddedOffset } from '../cbor/embedded.js';
import { tagNumber } from '../core/describe.js';
import { plausibility, protobufDetector } from '../detect.js';
import { composeMaps, base64Map, hexMap, shiftMap, type OffsetMap } from './offset-map.js';
import { stringPayload } from './string-payload.js';
import { decodeBase64Text, decodeHexText } from './text-encodings.js';
import { automergeWalker, opensLikeAutomerge } from '../automerge/walker.js';

/**
 * Payloads inside payloads: a byte string, a text string (a JSON string value too) or CBOR
 * tag 24 whose content decodes whole as CBOR, MessagePack, JSON or Protobuf — directly or as
 * base64 / base64url / hex of such bytes — read as a value of its own, with its own span
 * index and a map from its offsets to the frame's.
 *
 * Cheap and honest: only strings of MIN_NESTED_BYTES and more are tried, a reading must
 * pass the plausibility rules detection uses (a container root with ordinary content;
 * Protobuf only with small field numbers and a nested message or text field), readings are
 * made lazily (when a viewer lists the string) and each index tries at most
 * NESTED_BUDGET_BYTES of strings. Nesting stops at MAX_NESTED_DEPTH levels.
 */

export type NestedFormat = 'cbor' | 'msgpack' | 'json' | 'protobuf' | 'automerge';
/** How the inner bytes were found: tag 24's byte string, a string's bytes as they are, or a text encoding of them. */
export type NestedVia = 'tag 24' | 'bytes' | 'text' | 'base64' | 'base64url' | 'hex';

export interface NestedValue {
  /** The inner value's own index (offsets relative to the inner bytes). */
  readonly index: SpanIndex;
  readonly format: NestedFormat;
  readonly via: NestedVia;
  /** `decoded as cbor (from base64)`. */
  readonly label: string;
  /** Inner offset → offset in the outermost frame (composed through every level). */
  readonly map: OffsetMap;
  /** 1 for a value inside the frame's own string, 2 inside that, … */
  readonly level: number;
  /** The string node holding it, in the parent's index. */
  readonly stringId: number;
  readonly parent: NestedValue | null;
}

/** Shortest string content tried: `a1 61 61 01` ({"a": 1} in CBOR) is 4 bytes; 3-byte strings that parse are chance. */
export const MIN_NESTED_BYTES = 4;
/** Protobuf has no magic number: its nested readings need more bytes. */
const MIN_PROTOBUF_BYTES = 6;
/** Levels of values inside values (a string in a nested value is read again, up to this). */
export const MAX_NESTED_DEPTH = 8;
/** Bytes of strings one index tries in all (a frame of many large strings stays cheap). */
export const NESTED_BUDGET_BYTES = 32 * 1024 * 1024;

const cache = new WeakMap<SpanIndex, Map<number, NestedValue | null>>();
const spent = new WeakMap<SpanIndex, number>();

/**
 * The value nested in string node `id` of `index`, or null. `parent` is the nested value
 * `index` belongs to (null for a frame's own index): offsets compose through it. Never throws.
 */
export function nestedValue(index: SpanIndex, id: number, parent: NestedValue | null = null): NestedValue | null {
  if (!index.has(id)) return null;
  let byNode = cache.get(index);
  if (!byNode) cache.set(index, (byNode = new Map()));
  const known = byNode.get(id);
  if (known !== undefined) return known;
  let found: NestedValue | null = null;
  try {
    found = readNested(index, id, parent);
  } catch {
    found = null;
  }
  byNode.set(id, found);
  return found;
}

function readNested(index: SpanIndex, id: number, parent: NestedValue | null): NestedValue | null {
  const level = (parent?.level ?? 0) + 1;
  if (level > MAX_NESTED_DEPTH) return null;
  const outer = parent?.map;
  const make = (inner: SpanIndex, format: NestedFormat, via: NestedVia, map: OffsetMap): NestedValue => ({
    index: inner,
    format,
    via,
    label:
      via === 'tag 24'
        ? 'decoded as cbor (tag 24)'
        : `decoded as ${format}${via === 'bytes' || via === 'text' ? '' : ` (from ${via})`}`,
    map: outer ? composeMaps(map, outer) : map,
    level,
    stringId: id,
    parent,
  });
  // Tag 24 says what its byte string holds: any well-formed item.
  const { store } = index;
  const p = store.parent[id];
  if (index.format === 'cbor' && p >= 0 && store.kind[p] === Kind.tag && tagNumber(index, p) === '24') {
    const inner = embeddedCbor(index, id);
    return inner ? make(inner, 'cbor', 'tag 24', shiftMap(embeddedOffset(index, id))) : null;
  }
  const payload = stringPayload(index, id);
  if (!payload || payload.bytes.length < MIN_NESTED_BYTES) return null;
  const used = spent.get(index) ?? 0;
  if (used + payload.bytes.length > NESTED_BUDGET_BYTES) return null;
  spent.set(index, used + payload.bytes.length);
  const bytes = payload.bytes;
  // The string's content as it is: bytes in any format, text as JSON.
  const direct = payload.isText ? readJson(bytes) : readBinary(bytes);
  if (direct) return make(direct.index, direct.format, payload.isText ? 'text' : 'bytes', payload.map);
  // A text encoding of bytes: hex first when every character is a hex digit (hex digits are base64 too).
  const hex = decodeHexText(bytes);
  if (hex && hex.bytes.length >= MIN_NESTED_BYTES) {
    const r = readBinary(hex.bytes);
    if (r) return make(r.index, r.format, 'hex', composeMaps(hexMap(0), payload.map));
    // Hex digits are base64 too, but a hex string (a hash, an id) is not base64 of data.
    return null;
  }
  const b64 = decodeBase64Text(bytes);
  if (b64 && b64.bytes.length >= MIN_NESTED_BYTES) {
    const r = readBinary(b64.bytes);
    if (r)
      return make(
        r.index,
        r.format,
        b64.encoding,
        composeMaps(base64Map(0, b64.bytes.length, b64.textLength), payload.map),
      );
  }
  return null;
}

interface Reading {
  readonly index: SpanIndex;
  readonly format: NestedFormat;
}

function firstNonSpace(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)) i++;
  return i < bytes.length ? bytes[i] : -1;
}

/** JSON text whose root is an object or array. */
function readJson(bytes: Uint8Array): Reading | null {
  const c = firstNonSpace(bytes);
  if (c !== 0x7b && c !== 0x5b) return null;
  const index = new SpanIndex(bytes, jsonWalker, { depth: 1 });
  return index.error || index.root < 0 ? null : { index, format: 'json' };
}

const CBOR_OPENS = (b: number) => (b >= 0x80 && b <= 0xbf) || (b >= 0xc0 && b <= 0xdb);
/** A Protobuf field tag's first byte: wire type 0, 1, 2 or 5 and (in one byte) a field number from 1. */
const PROTOBUF_OPENS = (b: number) =>
  ((b & 7) === 0 || (b & 7) === 1 || (b & 7) === 2 || (b & 7) === 5) && (b >= 0x80 || b >> 3 !== 0);
const MSGPACK_OPENS = (b: number) => (b >= 0x80 && b <= 0x9f) || (b >= 0xdc && b <= 0xdf);

/** A binary reading: Automerge's sync message or chunks, else the most plausible of CBOR and MessagePack, else JSON text, else Protobuf. */
function readBinary(bytes: Uint8Array): Reading | null {
  // automerge-repo's sync messages carry automerge's own bytes: a sync message or chunks.
  if (opensLikeAutomerge(bytes)) {
    const index = new SpanIndex(bytes, automergeWalker, { depth: 1 });
    if (!index.error && index.root >= 0) return { index, format: 'automerge' };
  }
  let best: Reading | null = null;
  let bestScore = -Infinity;
  const tryWalker = (format: 'cbor' | 'msgpack', walker: FormatWalker, base: number) => {
    const index = new SpanIndex(bytes, walker, { depth: 1 });
    if (index.error || index.root < 0) return;
    const score = containerScore(index, format);
    if (score === null) return;
    if (base + score > bestScore) [best, bestScore] = [{ index, format }, base + score];
  };
  if (CBOR_OPENS(bytes[0])) tryWalker('cbor', cborWalker, 0.75);
  if (MSGPACK_OPENS(bytes[0])) tryWalker('msgpack', msgpackWalker, 0.72);
  if (best) return best;
  const json = readJson(bytes);
  if (json) return json;
  if (bytes.length < MIN_PROTOBUF_BYTES || !PROTOBUF_OPENS(bytes[0])) return null;
  // The raw Protobuf detector by name: other detectors read 'protobuf' too (Centrifugo's, only with its subprotocol).
  const pb = protobufDetector.detect(bytes, {});
  // Small field numbers only, and a nested message or text field among them: 0.3 + 0.15 + 0.05 in the
  // detector's scale (which adds up to 0.49999… in floating point).
  if (pb && !('error' in pb) && pb.index && pb.confidence >= 0.49 && hasWrittenText(pb.index))
    return { index: pb.index, format: 'protobuf' };
  return null;
}

/**
 * The plausibility of a CBOR / MessagePack reading as nested data, or null when it is not.
 * Random bytes (a hash, a UUID) read whole as MessagePack or CBOR more often than one would
 * think — `91 ae …` is an array of one 14-byte string, `83 54 cb …` a map of numbers — so
 * a reading must show written structure: a map whose keys are all written text (in CBOR
 * also small integers, as COSE keys are), or an array holding such a map or mostly text;
 * every string read must be valid UTF-8 without control characters.
 */
function containerScore(index: SpanIndex, format: 'cbor' | 'msgpack'): number | null {
  const { store } = index;
  let root = index.root;
  if (store.kind[root] === Kind.tag) root = store.firstChild[root] ?? -1;
  if (root < 0) return null;
  const k = store.kind[root];
  if (k !== Kind.map && k !== Kind.array) return null;
  if (index.children(root).length === 0) return null;
  index.expand(index.root, 3);
  if (!textLooksWritten(index)) return null;
  if (k === Kind.map ? !keysLookWritten(index, root, format) : !arrayLooksWritten(index, root, format)) return null;
  const p = plausibility(index);
  return p.score >= 0.1 ? p.score : null;
}

/** Every key is non-empty text (or, in CBOR, a small integer, with two entries or more). */
function keysLookWritten(index: SpanIndex, map: number, format: 'cbor' | 'msgpack'): boolean {
  const { store } = index;
  let entries = 0;
  let ints = 0;
  for (let c = store.firstChild[map]; c >= 0; c = store.nextSibling[c]) {
    if (!(store.flags[c] & Flag.key)) continue;
    entries++;
    const k = store.kind[c];
    if (k === Kind.text && store.end[c] - store.start[c] > index.headerLength(c)) continue;
    if (format === 'cbor' && (k === Kind.uint || k === Kind.nint) && store.end[c] - store.start[c] === 1) {
      ints++;
      continue;
    }
    return false;
  }
  return entries > 0 && (ints === 0 || entries >= 2);
}

/** An array holding a map with written keys, or whose bytes are a third text or more. */
function arrayLooksWritten(index: SpanIndex, array: number, format: 'cbor' | 'msgpack'): boolean {
  const { store } = index;
  let textBytes = 0;
  for (let c = store.firstChild[array]; c >= 0; c = store.nextSibling[c]) {
    const k = store.kind[c];
    if (k === Kind.map && keysLookWritten(index, c, format)) return true;
    if (k === Kind.text) textBytes += store.end[c] - store.start[c] - index.headerLength(c);
  }
  return textBytes * 3 >= store.end[array] - store.start[array];
}

/**
 * Random bytes read as Protobuf now and then, a LEN field of them read as a nested message:
 * a Protobuf value counts when a text field of two characters or more reads as written text.
 */
function hasWrittenText(index: SpanIndex): boolean {
  index.expand(index.root, 3);
  const { store } = index;
  let text = false;
  for (let id = 0; id < Math.min(store.size, 256); id++)
    if (store.kind[id] === Kind.text && store.end[id] - store.start[id] - index.headerLength(id) >= 2) text = true;
  return text && textLooksWritten(index);
}

/** Every string read so far is written text: valid UTF-8 (a MessagePack `str` that is not is only a warning) without control characters. */
function textLooksWritten(index: SpanIndex): boolean {
  const { store, bytes } = index;
  const n = Math.min(store.size, 256);
  for (let id = 0; id < n; id++) {
    if (store.kind[id] !== Kind.text) continue;
    if (store.flags[id] & Flag.invalidUtf8) return false;
    const end = Math.min(store.end[id], bytes.length);
    for (let i = store.start[id] + store.head[id]; i < end; i++) {
      const c = bytes[i];
      if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f) return false;
    }
  }
  return true;
}
