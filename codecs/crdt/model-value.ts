import { Flag, Kind } from '../core/kinds.js';
import type { SpanIndex } from '../core/span-index.js';
import { postOrder } from '../core/span-store.js';
import { decodeUtf8, findInvalidUtf8 } from '../core/utf8.js';
import { SimpleValue, setOwn } from '../core/values.js';
import { indexCbor } from '../cbor/index.js';
import { cborArgument, decodeFloat16 } from '../cbor/value.js';
import { crdtIdOf, type CrdtId } from './annotations.js';

/**
 * Values (document views) and byte accounting over an index recorded by the model walker
 * (`model-walker.ts`). Everything reads the recorded nodes; nothing calls json-joy.
 */

/**
 * json-joy strings are UTF-16: an edit may split a surrogate pair, and json-pack's encoder
 * then writes the lone surrogate as a 3-byte sequence ED A0..BF 80..BF (WTF-8). Strict
 * UTF-8 otherwise. Returns the offset of the first bad sequence, WTF8_VALID, or
 * WTF8_SURROGATES (valid, with at least one lone surrogate).
 */
export const WTF8_VALID = -1;
export const WTF8_SURROGATES = -2;
export function findInvalidWtf8(bytes: Uint8Array, start: number, end: number): number {
  let result = WTF8_VALID;
  let from = start;
  for (;;) {
    const bad = findInvalidUtf8(bytes, from, end);
    if (bad < 0) return result;
    if (
      bad + 2 < end &&
      bytes[bad] === 0xed &&
      bytes[bad + 1] >= 0xa0 &&
      bytes[bad + 1] <= 0xbf &&
      (bytes[bad + 2] & 0xc0) === 0x80
    ) {
      result = WTF8_SURROGATES;
      from = bad + 3;
      continue;
    }
    return bad;
  }
}

/** Decodes bytes `findInvalidWtf8` accepted: lone surrogates become their UTF-16 code units. */
export function decodeWtf8(bytes: Uint8Array, start: number, end: number): string {
  let out = '';
  let from = start;
  for (let i = start; i + 2 < end; i++) {
    if (bytes[i] === 0xed && bytes[i + 1] >= 0xa0) {
      out +=
        decodeUtf8(bytes, from, i) + String.fromCharCode(0xd000 | ((bytes[i + 1] & 0x3f) << 6) | (bytes[i + 2] & 0x3f));
      i += 2;
      from = i + 1;
    }
  }
  return from === start ? decodeUtf8(bytes, start, end) : out + decodeUtf8(bytes, from, end);
}

/** The value of a con node that holds a timestamp (json-joy's `Timestamp`): sid and time. */
export class CrdtTimestamp implements CrdtId {
  constructor(
    readonly sid: number,
    readonly time: number,
  ) {}
}

/**
 * The view of any node, as json-joy's `node.view()` would give it: con → its constant
 * (CBOR decoded with wirescope's value model: bigint, TaggedValue, SimpleValue, Map …;
 * a timestamp constant → CrdtTimestamp), val → its child's view, obj → object without
 * entries whose view is undefined (`__proto__` is an own key), vec → array (absent
 * elements undefined), str → live text, bin → live bytes, arr → live elements.
 * crdt_model → the document; crdt_chunk → its text / bytes / elements; crdt_tombstone →
 * undefined; crdt_clock → `crdtClockTable`; crdt_clock_entry / crdt_id → {sid, time}.
 * An incomplete node gives the part that decoded. Iterative.
 */
export function crdtModelValue(index: SpanIndex, id: number): unknown {
  if (!index.has(id)) return undefined;
  const { kind, firstChild, nextSibling } = index.store;
  const results = new Map<number, unknown>();
  for (const n of postOrder(index.store, id)) {
    results.set(n, build(index, n, kind[n], results));
    // Children are no longer needed once their parent is built.
    for (let c = firstChild[n]; c >= 0; c = nextSibling[c]) results.delete(c);
  }
  return results.get(id);
}

function build(index: SpanIndex, n: number, k: number, results: Map<number, unknown>): unknown {
  const { store } = index;
  const { firstChild, nextSibling, flags, arg } = store;
  const first = firstChild[n];
  switch (k) {
    case Kind.crdt_content:
    case Kind.crdt_id:
      return crdtModelLeafValue(index, n);
    case Kind.crdt_con:
      return arg[n] === -1 || first < 0 ? undefined : results.get(first);
    case Kind.crdt_val:
      return first < 0 ? undefined : results.get(first);
    case Kind.crdt_model: {
      for (let c = first; c >= 0; c = nextSibling[c]) if (store.kind[c] !== Kind.crdt_clock) return results.get(c);
      return undefined;
    }
    case Kind.crdt_obj: {
      const obj: Record<string, unknown> = {};
      for (let c = first; c >= 0; c = nextSibling[c]) {
        if (!(flags[c] & Flag.key)) continue;
        const v = nextSibling[c];
        if (v < 0) break;
        const value = results.get(v);
        if (value !== undefined) setOwn(obj, results.get(c) as string, value);
        c = v;
      }
      return obj;
    }
    case Kind.crdt_vec: {
      const out: unknown[] = [];
      for (let c = first; c >= 0; c = nextSibling[c]) out.push(results.get(c));
      return out;
    }
    case Kind.crdt_str: {
      let s = '';
      for (let c = first; c >= 0; c = nextSibling[c])
        if (store.kind[c] === Kind.crdt_chunk) s += (results.get(c) as string | undefined) ?? '';
      return s;
    }
    case Kind.crdt_bin: {
      const parts: Uint8Array[] = [];
      let total = 0;
      for (let c = first; c >= 0; c = nextSibling[c]) {
        const part = store.kind[c] === Kind.crdt_chunk ? (results.get(c) as Uint8Array | undefined) : undefined;
        if (part) {
          parts.push(part);
          total += part.length;
        }
      }
      const out = new Uint8Array(total);
      let o = 0;
      for (const p of parts) {
        out.set(p, o);
        o += p.length;
      }
      return out;
    }
    case Kind.crdt_arr: {
      const out: unknown[] = [];
      for (let c = first; c >= 0; c = nextSibling[c]) {
        if (store.kind[c] !== Kind.crdt_chunk) continue;
        const items = results.get(c) as unknown[] | undefined;
        if (items) for (const item of items) out.push(item);
      }
      return out;
    }
    case Kind.crdt_chunk: {
      const pk = store.kind[store.parent[n]];
      if (pk === Kind.crdt_arr) {
        const out: unknown[] = [];
        for (let c = first; c >= 0; c = nextSibling[c]) out.push(results.get(c));
        return out;
      }
      if (first >= 0) return results.get(first);
      return pk === Kind.crdt_bin ? new Uint8Array(0) : '';
    }
    case Kind.crdt_clock:
      return crdtClockTable(index);
    case Kind.crdt_clock_entry: {
      const idv = crdtIdOf(index, n);
      return idv ? { sid: idv.sid, time: idv.time } : undefined;
    }
    default:
      return undefined;
  }
}

/** The value of a content or id leaf: key / text → string, binary → bytes, constant → CBOR value. */
export function crdtModelLeafValue(index: SpanIndex, id: number): unknown {
  if (!index.has(id)) return undefined;
  const { store, bytes } = index;
  const k = store.kind[id];
  if (k === Kind.crdt_id) {
    const ts = crdtIdOf(index, id);
    return ts ? new CrdtTimestamp(ts.sid, ts.time) : undefined;
  }
  if (k !== Kind.crdt_content || store.flags[id] & Flag.incomplete) return undefined;
  const start = store.start[id];
  const end = store.end[id];
  const parent = store.parent[id];
  const pk = parent >= 0 ? store.kind[parent] : -1;
  if (pk === Kind.crdt_obj) return decodeWtf8(bytes, start, end);
  if (pk === Kind.crdt_chunk) {
    const gk = store.kind[store.parent[parent]];
    return gk === Kind.crdt_bin ? bytes.slice(start, end) : decodeWtf8(bytes, start, end);
  }
  if (pk === Kind.crdt_con) {
    const scalar = cborScalar(bytes, start, end);
    if (scalar !== NOT_SCALAR) return scalar;
    const cbor = indexCbor(bytes.subarray(start, end));
    return cbor.ok ? cbor.value(0) : undefined;
  }
  return undefined;
}

const NOT_SCALAR = Symbol('not a scalar');

/**
 * The value of a validated scalar CBOR item filling [start, end), with the CBOR walker's
 * value model (cborLeafValue): integers beyond 2^53 as bigint, simple values 0..19 as
 * SimpleValue. Anything else: NOT_SCALAR (then the CBOR index decodes it).
 */
function cborScalar(bytes: Uint8Array, start: number, end: number): unknown {
  const ib = bytes[start];
  const major = ib >> 5;
  const ai = ib & 31;
  const head = ai < 24 ? 1 : ai <= 27 ? 1 + (1 << (ai - 24)) : 0;
  if (!head) return NOT_SCALAR;
  switch (major) {
    case 0:
      return cborArgument(bytes, start, head);
    case 1: {
      const n = cborArgument(bytes, start, head);
      return typeof n === 'bigint' ? -1n - n : n === Number.MAX_SAFE_INTEGER ? -1n - BigInt(n) : -1 - n;
    }
    case 2:
      return bytes.slice(start + head, end);
    case 3:
      return decodeUtf8(bytes, start + head, end);
    case 7:
      if (ai < 20) return new SimpleValue(ai);
      if (ai < 24) return ai === 20 ? false : ai === 21 ? true : ai === 22 ? null : undefined;
      if (ai === 25) return decodeFloat16((bytes[start + 1] << 8) | bytes[start + 2]);
      if (ai === 26) return new DataView(bytes.buffer, bytes.byteOffset + start + 1, 4).getFloat32(0);
      if (ai === 27) return new DataView(bytes.buffer, bytes.byteOffset + start + 1, 8).getFloat64(0);
      return NOT_SCALAR;
    default:
      return NOT_SCALAR;
  }
}

/** The clock of a model: the logical clock table in order (the model's own session first) or the server time. */
export type CrdtClockTable = { sid: number; time: number }[] | { serverTime: number };

export function crdtClockTable(index: SpanIndex): CrdtClockTable | null {
  const root = index.root;
  if (root < 0 || index.store.kind[root] !== Kind.crdt_model) return null;
  const { store } = index;
  let clock = -1;
  for (let c = store.firstChild[root]; c >= 0; c = store.nextSibling[c]) {
    if (store.kind[c] === Kind.crdt_clock) {
      clock = c;
      break;
    }
  }
  if (clock < 0) return null;
  if (index.bytes[0] & 0x80) {
    const ts = crdtIdOf(index, clock);
    return ts ? { serverTime: ts.time } : null;
  }
  const out: { sid: number; time: number }[] = [];
  for (let c = store.firstChild[clock]; c >= 0; c = store.nextSibling[c]) {
    const ts = crdtIdOf(index, c);
    if (ts) out.push({ sid: ts.sid, time: ts.time });
  }
  return out;
}

/** json-joy's extension ids (`json-crdt-extensions/constants`). */
const EXTENSIONS = ['mval', 'cnt', 'peritext', 'quill', 'prosemirror', 'slate'];

/**
 * The json-joy extension a vec node implements, or null: a vec of exactly two elements
 * whose first is a con holding 3 bytes [extension id, vec sid % 256, vec time % 256]
 * (json-joy's `VecNode.getExtId`). Names: mval, cnt, peritext, quill, prosemirror, slate;
 * an unknown extension id gives `ext:<id>`.
 */
export function crdtExtensionOf(index: SpanIndex, id: number): string | null {
  if (!index.has(id)) return null;
  const { store } = index;
  if (store.kind[id] !== Kind.crdt_vec || store.arg[id] !== 2) return null;
  const head = store.firstChild[id];
  if (head < 0 || store.nextSibling[head] < 0 || store.kind[head] !== Kind.crdt_con || store.arg[head] !== 0)
    return null;
  const vecId = crdtIdOf(index, id);
  if (!vecId) return null;
  const value = crdtModelValue(index, head);
  if (!(value instanceof Uint8Array) || value.length !== 3) return null;
  if (value[1] !== vecId.sid % 256 || value[2] !== vecId.time % 256) return null;
  return EXTENSIONS[value[0]] ?? `ext:${value[0]}`;
}

/** Content bytes (keys, text, binary data, constants) vs metadata (everything else) in a frame. */
export function crdtByteSplit(index: SpanIndex): { totalBytes: number; contentBytes: number; metadataBytes: number } {
  const { store } = index;
  const { kind, start, end } = store;
  let content = 0;
  for (let i = 0; i < store.size; i++) if (kind[i] === Kind.crdt_content) content += end[i] - start[i];
  const total = index.bytes.length;
  return { totalBytes: total, contentBytes: content, metadataBytes: total - content };
}

/** The same split for one node's span. */
export function nodeByteSplit(index: SpanIndex, id: number): { total: number; content: number; metadata: number } {
  if (!index.has(id)) return { total: 0, content: 0, metadata: 0 };
  const { start, end } = index.store;
  const content = contentBytesBelow(index)[id];
  const total = end[id] - start[id];
  return { total, content, metadata: total - content };
}

/**
 * Content bytes in every node's subtree, summed once per index (bottom up) and kept: asked
 * node by node (`--json` asks for every node) a walk of each subtree was quadratic on a
 * deep model. Made again when the store has grown since.
 */
const contentMemo = new WeakMap<SpanIndex, Float64Array>();
function contentBytesBelow(index: SpanIndex): Float64Array {
  const { store } = index;
  let sums = contentMemo.get(index);
  if (sums && sums.length === store.size) return sums;
  sums = new Float64Array(store.size);
  const { kind, start, end, parent } = store;
  const root = index.root;
  if (root >= 0) {
    for (const n of postOrder(store, root)) {
      if (kind[n] === Kind.crdt_content) sums[n] += end[n] - start[n];
      if (n !== root && parent[n] >= 0) sums[parent[n]] += sums[n];
    }
  }
  contentMemo.set(index, sums);
  return sums;
}
