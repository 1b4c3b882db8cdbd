import { Flag, Kind } from './kinds.js';
import type { SpanIndex } from './span-index.js';
import { LeafValueCache } from './leaf-value-cache.js';
import { previewValue } from './describe.js';

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

/**
 * Patterns deeper than this are summed into one `…` row under the last level: a hostile
 * frame of 100,000 nested arrays would otherwise make 100,000 patterns of up to 300,000
 * characters each.
 */
export const MAX_PATTERN_DEPTH = 64;
const DEEP = '\u0004deep';

/**
 * What tells a node's pattern apart among its parent's: the key's text ('\u0001' before a
 * non-text key's preview), or one fixed marker for array positions and chunks (a tag's
 * content has no segment: it is its tag's field).
 * Cheap on purpose: it is computed for every node; the printable segment only for new ones.
 */
function segmentKey(index: SpanIndex, id: number, keyId: number, keyValues: LeafValueCache): string {
  const { store } = index;
  if (keyId >= 0) {
    const k = store.kind[keyId];
    // json-joy keys are content leaves holding the key's text.
    if ((k === Kind.text || k === Kind.crdt_content) && !index.isIncomplete(keyId)) {
      const text = keyValues.value(keyId);
      if (typeof text === 'string') return text;
    }
    return '\u0001' + previewValue(index, keyId, 40);
  }
  // Named by role where the format names children (json-joy's `.ops[3].after`), positions as `*`.
  const name = index.walker.childName?.(index, id);
  if (name) return '\u0003' + name.path.replace(/\[\d+\]$/, '[*]');
  const pk = store.kind[store.parent[id]];
  return pk === Kind.array || pk === Kind.crdt_arr || pk === Kind.crdt_vec ? '\u0002[*]' : '\u0002chunk';
}

/** The printable segment for a segment key: `.name`, `["a b"]`, `{7}`, `[*]`. */
function segmentText(key: string): string {
  if (key === DEEP) return '…';
  if (key === '\u0002[*]') return '[*]';
  if (key === '\u0002chunk') return '<chunk *>';
  if (key.startsWith('\u0001')) return `{${key.slice(1)}}`;
  if (key.startsWith('\u0003')) return key.slice(1);
  return IDENT.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/**
 * Every path pattern of a frame as a tree: pattern 0 is the root (`$`, its value bytes the
 * root's span), every other one names its parent pattern. Per pattern the nodes that share
 * it, their keys' bytes, their spans and their heads, and the first node found with it.
 */
export interface FieldPatternTree {
  readonly names: readonly string[];
  readonly parents: Int32Array;
  readonly depths: readonly number[];
  readonly containers: readonly boolean[];
  readonly counts: readonly number[];
  readonly keyBytes: readonly number[];
  readonly valueBytes: readonly number[];
  /** Head bytes of the pattern's nodes (`SpanIndex.headerLength`). */
  readonly headBytes: readonly number[];
  /** The first node (in wire order) with the pattern. */
  readonly firstNode: readonly number[];
  /** Nodes grouped (the root and keys excepted). */
  readonly nodes: number;
}

/**
 * Aggregates the recorded nodes by path pattern; call after `index.expandAll(index.root)`
 * for the whole frame (unrecorded subtrees count in their container's row only). One
 * forward pass: parents are recorded before their children.
 */
export function fieldPatternTree(index: SpanIndex): FieldPatternTree | null {
  // The Bytes report and the treemap by field ask for the same frame's tree: built once per index state.
  const known = builtTrees.get(index);
  if (known && known.size === index.store.size) return known.tree;
  const tree = buildPatternTree(index);
  if (tree) builtTrees.set(index, { size: index.store.size, tree });
  return tree;
}

const builtTrees = new WeakMap<SpanIndex, { readonly size: number; readonly tree: FieldPatternTree }>();

function buildPatternTree(index: SpanIndex): FieldPatternTree | null {
  const { store } = index;
  const root = index.root;
  if (root < 0) return null;
  // Pattern id per node; -1 for keys and anything inside a key (keys are charged to values).
  const patternOf = new Int32Array(store.size).fill(-1);
  // Per pattern, its child patterns by segment key: no string built per node.
  const childPatterns: Map<string, number>[] = [new Map()];
  const names: string[] = ['$'];
  const parents: number[] = [-1];
  const depths: number[] = [0];
  const containers: boolean[] = [true];
  const counts: number[] = [1];
  const keyBytes: number[] = [0];
  const valueBytes: number[] = [store.end[root] - store.start[root]];
  const headBytes: number[] = [index.headerLength(root)];
  const firstNode: number[] = [root];
  patternOf[root] = 0;
  const keyValues = new LeafValueCache(index);
  let nodes = 0;
  for (let id = 0; id < store.size; id++) {
    const parent = store.parent[id];
    if (id === root || parent < 0 || store.flags[id] & Flag.key) continue;
    const parentPattern = patternOf[parent];
    if (parentPattern < 0) continue;
    // A tag's content is the field the tag labels (`lastSeen` is `1(1700000000)`): it shares
    // the tag's pattern (the tag's span already holds it), and the pattern is a container only
    // when the content is one. So `users[*].lastSeen` is one field row, key and tag head in it.
    if (store.kind[parent] === Kind.tag) {
      patternOf[id] = parentPattern;
      if (firstNode[parentPattern] === parent) containers[parentPattern] = index.isContainer(id);
      continue;
    }
    const keyId = index.keyOf(id);
    const deepParent = depths[parentPattern] > MAX_PATTERN_DEPTH;
    const key =
      deepParent || depths[parentPattern] === MAX_PATTERN_DEPTH ? DEEP : segmentKey(index, id, keyId, keyValues);
    // Below the deep row, everything stays in it.
    let p = deepParent ? parentPattern : childPatterns[parentPattern].get(key);
    if (p === undefined) {
      p = names.length;
      childPatterns[parentPattern].set(key, p);
      childPatterns.push(new Map());
      names.push(names[parentPattern] + segmentText(key));
      parents.push(parentPattern);
      depths.push(depths[parentPattern] + 1);
      containers.push(index.isContainer(id));
      counts.push(0);
      keyBytes.push(0);
      valueBytes.push(0);
      headBytes.push(0);
      firstNode.push(id);
    }
    patternOf[id] = p;
    counts[p]++;
    nodes++;
    valueBytes[p] += store.end[id] - store.start[id];
    headBytes[p] += index.headerLength(id);
    if (keyId >= 0) keyBytes[p] += store.end[keyId] - store.start[keyId];
  }
  return {
    names,
    parents: Int32Array.from(parents),
    depths,
    containers,
    counts,
    keyBytes,
    valueBytes,
    headBytes,
    firstNode,
    nodes,
  };
}

/** The heaviest path patterns of a frame (see fieldPatternTree). */
export function fieldCosts(index: SpanIndex, options: FieldCostOptions = {}): FieldCostReport {
  const limit = options.limit ?? 500;
  const frameBytes = index.bytes.length;
  const tree = fieldPatternTree(index);
  if (!tree) return { frameBytes, patterns: 0, nodes: 0, fields: [] };
  const { names, depths, containers, counts, keyBytes, valueBytes, nodes } = tree;
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
