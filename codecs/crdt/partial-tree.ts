import { Flag } from '../core/kinds.js';
import type { SpanIndex } from '../core/span-index.js';
import { postOrder } from '../core/span-store.js';

/**
 * After an error, an incomplete node ends no earlier than its last-ending descendant, so a
 * partial tree keeps the shape of a tree: every child inside its parent (`8041010161`
 * gave a model [0, 4) around a con [2, 5), since the open nodes were cut at the error
 * offset while a child had been recorded past it). Bottom up, iterative.
 */
export function extendIncompleteParents(index: SpanIndex): void {
  if (!index.error || index.root < 0) return;
  const { parent, flags, end } = index.store;
  for (const n of postOrder(index.store, index.root)) {
    const p = parent[n];
    if (p >= 0 && flags[p] & Flag.incomplete && end[n] > end[p]) end[p] = end[n];
  }
}
