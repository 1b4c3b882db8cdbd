import { useRef, type PointerEvent, type ReactElement } from 'react';

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

export type ResizableColumn = 'key' | 'kind';

export interface TreeHeaderProps {
  /** The key and kind columns' widths now (a drag starts from them). */
  readonly widths?: Readonly<Record<ResizableColumn, number>>;
  /** A drag on a column's right edge: its new width. */
  readonly onResize?: (column: ResizableColumn, px: number) => void;
  /** A double click on that edge: back to fitting the column's text. */
  readonly onFit?: (column: ResizableColumn) => void;
}

/** The grip on a resizable column's right edge (pointer only: the header is hidden from assistive tech). */
function Grip(props: { column: ResizableColumn } & TreeHeaderProps): ReactElement {
  const { column, widths, onResize, onFit } = props;
  const drag = useRef<{ x: number; width: number } | null>(null);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a pointer affordance inside a header hidden from assistive tech; the columns fit their text without it
    <span
      className="ws-col-grip"
      data-testid={`tree-grip-${column}`}
      title="Drag to resize; double-click to fit the text"
      onPointerDown={(e: PointerEvent<HTMLSpanElement>) => {
        if (e.button !== 0 || !widths) return;
        e.preventDefault();
        e.stopPropagation();
        drag.current = { x: e.clientX, width: widths[column] };
        e.currentTarget.setPointerCapture?.(e.pointerId);
      }}
      onPointerMove={(e: PointerEvent<HTMLSpanElement>) => {
        const d = drag.current;
        if (d) onResize?.(column, Math.round(d.width + e.clientX - d.x));
      }}
      onPointerUp={(e: PointerEvent<HTMLSpanElement>) => {
        drag.current = null;
        e.currentTarget.releasePointerCapture?.(e.pointerId);
      }}
      onDoubleClick={() => onFit?.(column)}
    />
  );
}

export function TreeHeader(props: TreeHeaderProps = {}): ReactElement {
  return (
    <div className="ws-tree-row ws-tree-header" aria-hidden="true" data-testid="tree-header">
      {TREE_COLUMNS.map((c) => (
        <span key={c.label} title={c.title} className={NUMERIC.has(c.label) ? 'ws-num' : undefined}>
          {c.label}
          {(c.label === 'key' || c.label === 'kind') && props.onResize && <Grip column={c.label} {...props} />}
        </span>
      ))}
    </div>
  );
}
