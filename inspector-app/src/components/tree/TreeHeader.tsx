import type { ReactElement } from 'react';

/** Column names above the tree rows; sticky, in the rows' grid (tree.css). */
export const TREE_COLUMNS = [
  { label: 'key', title: 'The key naming the value (map entries) or its position [i] (array items)' },
  { label: 'kind', title: 'Major type and length from the header: map(3), text(5), tag(1), …' },
  { label: 'value', title: 'A preview of the value' },
  { label: 'bytes', title: 'Bytes of the field on the wire: its key (if any), header and payload' },
  {
    label: '% of parent',
    title: "Share of the parent's bytes as its bytes column shows them (its key included); the bar draws it",
  },
  { label: 'frame', title: 'Share of the frame' },
  { label: 'hdr', title: 'Header bytes: initial byte plus argument, or the opening token' },
] as const;

const NUMERIC = new Set(['bytes', '% of parent', 'frame', 'hdr']);

export function TreeHeader(): ReactElement {
  return (
    <div className="ws-tree-row ws-tree-header" aria-hidden="true" data-testid="tree-header">
      {TREE_COLUMNS.map((c) => (
        <span key={c.label} title={c.title} className={NUMERIC.has(c.label) ? 'ws-num' : undefined}>
          {c.label}
        </span>
      ))}
    </div>
  );
}
