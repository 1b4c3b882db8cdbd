import {
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type ReactElement,
} from 'react';
import { observeElementRect, useVirtualizer, type Rect, type Virtualizer } from '@tanstack/react-virtual';
import { HexRow, cellId } from './HexRow';
import {
  ROW_HEIGHT,
  clip,
  formatOffset,
  hexWidthCh,
  HEX_WIDTH_EXTRA_PX,
  offsetDigits,
  pointIn,
  type BytesPerRow,
} from './hexFormat';
import { formatBytes, formatRange, exactBytes } from '../shell/format.js';
import './hex.css';

export interface HexSelection {
  readonly start: number;
  /** Exclusive. */
  readonly end: number;
  readonly headerLength: number;
  /** Key item of a map value, or -1 / -1. */
  readonly keyStart: number;
  readonly keyEnd: number;
}

export interface HexViewProps {
  readonly bytes: Uint8Array;
  readonly selection: HexSelection | null;
  readonly errorOffset: number | null;
  readonly onByteClick: (offset: number) => void;
  readonly bytesPerRow?: BytesPerRow;
  readonly scrollToOffset?: number | null;
  /** Size the view to its rows (offsets, bytes, ASCII, nothing clipped) instead of its container. */
  readonly fitWidth?: boolean;
}

/** Used until the scroll element reports a real size (and always in jsdom, where it has none). */
const FALLBACK_RECT: Rect = { width: 800, height: 400 };
const OVERSCAN = 10;

function observeRectWithFallback(instance: Virtualizer<HTMLDivElement, Element>, cb: (rect: Rect) => void) {
  return observeElementRect(instance, (rect) => cb(rect.height > 0 ? rect : FALLBACK_RECT));
}

/** First byte of the selection: the key item when there is one, else the value. */
function firstByte(sel: HexSelection): number {
  return sel.keyStart >= 0 && sel.keyEnd > sel.keyStart ? Math.min(sel.keyStart, sel.start) : sel.start;
}

export function HexView(props: HexViewProps): ReactElement {
  const { bytes, selection, errorOffset, onByteClick, scrollToOffset } = props;
  const bpr = props.bytesPerRow ?? 16;
  const length = bytes.length;
  const hasEndError = errorOffset !== null && errorOffset === length;
  const rowCount = Math.ceil((hasEndError ? length + 1 : length) / bpr);
  const digits = offsetDigits(length);
  const idPrefix = useId();
  const scrollRef = useRef<HTMLDivElement>(null);
  const [cursorState, setCursor] = useState(() => (selection ? firstByte(selection) : 0));
  const cursor = length === 0 ? -1 : Math.min(Math.max(cursorState, 0), length - 1);
  /** Offset of the last click here; the selection it causes must not yank the view. */
  const clickedRef = useRef<number | null>(null);

  const virtualizer = useVirtualizer<HTMLDivElement, Element>({
    count: rowCount,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    initialRect: FALLBACK_RECT,
    observeElementRect: observeRectWithFallback,
  });

  /** Scroll `offset`'s row into view (one row of context above) unless it is already visible. */
  const reveal = useCallback(
    (offset: number) => {
      const row = Math.floor(offset / bpr);
      if (row < 0 || row >= rowCount) return;
      const top = row * ROW_HEIGHT;
      const scrollTop = virtualizer.scrollOffset ?? 0;
      const height = virtualizer.scrollRect?.height ?? FALLBACK_RECT.height;
      if (top >= scrollTop && top + ROW_HEIGHT <= scrollTop + height) return;
      virtualizer.scrollToIndex(Math.max(0, row - 1), { align: 'start' });
    },
    [virtualizer, bpr, rowCount],
  );

  const selStart = selection?.start ?? -1;
  const selEnd = selection?.end ?? -1;
  const selFirst = selection ? firstByte(selection) : -1;
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the selection moves
  useEffect(() => {
    if (selFirst < 0) return;
    const clicked = clickedRef.current;
    clickedRef.current = null;
    // A click in this view selected the node around it: the clicked byte is already on screen.
    if (clicked !== null && clicked >= selFirst && clicked < Math.max(selEnd, selFirst + 1)) return;
    setCursor(selFirst);
    reveal(selFirst);
  }, [selFirst, selStart, selEnd]);

  // A resize (the pane's splitter, the window) changes the bytes per row or the height: the
  // selection's row moves, and stays in view as in DevTools' own panes.
  const viewHeight = virtualizer.scrollRect?.height ?? 0;
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the rows or the height change
  useEffect(() => {
    if (selFirst >= 0) reveal(selFirst);
  }, [bpr, viewHeight]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the target changes
  useEffect(() => {
    if (scrollToOffset == null) return;
    setCursor(scrollToOffset);
    reveal(scrollToOffset);
  }, [scrollToOffset]);

  const onClick = (e: MouseEvent<HTMLDivElement>) => {
    const cell = (e.target as Element).closest('[data-offset]');
    if (!cell) return;
    const offset = Number(cell.getAttribute('data-offset'));
    if (!Number.isInteger(offset) || offset < 0 || offset >= length) return;
    clickedRef.current = offset;
    setCursor(offset);
    onByteClick(offset);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (length === 0) return;
    const page =
      Math.max(1, Math.floor((virtualizer.scrollRect?.height ?? FALLBACK_RECT.height) / ROW_HEIGHT) - 1) * bpr;
    const rowStart = cursor - (cursor % bpr);
    let next: number;
    switch (e.key) {
      case 'ArrowLeft':
        next = cursor - 1;
        break;
      case 'ArrowRight':
        next = cursor + 1;
        break;
      case 'ArrowUp':
        next = cursor - bpr;
        break;
      case 'ArrowDown':
        next = cursor + bpr;
        break;
      case 'PageUp':
        next = cursor - page;
        break;
      case 'PageDown':
        next = cursor + page;
        break;
      case 'Home':
        next = e.ctrlKey || e.metaKey ? 0 : rowStart;
        break;
      case 'End':
        next = e.ctrlKey || e.metaKey ? length - 1 : rowStart + bpr - 1;
        break;
      case 'Enter':
      case ' ':
        e.preventDefault();
        clickedRef.current = cursor;
        onByteClick(cursor);
        return;
      default:
        return;
    }
    e.preventDefault();
    next = Math.min(Math.max(next, 0), length - 1);
    setCursor(next);
    const row = Math.floor(next / bpr);
    virtualizer.scrollToIndex(row, { align: 'auto' });
  };

  // Selection ranges, normalised once per render; each row clips them in O(1).
  const sel = selection && selection.end >= selection.start ? selection : null;
  const hdrEnd = sel ? Math.min(sel.start + Math.max(0, sel.headerLength), sel.end) : 0;
  const hasKey = !!sel && sel.keyStart >= 0 && sel.keyEnd > sel.keyStart;

  const rows: ReactElement[] = [];
  for (const item of virtualizer.getVirtualItems()) {
    const r0 = item.index * bpr;
    const r1 = r0 + bpr;
    const [keyLo, keyHi] = hasKey ? clip(sel!.keyStart, sel!.keyEnd, r0, r1) : [0, 0];
    const [hdrLo, hdrHi] = sel ? clip(sel.start, hdrEnd, r0, r1) : [0, 0];
    const [payLo, payHi] = sel ? clip(hdrEnd, sel.end, r0, r1) : [0, 0];
    rows.push(
      <HexRow
        key={item.index}
        bytes={bytes}
        row={item.index}
        top={item.start}
        bytesPerRow={bpr}
        digits={digits}
        keyLo={keyLo}
        keyHi={keyHi}
        hdrLo={hdrHi > hdrLo ? hdrLo : payLo}
        hdrHi={hdrHi > hdrLo ? hdrHi : payLo}
        payHi={payHi}
        error={pointIn(errorOffset, r0, r1)}
        cursor={pointIn(cursor, r0, r1)}
        idPrefix={idPrefix}
      />,
    );
  }

  return (
    <div
      className="hex-view"
      data-testid="hex-view"
      data-bytes-per-row={bpr}
      role="region"
      aria-label="Hex view"
      style={props.fitWidth ? { width: `calc(${hexWidthCh(bpr, digits)}ch + ${HEX_WIDTH_EXTRA_PX}px)` } : undefined}
    >
      <div className="hex-status" data-testid="hex-status">
        <span title={exactBytes(length)} data-testid="hex-size">
          {formatBytes(length)}
        </span>
        {cursor >= 0 && <span title={`byte ${cursor} = ${formatOffset(cursor, digits)}`}>cursor {cursor}</span>}
        {sel && (
          // The tree's convention: decimal offsets, end exclusive.
          <span
            data-testid="hex-selection-range"
            title={`end exclusive: bytes ${sel.start} to ${Math.max(sel.start, sel.end - 1)} (${formatOffset(sel.start, digits)}–${formatOffset(Math.max(sel.start, sel.end - 1), digits)} inclusive)`}
          >
            selection {formatRange(sel.start, sel.end)} ({formatBytes(sel.end - sel.start)})
            {hasKey && ` · key ${formatRange(sel.keyStart, sel.keyEnd)}`}
          </span>
        )}
        {errorOffset !== null && <span className="hex-status-error">error at byte {errorOffset}</span>}
      </div>
      <div
        ref={scrollRef}
        className="hex-scroll"
        role="grid"
        aria-label="Bytes"
        aria-rowcount={rowCount}
        aria-colcount={bpr}
        tabIndex={0}
        aria-activedescendant={cursor >= 0 ? cellId(idPrefix, cursor) : undefined}
        onClick={onClick}
        onKeyDown={onKeyDown}
      >
        {length === 0 && !hasEndError ? (
          <div className="hex-empty">empty frame</div>
        ) : (
          <div role="rowgroup" className="hex-sizer" style={{ height: virtualizer.getTotalSize() }}>
            {rows}
          </div>
        )}
      </div>
    </div>
  );
}
