import { Flag } from '../core/kinds.js';
import type { SpanIndex } from '../core/span-index.js';
import { describeHead, previewValue } from '../core/describe.js';
import { indentFor } from '../core/indent.js';

/**
 * The default CLI output: one line per recorded node with its offset, size and value,
 * indented by depth (capped: deeper lines show their depth as a number, see indent.ts). Map
 * values are labelled with their key. Iterative, linear in the number of nodes.
 *
 *   offset  size
 *        0    33  map(2) {2 entries}
 *        1     6    "name": text(5) "Alice"
 */
export function nodeTreeText(index: SpanIndex, id: number, maxValue = 60): string {
  if (id === -1) return '';
  index.requireNode(id, 'nodeTreeText');
  const { store } = index;
  const rows: [string, string, string][] = [];
  const work: { node: number; level: number }[] = [{ node: id, level: 0 }];
  while (work.length) {
    const { node, level } = work.pop()!;
    const flags = store.flags[node];
    // A key prints with its value; one whose value never arrived (truncated map) prints alone.
    if (flags & Flag.key && store.nextSibling[node] >= 0) continue;
    const keyId = flags & Flag.key ? -1 : index.keyOf(node);
    const label = keyId >= 0 ? `${previewValue(index, keyId, 40)}: ` : '';
    const head = describeHead(index, node);
    const preview = previewValue(index, node, maxValue);
    const pad = indentFor(level);
    let line = `${pad}${label}${head === preview || !preview ? head : `${head} ${preview}`}`;
    if (flags & Flag.key) line = `${pad}key ${head} ${preview}  [value missing]`;
    if (flags & Flag.incomplete) line += '  [incomplete]';
    if (flags & Flag.duplicateKey || (keyId >= 0 && store.flags[keyId] & Flag.duplicateKey)) line += '  [duplicate key]';
    if (index.isContainer(node) && !(flags & Flag.expanded)) line += '  [not expanded]';
    rows.push([String(store.start[node]), String(store.end[node] - store.start[node]), line]);
    const children: number[] = [];
    for (let c = store.firstChild[node]; c >= 0; c = store.nextSibling[c]) children.push(c);
    for (let i = children.length - 1; i >= 0; i--) work.push({ node: children[i], level: level + 1 });
  }
  let w0 = 6;
  let w1 = 4;
  for (const r of rows) {
    w0 = Math.max(w0, r[0].length);
    w1 = Math.max(w1, r[1].length);
  }
  return [`${'offset'.padStart(w0)}  ${'size'.padStart(w1)}`, ...rows.map((r) => `${r[0].padStart(w0)}  ${r[1].padStart(w1)}  ${r[2]}`)].join('\n');
}
