import { Flag, Kind } from './kinds.js';
import type { SpanIndex } from './span-index.js';
import { previewValue, tagNumber } from './describe.js';

/**
 * Cost by field across array elements: every recorded node (the root and keys excepted) is
 * grouped by its path pattern, the path with array positions replaced by `*`
 * (`users[*].avatarHash`), so 10,000 users' avatar hashes add up to one row. This is what
 * tells a user which field to shorten or drop: one `avatarHash` costs 40 B, all of them 40%
 * of the frame.
 *
 * A map value is charged its key (the key exists only for it): `keyBytes` are the keys'
 * whole encodings (JSON: with quotes), `valueBytes` the values' spans (a container's span
 * holds everything below it, so a container row and its fields' rows overlap by design).
 */
export interface FieldCost {
  /** `$.users[*].avatarHash`; the same syntax as paths (formatPath), positions as `*`. */
  readonly pattern: string;
  /** Levels below the root (a container row and its fields can be told apart). */
  readonly depth: number;
  readonly isContainer: boolean;
  /** Nodes that share the pattern. */
  readonly count: number;
  readonly keyBytes: number;
  readonly valueBytes: number;
  /** keyBytes + valueBytes. */
  readonly totalBytes: number;
  /** totalBytes / frame size. */
  readonly share: number;
  /** totalBytes / count. */
  readonly averageBytes: number;
}

export interface FieldCostReport {
  readonly frameBytes: number;
  /** Distinct patterns found (rows beyond `limit` are left out, the heaviest kept). */
  readonly patterns: number;
  /** Nodes the report covers (the recorded ones). */
  readonly nodes: number;
  /** Heaviest first (by total bytes, then pattern). */
  readonly fields: readonly FieldCost[];
}

export interface FieldCostOptions {
  /** Rows returned, heaviest first (default 500). */
  readonly limit?: number;
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The segment from a node's parent to it, positions as `*`. */
function patternSegment(index: SpanIndex, id: number, keyId: number): string {
  const { store } = index;
  const pk = store.kind[store.parent[id]];
  if (keyId >= 0) {
    if (store.kind[keyId] === Kind.text && !index.isIncomplete(keyId)) {
      const key = String(index.value(keyId));
      return IDENT.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
    }
    return `{${previewValue(index, keyId, 40)}}`;
  }
  if (pk === Kind.tag) return `<tag ${tagNumber(index, store.parent[id])}>`;
  if (pk === Kind.array || pk === Kind.crdt_arr || pk === Kind.crdt_vec) return '[*]';
  return '<chunk *>';
}

/**
 * Aggregates the recorded nodes by path pattern; call after `index.expandAll(index.root)`
 * for the whole frame (unrecorded subtrees count in their container's row only). One
 * forward pass: parents are recorded before their children.
 */
export function fieldCosts(index: SpanIndex, options: FieldCostOptions = {}): FieldCostReport {
  const limit = options.limit ?? 500;
  const { store } = index;
  const frameBytes = index.bytes.length;
  const root = index.root;
  if (root < 0) return { frameBytes, patterns: 0, nodes: 0, fields: [] };
  // Pattern id per node; -1 for keys and anything inside a key (keys are charged to values).
  const patternOf = new Int32Array(store.size).fill(-1);
  const interned = new Map<string, number>();
  const names: string[] = ['$'];
  const depths: number[] = [0];
  const containers: boolean[] = [true];
  const counts: number[] = [0];
  const keyBytes: number[] = [0];
  const valueBytes: number[] = [0];
  patternOf[root] = 0;
  let nodes = 0;
  for (let id = 0; id < store.size; id++) {
    const parent = store.parent[id];
    if (id === root || parent < 0 || store.flags[id] & Flag.key) continue;
    const parentPattern = patternOf[parent];
    if (parentPattern < 0) continue;
    const keyId = index.keyOf(id);
    const segment = patternSegment(index, id, keyId);
    const lookup = `${parentPattern}\u0000${segment}`;
    let p = interned.get(lookup);
    if (p === undefined) {
      p = names.length;
      interned.set(lookup, p);
      names.push(names[parentPattern] + segment);
      depths.push(depths[parentPattern] + 1);
      containers.push(index.isContainer(id));
      counts.push(0);
      keyBytes.push(0);
      valueBytes.push(0);
    }
    patternOf[id] = p;
    counts[p]++;
    nodes++;
    valueBytes[p] += store.end[id] - store.start[id];
    if (keyId >= 0) keyBytes[p] += store.end[keyId] - store.start[keyId];
  }
  const ids: number[] = [];
  for (let p = 1; p < names.length; p++) ids.push(p);
  ids.sort((a, b) => keyBytes[b] + valueBytes[b] - (keyBytes[a] + valueBytes[a]) || (names[a] < names[b] ? -1 : 1));
  const frame = frameBytes || 1;
  const fields = ids.slice(0, limit).map((p): FieldCost => {
    const total = keyBytes[p] + valueBytes[p];
    return {
      pattern: names[p],
      depth: depths[p],
      isContainer: containers[p],
      count: counts[p],
      keyBytes: keyBytes[p],
      valueBytes: valueBytes[p],
      totalBytes: total,
      share: total / frame,
      averageBytes: total / counts[p],
    };
  });
  return { frameBytes, patterns: names.length - 1, nodes, fields };
}
