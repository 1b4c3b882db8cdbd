import { Flag, Kind } from '../core/kinds.js';
import type { SpanIndex } from '../core/span-index.js';
import { describeHead, previewValue } from '../core/describe.js';
import { indentFor } from '../core/indent.js';
import { nestedValue, type NestedValue } from '../nested/nested-value.js';

/**
 * The default CLI output: one line per recorded node with its offset, size and value,
 * indented by depth (capped: deeper lines show their depth as a number, see indent.ts). Map
 * values are labelled with their key. Iterative, linear in the number of nodes.
 *
 *   offset  size
 *        0    33  map(2) {2 entries}
 *        1     6    "name": text(5) "Alice"
 *
 * A string holding a value of its own (codecs/nested) is followed by a `decoded as cbor
 * (from base64)` line and that value's tree, at the frame offsets its bytes came from.
 */
export function nodeTreeText(index: SpanIndex, id: number, maxValue = 60, nestedDepth = Infinity): string {
  if (id === -1) return '';
  return [...nodeTreeChunks(index, id, maxValue, nestedDepth)].join('');
}

/** Lines joined per chunk: few writes, and memory that does not grow with the tree. */
const CHUNK_LINES = 4096;

/**
 * The same tree as lines in chunks (joined by newlines, no newline after the last), made as
 * they are read: the CLI writes each chunk out, so a tree of a million levels never sits in
 * memory as text. The columns are as wide as the frame's length needs (no offset or size
 * exceeds it), so no line waits for the widest.
 */
export function* nodeTreeChunks(
  index: SpanIndex,
  id: number,
  maxValue = 60,
  nestedDepth = Infinity,
): Generator<string> {
  if (id === -1) return;
  index.requireNode(id, 'nodeTreeText');
  const w0 = Math.max(6, String(index.bytes.length).length);
  const w1 = Math.max(4, String(index.bytes.length).length);
  let lines: string[] = [`${'offset'.padStart(w0)}  ${'size'.padStart(w1)}`];
  let first = true;
  const row = (offset: number, size: number, text: string) => {
    lines.push(`${String(offset).padStart(w0)}  ${String(size).padStart(w1)}  ${text}`);
  };
  const work: { ix: SpanIndex; nested: NestedValue | null; node: number; level: number }[] = [
    { ix: index, nested: null, node: id, level: 0 },
  ];
  while (work.length) {
    if (lines.length >= CHUNK_LINES) {
      yield (first ? '' : '\n') + lines.join('\n');
      first = false;
      lines = [];
    }
    const { ix, nested, node, level } = work.pop()!;
    const { store } = ix;
    const at = (offset: number) => (nested ? nested.map.at(offset) : offset);
    const flags = store.flags[node];
    // A key prints with its value; one whose value never arrived (truncated map) prints alone.
    if (flags & Flag.key && store.nextSibling[node] >= 0) continue;
    const keyId = flags & Flag.key ? -1 : ix.keyOf(node);
    const label = keyId >= 0 ? `${previewValue(ix, keyId, 40)}: ` : '';
    const head = describeHead(ix, node);
    const preview = previewValue(ix, node, maxValue);
    const pad = indentFor(level);
    let line = `${pad}${label}${head === preview || !preview ? head : `${head} ${preview}`}`;
    if (flags & Flag.key) line = `${pad}key ${head} ${preview}  [value missing]`;
    if (flags & Flag.incomplete) line += '  [incomplete]';
    if (flags & Flag.duplicateKey || (keyId >= 0 && store.flags[keyId] & Flag.duplicateKey))
      line += '  [duplicate key]';
    if (ix.isContainer(node) && !(flags & Flag.expanded)) line += '  [not expanded]';
    const start = at(store.start[node]);
    row(start, at(store.end[node]) - start, line);
    const children: number[] = [];
    for (let c = store.firstChild[node]; c >= 0; c = store.nextSibling[c]) children.push(c);
    for (let i = children.length - 1; i >= 0; i--) work.push({ ix, nested, node: children[i], level: level + 1 });
    // The value inside a string, below it (pushed last: printed right after the string).
    const kind = store.kind[node];
    if ((kind === Kind.bytes || kind === Kind.text) && !(flags & Flag.key) && (nested?.level ?? 0) < nestedDepth) {
      const inner = nestedValue(ix, node, nested);
      if (inner && inner.index.root >= 0) {
        inner.index.expandAll(inner.index.root);
        const s = inner.map.at(0);
        row(s, inner.map.at(inner.index.bytes.length) - s, `${indentFor(level + 1)}${inner.label}`);
        work.push({ ix: inner.index, nested: inner, node: inner.index.root, level: level + 2 });
      }
    }
  }
  if (lines.length) yield (first ? '' : '\n') + lines.join('\n');
}
