import { Flag, Kind } from './kinds.js';
import type { SpanIndex } from './span-index.js';
import { describeHead, previewValue } from './describe.js';
import { grouped } from './grouped.js';
import { hex } from './diagnostic.js';
import { indentFor } from './indent.js';

/**
 * An annotated hex dump in the spirit of cbor.me's "pretty" view, plus what cbor.me does
 * not show: the absolute offset and the size of every item.
 *
 *     offset   size  bytes                            comment
 *          0     11  a2                               map(2)
 *          1      2    61                             text(1)
 *          2           61                             "a"
 *
 * Only recorded nodes are printed; an unexpanded container says how many bytes it holds.
 * Iterative, so deeply nested frames print without exhausting the stack, and linear:
 * indentation is capped (deeper lines show their depth as a number, see indent.ts).
 */
export interface AnnotateOptions {
  /** Payload bytes printed per line. */
  readonly bytesPerLine?: number;
  /** Payload bytes printed per string before eliding the rest. */
  readonly maxPayloadBytes?: number;
  /** Spaces per nesting level. */
  readonly indent?: number;
}

type Work = { readonly node: number; readonly level: number } | { readonly breakAt: number; readonly level: number };

export function annotatedHex(index: SpanIndex, id: number = index.root, options: AnnotateOptions = {}): string {
  // -1 is "no root" (nothing decoded): an empty dump. Any other absent id is a caller's error.
  if (id === -1 && index.root === -1) return '';
  index.requireNode(id, 'annotatedHex');
  const perLine = options.bytesPerLine ?? 16;
  const maxPayload = options.maxPayloadBytes ?? 64;
  const indent = options.indent ?? 2;
  const { store, bytes } = index;
  const rows: [string, string, string, string][] = [['offset', 'size', 'bytes', 'comment']];
  const work: Work[] = [{ node: id, level: 0 }];
  while (work.length) {
    const w = work.pop()!;
    const pad = indentFor(w.level, indent);
    if ('breakAt' in w) {
      rows.push([
        grouped(w.breakAt),
        '1',
        pad + hex(bytes, w.breakAt, w.breakAt + 1),
        index.format === 'json' ? 'close' : 'break',
      ]);
      continue;
    }
    const n = w.node;
    const start = store.start[n];
    const end = store.end[n];
    const head = store.head[n];
    const kind = store.kind[n];
    const incomplete = (store.flags[n] & Flag.incomplete) !== 0;
    const container = index.isContainer(n);
    const described = describeHead(index, n);
    let comment = store.flags[n] & Flag.key ? 'key: ' + described : described;
    if (!container && kind !== Kind.text && kind !== Kind.bytes && kind !== Kind.ext) {
      // Simple values (false, true, null, undefined) are named by their head: not `false false`.
      const value = previewValue(index, n, 60);
      if (value !== described) comment += ' ' + value;
    }
    if (incomplete) comment += '  (incomplete)';
    rows.push([grouped(start), grouped(end - start), pad + hex(bytes, start, start + head), comment]);
    if (container) {
      if (!(store.flags[n] & Flag.expanded)) {
        if (end - start - head > 0)
          rows.push([
            '',
            '',
            indentFor(w.level + 1, indent) + '…',
            `${grouped(end - start - head)} bytes not expanded`,
          ]);
        continue;
      }
      const closes = (store.flags[n] & Flag.indefinite) !== 0 || (index.format === 'json' && !incomplete);
      if (closes && end > start + head) work.push({ breakAt: end - 1, level: w.level + 1 });
      const children: number[] = [];
      for (let c = store.firstChild[n]; c >= 0; c = store.nextSibling[c]) children.push(c);
      for (let i = children.length - 1; i >= 0; i--) work.push({ node: children[i], level: w.level + 1 });
      continue;
    }
    const payloadStart = start + head;
    if (end > payloadStart && (kind === Kind.text || kind === Kind.bytes || kind === Kind.ext)) {
      const shown = Math.min(end, payloadStart + maxPayload);
      const inner = indentFor(w.level + 1, indent);
      for (let o = payloadStart; o < shown; o += perLine) {
        rows.push([
          grouped(o),
          '',
          inner + hex(bytes, o, Math.min(shown, o + perLine)),
          o === payloadStart ? previewValue(index, n, 60) : '',
        ]);
      }
      if (shown < end) rows.push(['', '', inner + '…', `${grouped(end - shown)} more bytes`]);
    }
  }
  const width = [0, 0, 0];
  for (const r of rows) for (let i = 0; i < 3; i++) width[i] = Math.max(width[i], r[i].length);
  const hexWidth = Math.min(width[2], 60);
  return rows
    .map((r) =>
      `${r[0].padStart(width[0])}  ${r[1].padStart(width[1])}  ${r[2].padEnd(hexWidth)}  ${r[3] ? (r === rows[0] ? r[3] : '# ' + r[3]) : ''}`.trimEnd(),
    )
    .join('\n');
}
