import { Flag, previewValue, type SpanIndex } from '../../../codecs/index.js';
import type { TreeSearchResult } from './api.js';

/** Frames up to this size are searched whole; larger ones down to SEARCH_DEPTH levels. */
export const SEARCH_FULL_LIMIT = 2 * 1024 * 1024;
export const SEARCH_DEPTH = 4;

/** The text a node is matched on: its key (map values) and, for leaves, its value. */
function textsOf(index: SpanIndex, id: number): string[] {
  const out: string[] = [];
  const keyId = index.keyOf(id);
  if (keyId >= 0)
    out.push(
      index.kind(keyId) === 'text' && !index.isIncomplete(keyId)
        ? String(index.value(keyId))
        : previewValue(index, keyId, 200),
    );
  if (!index.isContainer(id)) {
    const kind = index.kind(id);
    // A string matches on its whole content, not a cut preview.
    out.push(kind === 'text' && !index.isIncomplete(id) ? String(index.value(id)) : previewValue(index, id, 200));
  }
  return out;
}

/**
 * Nodes of a frame whose key or leaf value contains `text` (case-insensitive), in byte
 * order: each as its root-to-node id path, so the tree can open down to it. `limit` paths
 * at most; `total` counts every match.
 */
export function searchTree(index: SpanIndex, text: string, limit: number): TreeSearchResult {
  const needle = text.trim().toLowerCase();
  if (!needle || index.root < 0) return { paths: [], total: 0, complete: true };
  const complete = index.bytes.length <= SEARCH_FULL_LIMIT;
  if (complete) index.expandAll(index.root);
  else index.expand(index.root, SEARCH_DEPTH);
  const { store } = index;
  const hits: number[] = [];
  let total = 0;
  for (let id = 0; id < store.size; id++) {
    if (store.flags[id] & Flag.key) continue;
    if (!textsOf(index, id).some((t) => t.toLowerCase().includes(needle))) continue;
    total++;
    hits.push(id);
  }
  hits.sort((a, b) => store.start[a] - store.start[b]);
  const paths = hits.slice(0, limit).map((id) => {
    const path: number[] = [];
    for (let n = id; n >= 0; n = store.parent[n]) path.push(n);
    return path.reverse();
  });
  return { paths, total, complete };
}
