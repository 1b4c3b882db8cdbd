/**
 * The Bytes tab's treemaps and the tree's "largest fields", computed in the worker from a
 * frame's span index: the layout (codecs/core/byte-map.ts) for the size the page asks for,
 * and the heaviest path patterns (`users[*].avatarHash`) rather than single nodes.
 */
import { fieldByteMap, fieldPatternTree, nodeByteMap, type ByteMap, type SpanIndex } from '../../../codecs/index.js';
import type { LargestField } from './api.js';
import { FULL_REPORT_LIMIT } from './bytes-report.js';

/** Indexes the frame as the Bytes report does: whole up to the limit, three levels beyond. */
function indexForReport(index: SpanIndex): void {
  if (index.bytes.length <= FULL_REPORT_LIMIT) index.expandAll(index.root);
  else index.expand(index.root, 3);
}

export function frameByteMap(
  index: SpanIndex,
  params: { readonly by: 'node' | 'field'; readonly width: number; readonly height: number },
): ByteMap | null {
  if (index.root < 0) return null;
  const size = { width: Math.max(0, params.width), height: Math.max(0, params.height) };
  // By node, the layout reads only the containers it opens; by field, every occurrence counts.
  if (params.by === 'node') return nodeByteMap(index, size);
  indexForReport(index);
  return fieldByteMap(index, size);
}

/**
 * The `count` heaviest fields by path pattern: a field's bytes summed over every array
 * element it occurs in, keys included. Patterns with patterns below them (`users`,
 * `users[*]`) are left out: they hold the fields, they are not fields that cost. Each
 * points at its first occurrence, which the tree reveals on a click.
 */
export function largestPatterns(index: SpanIndex, count: number, minShare: number): LargestField[] {
  if (index.root < 0) return [];
  indexForReport(index);
  const tree = fieldPatternTree(index);
  if (!tree) return [];
  const hasChildren = new Uint8Array(tree.names.length);
  for (let p = 1; p < tree.names.length; p++) hasChildren[tree.parents[p]] = 1;
  const frame = index.bytes.length || 1;
  const rows: LargestField[] = [];
  for (let p = 1; p < tree.names.length; p++) {
    if (hasChildren[p]) continue;
    const size = tree.keyBytes[p] + tree.valueBytes[p];
    if (size / frame < minShare) continue;
    const node = tree.firstNode[p];
    rows.push({
      nodeId: node,
      start: index.store.start[node],
      path: tree.names[p],
      count: tree.counts[p],
      size,
      share: size / frame,
    });
  }
  rows.sort((a, b) => b.size - a.size || (a.path < b.path ? -1 : 1));
  return rows.slice(0, count);
}
