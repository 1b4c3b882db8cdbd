import { Flag, Kind } from '../core/kinds.js';
import type { SpanIndex } from '../core/span-index.js';
import { shiftMap, tableMap, type OffsetMap } from './offset-map.js';

/** The content of a string node as bytes, and where each of its bytes sits in the frame. */
export interface StringPayload {
  readonly bytes: Uint8Array;
  readonly map: OffsetMap;
  /** A text string (UTF-8): read as JSON, base64 or hex; a byte string also as binary formats. */
  readonly isText: boolean;
}

/**
 * A definite, complete text or byte string's content: the payload bytes in place (CBOR,
 * MessagePack, Protobuf, plain text), or a JSON string's unescaped UTF-8 with a table
 * from each byte to the escape or character it came from. Null for anything else.
 */
export function stringPayload(index: SpanIndex, id: number): StringPayload | null {
  if (!index.has(id)) return null;
  const { store } = index;
  const kind = store.kind[id];
  if (kind !== Kind.text && kind !== Kind.bytes) return null;
  if (store.flags[id] & (Flag.indefinite | Flag.incomplete | Flag.key | Flag.invalidUtf8)) return null;
  const start = store.start[id] + index.headerLength(id);
  const format = index.walker.nodeFormat?.(index, id) ?? index.format;
  if (format === 'json' || format === 'ndjson' || format === 'socketio') {
    // A JSON string: between its quotes.
    const end = store.end[id] - 1;
    if (index.bytes[store.start[id]] !== 0x22 || index.bytes[end] !== 0x22 || end < start) return null;
    return unescapeJson(index.bytes, start, end);
  }
  const end = store.end[id];
  if (end < start || end > index.bytes.length) return null;
  return { bytes: index.bytes.subarray(start, end), map: shiftMap(start), isText: kind === Kind.text };
}

const HEXVAL = (c: number) =>
  c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : c >= 0x41 && c <= 0x46 ? c - 0x37 : -1;

function hex4(bytes: Uint8Array, i: number): number {
  let v = 0;
  for (let k = 0; k < 4; k++) {
    const h = HEXVAL(bytes[i + k]);
    if (h < 0) return -1;
    v = (v << 4) | h;
  }
  return v;
}

/**
 * A JSON string's raw bytes (validated by the JSON walker) unescaped to UTF-8. Every output
 * byte records the offset of the character or escape it came from; the bytes of one escape
 * (`\u00e9` is two UTF-8 bytes, a surrogate pair four) all record the escape's start, so
 * spans that never cut a character still tile the raw string.
 */
export function unescapeJson(bytes: Uint8Array, start: number, end: number): StringPayload {
  // No backslash: the payload is the bytes themselves.
  let slash = -1;
  for (let i = start; i < end; i++)
    if (bytes[i] === 0x5c) {
      slash = i;
      break;
    }
  if (slash < 0) return { bytes: bytes.subarray(start, end), map: shiftMap(start), isText: true };
  const out = new Uint8Array(end - start);
  const at = new Uint32Array(end - start + 1);
  let o = 0;
  const put = (b: number, from: number) => {
    at[o] = from;
    out[o++] = b;
  };
  for (let i = start; i < end; ) {
    const c = bytes[i];
    if (c !== 0x5c) {
      put(c, i);
      i++;
      continue;
    }
    const e = bytes[i + 1];
    const simple =
      e === 0x22
        ? 0x22
        : e === 0x5c
          ? 0x5c
          : e === 0x2f
            ? 0x2f
            : e === 0x62
              ? 8
              : e === 0x66
                ? 12
                : e === 0x6e
                  ? 10
                  : e === 0x72
                    ? 13
                    : e === 0x74
                      ? 9
                      : -1;
    if (simple >= 0) {
      put(simple, i);
      i += 2;
      continue;
    }
    // \uXXXX, maybe a surrogate pair \uD83D\uDE00.
    let cp = hex4(bytes, i + 2);
    let width = 6;
    if (cp >= 0xd800 && cp <= 0xdbff && bytes[i + 6] === 0x5c && bytes[i + 7] === 0x75) {
      const lo = hex4(bytes, i + 8);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        width = 12;
      }
    }
    if (cp < 0) cp = 0xfffd;
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd; // a lone surrogate decodes as U+FFFD
    if (cp < 0x80) put(cp, i);
    else if (cp < 0x800) {
      put(0xc0 | (cp >> 6), i);
      put(0x80 | (cp & 63), i);
    } else if (cp < 0x10000) {
      put(0xe0 | (cp >> 12), i);
      put(0x80 | ((cp >> 6) & 63), i);
      put(0x80 | (cp & 63), i);
    } else {
      put(0xf0 | (cp >> 18), i);
      put(0x80 | ((cp >> 12) & 63), i);
      put(0x80 | ((cp >> 6) & 63), i);
      put(0x80 | (cp & 63), i);
    }
    i += width;
  }
  at[o] = end;
  return { bytes: out.subarray(0, o), map: tableMap(at.subarray(0, o + 1)), isText: true };
}
