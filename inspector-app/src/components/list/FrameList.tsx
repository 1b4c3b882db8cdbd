import { memo, useCallback, useEffect, useRef, type KeyboardEvent, type ReactElement, type ReactNode } from 'react';
import { observeElementRect, useVirtualizer, type Rect, type Virtualizer } from '@tanstack/react-virtual';
import type { FrameSummary } from '../../worker/api.js';
import { formatBytes, formatTime } from '../shell/format.js';
import './list.css';

const ROW_HEIGHT = 20;
const HEADER_HEIGHT = 20;
/** jsdom (and a collapsed pane) report no size: render a screenful anyway. */
const FALLBACK_RECT: Rect = { width: 800, height: 600 };

function observeRect(instance: Virtualizer<HTMLDivElement, Element>, cb: (rect: Rect) => void) {
  return observeElementRect(instance, (rect) => cb(rect.height > 0 ? rect : FALLBACK_RECT));
}

export interface FrameListProps {
  readonly rows: readonly FrameSummary[];
  readonly selectedId: number | null;
  readonly onSelect: (frameId: number) => void;
  /** Short names for connection ids (`#1`, `#2`), by id. */
  readonly connectionLabels: ReadonlyMap<string, string>;
  /** What an empty list says (no frames yet, or none matching the filters). */
  readonly empty?: ReactNode;
}

const Row = memo(function Row(props: { row: FrameSummary; top: number; selected: boolean; connection: string; onSelect: (id: number) => void }): ReactElement {
  const { row, top, selected, connection, onSelect } = props;
  return (
    <div
      role="row"
      aria-selected={selected}
      data-testid="frame-row"
      data-frame-id={row.frameId}
      data-format={row.format ?? 'unknown'}
      className="ws-frame-row"
      style={{ transform: `translateY(${top}px)` }}
      onMouseDown={() => onSelect(row.frameId)}
    >
      <span className="ws-num ws-muted">{row.frameId}</span>
      <span className="ws-mono">{formatTime(row.time)}</span>
      <span className={row.direction === 'sent' ? 'ws-dir-sent' : 'ws-dir-received'} title={row.direction} aria-label={row.direction}>
        {row.direction === 'sent' ? '↑' : '↓'}
      </span>
      <span title={row.connectionId}>{connection}</span>
      <span>{row.opcode}</span>
      <span className="ws-num">{formatBytes(row.size)}</span>
      <span className={row.error ? 'ws-badge-error' : undefined} title={row.error?.message}>
        {row.error ? `${row.format ?? '?'} ✕` : (row.format ?? '?')}
      </span>
      <span className="ws-mono" title={row.preview.length > 60 ? row.preview : undefined}>
        {row.preview}
      </span>
    </div>
  );
});

/**
 * The frame list: virtualized (only visible rows in the DOM), follows the newest frame while
 * scrolled to the bottom, arrows move the selection.
 */
export function FrameList(props: FrameListProps): ReactElement {
  const { rows, selectedId, onSelect, connectionLabels } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const followRef = useRef(true);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    paddingStart: HEADER_HEIGHT,
    initialRect: FALLBACK_RECT,
    observeElementRect: observeRect,
  });

  // Follow the tail like DevTools' network log, until the user scrolls up.
  useEffect(() => {
    if (followRef.current && rows.length) virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
  }, [rows.length, virtualizer]);

  const onScroll = useCallback(() => {
    const el = scrollRef.current;
    if (el) followRef.current = el.scrollTop + el.clientHeight >= el.scrollHeight - ROW_HEIGHT * 2;
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!rows.length) return;
    const at = selectedId === null ? -1 : rows.findIndex((r) => r.frameId === selectedId);
    let next = at;
    if (e.key === 'ArrowDown') next = Math.min(rows.length - 1, at + 1);
    else if (e.key === 'ArrowUp') next = Math.max(0, at < 0 ? rows.length - 1 : at - 1);
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = rows.length - 1;
    else if (e.key === 'PageDown') next = Math.min(rows.length - 1, at + 20);
    else if (e.key === 'PageUp') next = Math.max(0, at - 20);
    else return;
    e.preventDefault();
    followRef.current = next === rows.length - 1;
    onSelect(rows[next].frameId);
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };

  return (
    <div ref={scrollRef} className="ws-frame-list" role="grid" aria-label="Frames" aria-rowcount={rows.length} tabIndex={0} onKeyDown={onKeyDown} onScroll={onScroll} data-testid="frame-list">
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        <div className="ws-frame-header" role="row">
          <span className="ws-num">#</span>
          <span>time</span>
          <span title="direction">⇅</span>
          <span>conn</span>
          <span>type</span>
          <span className="ws-num">size</span>
          <span>format</span>
          <span>preview</span>
        </div>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index];
          return <Row key={row.frameId} row={row} top={item.start} selected={row.frameId === selectedId} connection={connectionLabels.get(row.connectionId) ?? row.connectionId} onSelect={onSelect} />;
        })}
      </div>
      {rows.length === 0 && <div className="ws-empty">{props.empty ?? 'No frames yet.'}</div>}
    </div>
  );
}
