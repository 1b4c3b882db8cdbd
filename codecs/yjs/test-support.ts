import { Flag } from '../core/kinds.js';
import type { SpanIndex } from '../core/span-index.js';
import { ownerOf } from '../protocols/frame-parts.js';

/**
 * Where the recorded nodes' own bytes do not tile the frame: a container owns its head, a
 * node without recorded children its whole span (zero-width map keys own nothing). Returns
 * the first gap or overlap in words, or null when every byte belongs to exactly one node and
 * every child lies inside its parent.
 */
export function spanTilingProblem(index: SpanIndex): string | null {
  const { store } = index;
  const owned: [number, number, number][] = [];
  for (let id = 0; id < store.size; id++) {
    const start = store.start[id];
    const end = store.end[id];
    const parent = store.parent[id];
    if (parent >= 0 && (start < store.start[parent] || end > store.end[parent]))
      return `node ${id} [${start}, ${end}) is outside its parent ${parent} [${store.start[parent]}, ${store.end[parent]})`;
    if (store.flags[id] & Flag.key && start === end) continue;
    // A payload read by another walker (an awareness state's JSON) is one leaf here: JSON's
    // own nodes leave its punctuation to their containers.
    const payload = ownerOf(index, id) !== null;
    if (payload && parent >= 0 && ownerOf(index, parent) !== null) continue;
    const hasChildren = !payload && store.firstChild[id] >= 0;
    const ownEnd = hasChildren ? start + store.head[id] : end;
    if (ownEnd > start) owned.push([start, ownEnd, id]);
  }
  owned.sort((a, b) => a[0] - b[0]);
  let at = 0;
  for (const [start, end, id] of owned) {
    if (start > at) return `bytes [${at}, ${start}) belong to no node`;
    if (start < at) return `node ${id} [${start}, ${end}) overlaps the bytes before ${at}`;
    at = end;
  }
  return at === index.bytes.length ? null : `bytes [${at}, ${index.bytes.length}) belong to no node`;
}
