import { Flag, Kind } from '../core/kinds.js';
import { SpanIndex, type FormatWalker } from '../core/span-index.js';
import { cborWalker } from '../cbor/walker.js';
import { msgpackWalker } from '../msgpack/walker.js';
import { jsonWalker } from '../json/walker.js';
import { findInvalidUtf8 } from '../core/utf8.js';
import { previewValue } from '../core/describe.js';

/**
 * Building blocks for the framing-protocol walkers (MQTT, STOMP, Phoenix binary): the
 * protocol's own structure is recorded whole as maps and arrays of named parts whose leaves
 * span their bytes (keys are zero-width: names are not on the wire), and a payload is read
 * by the usual rules (JSON, CBOR or MessagePack when it decodes whole, else UTF-8 text, else
 * bytes) as a subtree with its spans in the frame, walked on demand by its own walker.
 */
export interface PartsData {
  /** Values of the protocol's own leaves (and the names of its keys). */
  readonly values: Map<number, unknown>;
  /** Payload roots and the walker that reads them (their descendants inherit it). */
  readonly owners: Map<number, FormatWalker>;
  /** Last child recorded per container, for appending. */
  readonly last: Map<number, number>;
}

export function partsData(index: SpanIndex): PartsData {
  return index.formatData as PartsData;
}

export function initParts(index: SpanIndex): PartsData {
  const data: PartsData = { values: new Map(), owners: new Map(), last: new Map() };
  index.formatData = data;
  return data;
}

/** Opens a map or array at `start` under `parent` (-1 for the root), named `name` in a map parent. */
export function openContainer(
  index: SpanIndex,
  parent: number,
  name: string | null,
  kind: number,
  start: number,
  head = 0,
): number {
  const { store } = index;
  const data = partsData(index);
  const prev = key(index, parent, name, start);
  const id = store.add(kind, start, head, 0, parent, prev);
  store.setEnd(id, start + head);
  store.addFlags(id, Flag.expanded);
  if (parent >= 0) {
    data.last.set(parent, id);
    store.setArg(parent, store.arg[parent] + 1);
  }
  return id;
}

/** Ends a container at `end` (exclusive). */
export function closeContainer(index: SpanIndex, id: number, end: number): void {
  index.store.setEnd(id, end);
}

/**
 * Marks a container (and its ancestors) incomplete, ending each at `end` or further: past its
 * head and its last child, so children stay inside their parents, and never past the frame.
 */
export function markIncomplete(index: SpanIndex, id: number, end: number): void {
  const { store } = index;
  const frameEnd = index.bytes.length;
  let reach = Math.min(end, frameEnd);
  for (let n = id; n >= 0; n = store.parent[n]) {
    store.addFlags(n, Flag.incomplete);
    let last = store.start[n] + store.head[n];
    for (let c = store.firstChild[n]; c >= 0; c = store.nextSibling[c]) last = store.end[c];
    reach = Math.min(Math.max(reach, store.end[n], last), frameEnd);
    store.setEnd(n, reach);
  }
}

/** The zero-width key node of a map entry (or nothing in an array); returns the previous sibling for the value. */
function key(index: SpanIndex, parent: number, name: string | null, start: number): number {
  const data = partsData(index);
  const prev = parent >= 0 ? (data.last.get(parent) ?? -1) : -1;
  if (parent < 0 || index.store.kind[parent] !== Kind.map || name === null) return prev;
  const { store } = index;
  const k = store.add(Kind.text, start, 0, name.length, parent, prev);
  store.setEnd(k, start);
  store.addFlags(k, Flag.key);
  data.values.set(k, name);
  data.last.set(parent, k);
  return k;
}

/** A leaf `name: value` spanning [start, end). */
export function field(
  index: SpanIndex,
  parent: number,
  name: string | null,
  start: number,
  end: number,
  value: unknown,
  kind: number = Kind.text,
  head = 0,
): number {
  const { store } = index;
  const data = partsData(index);
  const prev = key(index, parent, name, start);
  const id = store.add(
    kind,
    start,
    head,
    kind === Kind.text || kind === Kind.bytes ? end - start - head : 0,
    parent,
    prev,
  );
  store.setEnd(id, end);
  data.values.set(id, value);
  data.last.set(parent, id);
  store.setArg(parent, store.arg[parent] + 1);
  return id;
}

const utf8 = new TextDecoder('utf-8', { fatal: false });

export function text(bytes: Uint8Array, start: number, end: number): string {
  return utf8.decode(bytes.subarray(start, end));
}

const PAYLOAD_WALKERS: readonly [string, FormatWalker][] = [
  ['json', jsonWalker],
  ['cbor', cborWalker],
  ['msgpack', msgpackWalker],
];

/** What a payload was read as. */
export type PayloadReading = 'json' | 'cbor' | 'msgpack' | 'text' | 'bytes' | 'empty';

/**
 * What a payload's bytes read as: a JSON / CBOR / MessagePack index (depth 0) when one of
 * them reads it whole (JSON only for text that opens an object or array, so a bare number
 * stays text), else text when it is valid UTF-8, else bytes. `prefer` tries one reading
 * first (a STOMP content-type). Edit and send picks a framing's inner notation by it too.
 */
export function readPayload(
  slice: Uint8Array,
  prefer?: 'json' | 'text' | 'bytes',
): { readonly reading: PayloadReading; readonly sub: SpanIndex | null } {
  if (slice.length === 0) return { reading: 'empty', sub: null };
  const validText = findInvalidUtf8(slice, 0, slice.length) < 0;
  const opensJson = firstNonSpace(slice) === 0x7b || firstNonSpace(slice) === 0x5b;
  if (prefer !== 'text' && prefer !== 'bytes') {
    for (const [format, walker] of PAYLOAD_WALKERS) {
      if (format === 'json' && !(validText && (opensJson || prefer === 'json'))) continue;
      // Text that is not JSON is not read as CBOR / MessagePack (a word would be a number and junk).
      if (format !== 'json' && validText && isPrintable(slice)) continue;
      const sub = new SpanIndex(slice, walker, { depth: 0 });
      if (sub.root < 0 || sub.error || sub.store.end[0] !== slice.length) continue;
      return { reading: format as PayloadReading, sub };
    }
  }
  return { reading: validText && prefer !== 'bytes' ? 'text' : 'bytes', sub: null };
}

/** The payload [start, end) as `name` under `parent`, read as readPayload says. */
export function payload(
  index: SpanIndex,
  parent: number,
  name: string,
  start: number,
  end: number,
  prefer?: 'json' | 'text' | 'bytes',
): PayloadReading {
  const { bytes } = index;
  const { reading, sub } = readPayload(bytes.subarray(start, Math.max(start, end)), prefer);
  if (reading === 'empty') field(index, parent, name, start, start, '', Kind.text);
  else if (sub) adoptNode(index, parent, name, sub, 0, start);
  else if (reading === 'text') field(index, parent, name, start, end, text(bytes, start, end), Kind.text);
  else field(index, parent, name, start, end, bytes.slice(start, end), Kind.bytes);
  return reading;
}

/**
 * Records node `node` of `sub` (an index of the frame's bytes from `offset`) as `name` under
 * `parent`, its spans moved into the frame, read from then on by `sub`'s walker (its children
 * on demand). Returns the new node's id.
 */
export function adoptNode(
  index: SpanIndex,
  parent: number,
  name: string | null,
  sub: SpanIndex,
  node: number,
  offset: number,
): number {
  const { store } = index;
  const data = partsData(index);
  const prev = key(index, parent, name, offset + sub.store.start[node]);
  const s = sub.store;
  const id = store.add(s.kind[node], offset + s.start[node], s.head[node], s.arg[node], parent, prev);
  store.setEnd(id, offset + s.end[node]);
  store.addFlags(id, s.flags[node] & ~(Flag.expanded | Flag.key));
  data.owners.set(id, sub.walker);
  data.last.set(parent, id);
  store.setArg(parent, store.arg[parent] + 1);
  return id;
}

function firstNonSpace(b: Uint8Array): number {
  for (let i = 0; i < b.length; i++) if (b[i] !== 0x20 && b[i] !== 0x0a && b[i] !== 0x0d && b[i] !== 0x09) return b[i];
  return -1;
}

function isPrintable(b: Uint8Array): boolean {
  for (let i = 0; i < b.length; i++) if (b[i] < 0x20 && b[i] !== 0x0a && b[i] !== 0x0d && b[i] !== 0x09) return false;
  return true;
}

const plainViews = new WeakMap<SpanIndex, SpanIndex>();
/** The index seen through a walker without a preview hook: the generic preview for the rest. */
function plainView(index: SpanIndex): SpanIndex {
  let view = plainViews.get(index);
  if (!view) {
    const { preview: _, ...walker } = index.walker;
    view = Object.create(index, { walker: { value: walker } }) as SpanIndex;
    plainViews.set(index, view);
  }
  return view;
}

/** The walker reading a payload node (or null for the protocol's own nodes). */
export function ownerOf(index: SpanIndex, node: number): FormatWalker | null {
  const data = partsData(index);
  if (!data || data.values.has(node)) return null;
  for (let n = node; n >= 0; n = index.store.parent[n]) {
    const w = data.owners.get(n);
    if (w) return w;
  }
  return null;
}

/**
 * The FormatWalker hooks every protocol walker shares: payload nodes go to their own walker,
 * the protocol's leaves answer from the values map.
 */
export function protocolWalker(
  format: FormatWalker['format'],
  walkFrame: (index: SpanIndex) => void,
  describeRoot: (index: SpanIndex) => string,
): FormatWalker {
  return {
    format,
    walk(index, node, depth) {
      if (node < 0) {
        walkFrame(index);
        return;
      }
      const owner = ownerOf(index, node);
      if (owner) owner.walk(index, node, depth);
    },
    leafValue(index, node) {
      const data = partsData(index);
      if (data.values.has(node)) return data.values.get(node);
      const owner = ownerOf(index, node);
      return owner ? owner.leafValue(index, node) : undefined;
    },
    nodeFormat(index, node) {
      return ownerOf(index, node)?.format ?? format;
    },
    tagValue(index, node, content) {
      const owner = ownerOf(index, node);
      return owner?.tagValue ? owner.tagValue(index, node, content) : content;
    },
    preview(index, node, max) {
      const { store } = index;
      const k = store.kind[node];
      if ((k === Kind.text || k === Kind.bytes) && !index.isContainer(node) && !(store.flags[node] & Flag.incomplete)) {
        const v = this.leafValue(index, node);
        if (typeof v === 'string') {
          const q = JSON.stringify(v.length > max ? v.slice(0, max) : v);
          return v.length > max ? `${q.slice(0, -1)}…"` : q;
        }
      }
      return previewValue(plainView(index), node, max);
    },
    describe(index, node) {
      if (node === 0) return describeRoot(index);
      const data = partsData(index);
      const { store } = index;
      if (data.values.has(node))
        return store.flags[node] & Flag.key
          ? 'key'
          : store.kind[node] === Kind.bytes
            ? `bytes(${store.end[node] - store.start[node]})`
            : index.kind(node);
      const owner = ownerOf(index, node);
      if (owner?.describe) return owner.describe(index, node);
      switch (store.kind[node]) {
        case Kind.text:
          return `text(${store.arg[node]})`;
        case Kind.bytes:
          return `bytes(${store.arg[node]})`;
        case Kind.array:
          return `array(${store.arg[node]})`;
        case Kind.map:
          return `map(${store.arg[node]})`;
        default:
          return index.kind(node);
      }
    },
  };
}
