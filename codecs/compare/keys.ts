/**
 * Key overhead of a frame, on the frame's own encoding (a fully expanded SpanIndex): how
 * many bytes go to map keys and map framing versus values, which keys repeat most, and an
 * estimate of the same data in a schema (struct) encoding where keys are not on the wire.
 *
 * Works on any index whose maps record key / value siblings (`Flag.key`): CBOR, MessagePack
 * and JSON maps, and json-joy model `obj` nodes (their keys are content bytes there).
 *
 * The schema estimate is a model, not an encoder:
 *
 *   schemaBytes = frameBytes − keyBytes − mapOverheadBytes + records × recordTagBytes
 *
 * - keyBytes: every key's whole encoding (header included; JSON: with its quotes);
 * - mapOverheadBytes: each map's own framing — its header (CBOR / MessagePack: initial
 *   byte and length) or, in JSON, the braces, colons, commas and whitespace between entries;
 * - records: the maps, each becoming one record of a known type;
 * - recordTagBytes (default 1): what a record still needs on the wire — a type / version
 *   tag or a length, the way protobuf, Avro with a union, or a CBOR array header of the
 *   field values would spend about one byte.
 * Values keep their current encodings; a schema that also fixes value types (no per-value
 * headers) would save more, a schema with optional fields (presence bits) a little less.
 * Maps nested inside map keys are counted as key bytes, never as records.
 */
import { Flag, Kind } from '../core/kinds.js';
import type { SpanIndex } from '../core/span-index.js';
import { keyText } from './convert.js';
import { LeafValueCache } from '../core/leaf-value-cache.js';

export interface KeyUse {
  /** The key as text (non-string keys: their JS String(), bytes as base64). */
  readonly key: string;
  readonly count: number;
  /** All its occurrences' encoded bytes. */
  readonly bytes: number;
}

export interface SchemaEstimate {
  readonly bytes: number;
  /** frameBytes − bytes. */
  readonly saved: number;
  readonly records: number;
  readonly recordTagBytes: number;
}

export interface KeyOverhead {
  readonly frameBytes: number;
  /** Maps (and json-joy obj nodes) with their entries recorded. */
  readonly maps: number;
  readonly entries: number;
  readonly keyBytes: number;
  /** The maps' values, whole (nested maps' keys included). */
  readonly valueBytes: number;
  /** Map framing: headers; JSON braces, colons, commas, whitespace. */
  readonly mapOverheadBytes: number;
  /** keyBytes / frameBytes. */
  readonly keyShare: number;
  readonly distinctKeys: number;
  /** The heaviest keys by total bytes (then count), at most `top`. */
  readonly topKeys: readonly KeyUse[];
  readonly schema: SchemaEstimate;
}

export interface KeyOverheadOptions {
  /** How many keys to list (default 10). */
  readonly top?: number;
  /** Per-record cost in the schema estimate (default 1). */
  readonly recordTagBytes?: number;
}

export function keyOverhead(index: SpanIndex, options: KeyOverheadOptions = {}): KeyOverhead {
  const top = options.top ?? 10;
  const recordTagBytes = options.recordTagBytes ?? 1;
  const frameBytes = index.bytes.length;
  const root = index.root;
  if (root >= 0) index.expandAll(root);
  const { store } = index;
  const inKey = new Uint8Array(store.size);
  const uses = new Map<string, { count: number; bytes: number }>();
  let maps = 0;
  let entries = 0;
  let keyBytes = 0;
  let mapOverheadBytes = 0;
  // Parents are recorded before their children, so one forward pass sees a key before
  // anything inside it.
  const keyValues = new LeafValueCache(index);
  for (let id = 0; id < store.size; id++) {
    const p = store.parent[id];
    if (store.flags[id] & Flag.key || (p >= 0 && inKey[p])) inKey[id] = 1;
    if (inKey[id] && !(store.flags[id] & Flag.key)) continue;
    if (store.flags[id] & Flag.key) {
      const size = store.end[id] - store.start[id];
      const text = keyText(keyValues.value(id));
      const u = uses.get(text);
      if (u) {
        u.count++;
        u.bytes += size;
      } else uses.set(text, { count: 1, bytes: size });
      continue;
    }
    const k = store.kind[id];
    if (k !== Kind.map && k !== Kind.crdt_obj) continue;
    let mapKeys = 0;
    let mapValues = 0;
    let n = 0;
    for (let c = store.firstChild[id]; c >= 0; c = store.nextSibling[c]) {
      const size = store.end[c] - store.start[c];
      if (store.flags[c] & Flag.key) {
        mapKeys += size;
        n++;
      } else mapValues += size;
    }
    // A json-joy obj spans its id and length fields too: that is its framing here.
    maps++;
    entries += n;
    keyBytes += mapKeys;
    mapOverheadBytes += store.end[id] - store.start[id] - mapKeys - mapValues;
  }
  // Values nest: a nested map's keys and framing sit inside its parent's value bytes.
  // Value bytes are what the outermost maps hold besides all keys and all map framing, so
  // keyBytes + valueBytes + mapOverheadBytes is what the maps span.
  const valueBytes = Math.max(0, outermostMapBytes(index, inKey) - keyBytes - mapOverheadBytes);
  const topKeys = [...uses.entries()]
    .map(([key, u]) => ({ key, count: u.count, bytes: u.bytes }))
    .sort((a, b) => b.bytes - a.bytes || b.count - a.count || (a.key < b.key ? -1 : 1))
    .slice(0, top);
  const schemaBytes = Math.max(0, frameBytes - keyBytes - mapOverheadBytes + maps * recordTagBytes);
  return {
    frameBytes,
    maps,
    entries,
    keyBytes,
    valueBytes,
    mapOverheadBytes,
    keyShare: frameBytes ? keyBytes / frameBytes : 0,
    distinctKeys: uses.size,
    topKeys,
    schema: { bytes: schemaBytes, saved: frameBytes - schemaBytes, records: maps, recordTagBytes },
  };
}

/** Bytes the outermost maps span (all maps and their entries lie inside one of them). */
function outermostMapBytes(index: SpanIndex, inKey: Uint8Array): number {
  const { store } = index;
  // Parents are recorded before their children: one forward pass marks every node with a
  // map above it (walking each map's ancestors was O(n x depth): 20,000 nested maps took 1.5 s).
  const underMap = new Uint8Array(store.size);
  let inside = 0;
  for (let id = 0; id < store.size; id++) {
    const p = store.parent[id];
    if (p >= 0 && (underMap[p] || store.kind[p] === Kind.map || store.kind[p] === Kind.crdt_obj)) underMap[id] = 1;
    const k = store.kind[id];
    if (inKey[id] || (k !== Kind.map && k !== Kind.crdt_obj)) continue;
    if (!underMap[id]) inside += store.end[id] - store.start[id];
  }
  return inside;
}
