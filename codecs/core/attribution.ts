import { Flag, Kind } from './kinds.js';
import type { SpanIndex } from './span-index.js';
import { pathOf } from './path.js';

/**
 * Byte attribution: what every field costs. A node's `total` is its own span; a map value
 * is also charged its key (`key`), since the key only exists for that value.
 */
export interface NodeCost {
  readonly id: number;
  /** end - start: header plus payload (plus break byte for indefinite items). */
  readonly total: number;
  /** Header bytes: the initial byte and its length / count argument, or the opening token (`SpanIndex.headerLength`). */
  readonly head: number;
  /** Bytes of the map key that names this value, 0 for non-map children. */
  readonly key: number;
  /** (total + key) / frame size. */
  readonly share: number;
}

export function nodeCost(index: SpanIndex, id: number): NodeCost {
  index.requireNode(id, 'nodeCost');
  const { store } = index;
  const total = store.end[id] - store.start[id];
  const keyId = index.keyOf(id);
  const key = keyId >= 0 ? store.end[keyId] - store.start[keyId] : 0;
  const frame = index.bytes.length || 1;
  return { id, total, head: index.headerLength(id), key, share: (total + key) / frame };
}

export interface MapCost {
  readonly keyBytes: number;
  readonly valueBytes: number;
  /** The map's own header (and break byte / braces and separators). */
  readonly overheadBytes: number;
  readonly entries: number;
}

/** Bytes a map spends on its keys vs its values (expands the map's entries). */
export function mapCost(index: SpanIndex, mapId: number): MapCost {
  index.requireNode(mapId, 'mapCost');
  index.expand(mapId);
  const { store } = index;
  let keyBytes = 0;
  let valueBytes = 0;
  let entries = 0;
  for (let c = store.firstChild[mapId]; c >= 0; c = store.nextSibling[c]) {
    const size = store.end[c] - store.start[c];
    if (store.flags[c] & Flag.key) {
      keyBytes += size;
      entries++;
    } else valueBytes += size;
  }
  return {
    keyBytes,
    valueBytes,
    overheadBytes: store.end[mapId] - store.start[mapId] - keyBytes - valueBytes,
    entries,
  };
}

export interface FrameAttribution {
  readonly bytes: number;
  /** Nodes recorded (all of them after a full index). */
  readonly nodes: number;
  /**
   * Head bytes of every node outside keys (`SpanIndex.headerLength`): container and tag
   * heads, string length prefixes, and a scalar's initial byte (its value bytes are value).
   */
  readonly headerBytes: number;
  /** Bytes of all map keys, headers included. */
  readonly keyBytes: number;
  /** Payload bytes of strings, byte strings and extension data (keys excluded). */
  readonly stringPayloadBytes: number;
  /** Value bytes of numbers, floats and simple values, after their initial byte (keys excluded; JSON: the whole text). */
  readonly scalarPayloadBytes: number;
  /** Payload bytes of containers whose children are not recorded (beyond an index's depth). */
  readonly unindexedBytes: number;
  /** Bytes nothing above covers: break bytes, JSON whitespace and punctuation. */
  readonly otherBytes: number;
}

/** Frame-wide totals over the recorded nodes; call after a full index for exact figures. */
export function frameAttribution(index: SpanIndex): FrameAttribution {
  const { store } = index;
  let headerBytes = 0;
  let keyBytes = 0;
  let stringPayloadBytes = 0;
  let scalarPayloadBytes = 0;
  let covered = 0;
  // Inside a key subtree everything counts as key bytes: walk keys separately.
  const inKey = new Uint8Array(store.size);
  for (let id = 0; id < store.size; id++) {
    const p = store.parent[id];
    if (store.flags[id] & Flag.key || (p >= 0 && inKey[p])) inKey[id] = 1;
    if (store.flags[id] & Flag.key) keyBytes += store.end[id] - store.start[id];
    const leaf = !index.isContainer(id);
    if (inKey[id]) {
      if (leaf) covered += store.end[id] - store.start[id];
      continue;
    }
    const k = store.kind[id];
    const stringLike = k === Kind.text || k === Kind.bytes || k === Kind.ext;
    const head = index.headerLength(id);
    headerBytes += head;
    if (!leaf) continue;
    // A string's head is its length prefix; a scalar's is its initial byte, the rest is value.
    if (stringLike) stringPayloadBytes += store.end[id] - store.start[id] - head;
    else scalarPayloadBytes += store.end[id] - store.start[id] - head;
    covered += store.end[id] - store.start[id];
  }
  // Container headers are covered by the containers themselves; an unexpanded container
  // covers its whole span, which is not attributed further.
  let unindexedBytes = 0;
  for (let id = 0; id < store.size; id++) {
    if (!index.isContainer(id) || inKey[id]) continue;
    covered += store.head[id];
    if (!(store.flags[id] & Flag.expanded)) {
      const rest = store.end[id] - store.start[id] - store.head[id];
      unindexedBytes += rest;
      covered += rest;
    }
  }
  return {
    bytes: index.bytes.length,
    nodes: store.size,
    headerBytes,
    keyBytes,
    stringPayloadBytes,
    scalarPayloadBytes,
    unindexedBytes,
    otherBytes: Math.max(0, index.bytes.length - covered),
  };
}

export interface HeavyPath {
  readonly id: number;
  readonly path: string;
  /** Value bytes plus its key's bytes. */
  readonly bytes: number;
  readonly share: number;
}

/**
 * The `n` heaviest fields among recorded nodes (the root excluded), by bytes including the
 * key that names them. `leavesOnly` ranks scalars and strings only, so nested containers
 * don't crowd out the fields that actually carry the weight.
 */
export function heaviestPaths(index: SpanIndex, n = 10, options: { leavesOnly?: boolean } = {}): HeavyPath[] {
  const { store } = index;
  const ids: number[] = [];
  const weight = new Float64Array(store.size);
  for (let id = 1; id < store.size; id++) {
    if (store.flags[id] & Flag.key) continue;
    // An unexpanded container is a leaf of what is recorded: it still competes.
    if (options.leavesOnly && index.isContainer(id) && store.flags[id] & Flag.expanded) continue;
    weight[id] = store.end[id] - store.start[id];
    ids.push(id);
  }
  // Keys precede their values as siblings: charge each value its key.
  for (let id = 0; id < store.size; id++) {
    if (!(store.flags[id] & Flag.key)) continue;
    const value = store.nextSibling[id];
    if (value >= 0) weight[value] += store.end[id] - store.start[id];
  }
  ids.sort((a, b) => weight[b] - weight[a] || store.start[a] - store.start[b]);
  const frame = index.bytes.length || 1;
  return ids.slice(0, n).map((id) => ({ id, path: pathOf(index, id), bytes: weight[id], share: weight[id] / frame }));
}
