import {
  memo,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  type KeyboardEvent,
  type ReactElement,
  type ReactNode,
} from 'react';
import type { FrameSummary } from '../../worker/api.js';
import { directionMark, directionName } from '../../../../codecs/capture/direction-mark.js';
import { exactBytes, formatBytes, formatTime } from '../shell/format.js';
import { eventLabel, LIST_COLUMNS, mergedColumn, protocolTitle } from './columns.js';
import { useScrollView } from '../shell/scroll-view.js';
import './list.css';
import './origin-mark.css';

const ROW_HEIGHT = 20;
const HEADER_HEIGHT = 20;
/** Rows drawn above and below the visible ones. */
const OVERSCAN = 12;
/**
 * Following the tail, waiting rows in view are asked for once the drawn rows stayed this long:
 * longer than a flood's redraw interval (FLOOD_INTERVAL_MS, 500 ms), so a flood's tail never
 * settles and the worker is not asked to read rows that the next redraw scrolls away.
 */
export const VIEW_SETTLE_MS = 700;
/** jsdom (and a collapsed pane) report no size: render a screenful anyway. */
const FALLBACK_HEIGHT = 600;

export interface FrameListProps {
  readonly rows: readonly FrameSummary[];
  readonly selectedId: number | null;
  readonly onSelect: (frameId: number) => void;
  /** Short names for connection ids (`#1`, `#2`), by id. */
  readonly connectionLabels: ReadonlyMap<string, string>;
  /** What an empty list says (no frames yet, or none matching the filters). */
  readonly empty?: ReactNode;
  /** Rows come sorted by size (largest first): the list stops following the tail. */
  readonly sortBySize?: boolean;
  readonly onSortBySize?: (bySize: boolean) => void;
  /** The waiting rows (not read yet, a flood) now drawn: the worker reads them at once. */
  readonly onView?: (frameIds: readonly number[]) => void;
  /**
   * With nothing selected, the frame the arrow keys start from (the one whose detail was just
   * closed): ↓ selects the row after it, ↑ the row before it. Absent or gone: the ends.
   */
  readonly anchorId?: number | null;
  /** True for a frame wirescope itself sent or delivered to the page: its row is marked (`data-origin="wirescope"`). */
  readonly isWirescope?: (frameId: number) => boolean;
  /** 'held' or 'dropped' for a frame an intercept rule took: its row is marked (`data-held`, `data-dropped`). */
  readonly interceptMark?: (frameId: number) => 'held' | 'dropped' | undefined;
  /** A row's context menu was asked for (right-click): the row is selected, the browser's menu not shown. */
  readonly onRowMenu?: (frameId: number, x: number, y: number) => void;
  /** Calls `onResize` after the browser laid `target` out at a new size (default: a ResizeObserver; tests pass a stub). */
  readonly observeResize?: ObserveResize;
}

export type ObserveResize = (target: Element, onResize: () => void) => () => void;

/** A ResizeObserver's callbacks run after layout and before paint; without one (jsdom), none. */
const resizeObserver: ObserveResize | undefined =
  typeof ResizeObserver === 'undefined'
    ? undefined
    : (target, onResize) => {
        const observer = new ResizeObserver(() => onResize());
        observer.observe(target);
        return () => observer.disconnect();
      };

/** What a live tail row is (its number column reads "live"). */
const SAMPLE_TITLE =
  'live tail: a sample of the newest frames the extension holds under a flood; the frame is listed in its place, numbered, when the held frames come';

const Row = memo(function Row(props: {
  row: FrameSummary;
  top: number;
  selected: boolean;
  connection: string;
  onSelect: (id: number) => void;
  wirescope: boolean;
  intercepted?: 'held' | 'dropped';
  onMenu?: (frameId: number, x: number, y: number) => void;
}): ReactElement {
  const { row, top, selected, connection, onSelect, wirescope, intercepted, onMenu } = props;
  const direction = `${directionName(row.direction, wirescope)}${intercepted ? `, ${intercepted} by an intercept rule` : ''}`;
  return (
    // biome-ignore lint/a11y/useFocusableInteractive: the frame grid takes focus itself and moves the selection with the arrow keys; rows and headers are not tab stops
    <div
      role="row"
      aria-selected={selected}
      data-testid="frame-row"
      data-frame-id={row.frameId}
      data-format={row.lost ? 'lost' : (row.format ?? row.verdict ?? 'unknown')}
      data-sample={row.sample ? '' : undefined}
      data-origin={wirescope ? 'wirescope' : undefined}
      data-held={intercepted === 'held' ? '' : undefined}
      data-dropped={intercepted === 'dropped' ? '' : undefined}
      className={`ws-frame-row${wirescope ? ' ws-frame-wirescope' : ''}${intercepted ? ` ws-frame-${intercepted}` : ''}${row.frameId % 2 ? ' ws-row-odd' : ''}${row.lost ? ' ws-frame-lost' : ''}${row.protocol?.quiet ? ' ws-quiet' : ''}${row.sample ? ' ws-frame-sample' : ''}`}
      style={{ transform: `translateY(${top}px)` }}
      data-merge={mergedColumn(row)}
      onMouseDown={() => onSelect(row.frameId)}
      onContextMenu={
        onMenu
          ? (e) => {
              e.preventDefault();
              onSelect(row.frameId);
              onMenu(row.frameId, e.clientX, e.clientY);
            }
          : undefined
      }
    >
      <span
        role="cell"
        data-column="number"
        className="ws-num ws-muted"
        title={row.sample ? SAMPLE_TITLE : `frame ${row.frameId} · ${formatTime(row.time)}`}
      >
        {row.sample ? 'live' : row.frameId}
      </span>
      <span role="cell" data-column="time" className="ws-mono">
        {formatTime(row.time)}
      </span>
      <span
        role="cell"
        data-column="direction"
        className={wirescope ? 'ws-dir-wirescope' : row.direction === 'sent' ? 'ws-dir-sent' : 'ws-dir-received'}
        title={direction}
        aria-label={direction}
      >
        {directionMark(row.direction, wirescope)}
      </span>
      <span role="cell" data-column="connection" title={row.connectionId}>
        {connection}
      </span>
      <span role="cell" data-column="opcode">
        {row.opcode}
      </span>
      <span role="cell" data-column="size" className="ws-num" title={exactBytes(row.size)}>
        {formatBytes(row.size)}
      </span>
      <span
        role="cell"
        data-column="format"
        className={
          row.verdict !== 'unknown' && row.error
            ? 'ws-badge-error'
            : row.verdict === 'unknown' || row.verdict === 'empty'
              ? 'ws-muted'
              : undefined
        }
        title={formatTitle(row)}
      >
        {formatLabel(row)}
      </span>
      <span
        role="cell"
        data-column="event"
        className={row.protocol && !row.protocol.event ? 'ws-muted' : undefined}
        title={protocolTitle(row.protocol)}
      >
        {eventLabel(row.protocol)}
      </span>
      <span role="cell" data-column="protocol" title={protocolTitle(row.protocol)}>
        {row.protocol?.name ?? ''}
      </span>
      <span
        role="cell"
        data-column="preview"
        className="ws-mono"
        title={row.preview.length > 60 ? row.preview : undefined}
      >
        {row.preview}
      </span>
    </div>
  );
});

/**
 * Slots (React keys) for the rows drawn, `rows[first..last)`: a row drawn before keeps its
 * slot, a new one takes the lowest slot free. Slots run 0 … last − first − 1: the drawn rows
 * fill them exactly (when every row is new, in the rows' order).
 */
export function assignSlots(
  before: ReadonlyMap<number, number>,
  rows: readonly FrameSummary[],
  first: number,
  last: number,
): Map<number, number> {
  const count = last - first;
  const slots = new Map<number, number>();
  const taken = new Uint8Array(count);
  for (let i = first; i < last; i++) {
    const slot = before.get(rows[i]!.frameId);
    if (slot !== undefined && slot < count && !taken[slot]) {
      slots.set(rows[i]!.frameId, slot);
      taken[slot] = 1;
    }
  }
  let free = 0;
  for (let i = first; i < last; i++) {
    if (slots.has(rows[i]!.frameId)) continue;
    while (taken[free]) free++;
    slots.set(rows[i]!.frameId, free);
    taken[free] = 1;
  }
  return slots;
}

/** Compression as the format column abbreviates it (the cell's tooltip and the detail name it whole). */
const COMPRESSION_MARK: Readonly<Record<string, string>> = {
  gzip: 'gz',
  zlib: 'zlib',
  'zlib stream': 'zlib',
  deflate: 'defl',
  'deflate stream': 'defl',
};

/**
 * The format column: `cbor`, `✕ msgpack` when malformed (the mark first, so a narrow column
 * never cuts it off), `cbor+gz` when it was inflated from gzip, `unknown` for foreign bytes,
 * `empty` for 0 B.
 */
export function formatLabel(row: FrameSummary): string {
  if (row.lost) return 'lost';
  if (row.waiting) return '…';
  if (row.verdict === 'unknown') return 'unknown';
  if (row.verdict === 'empty') return 'empty';
  const method = row.compression?.split(' → ')[0];
  const via = method ? `+${COMPRESSION_MARK[method] ?? method}` : '';
  return `${row.error ? '✕ ' : ''}${row.format ?? '?'}${via}`;
}

/** The format cell's tooltip: what the label abbreviates, and what went wrong. */
export function formatTitle(row: FrameSummary): string | undefined {
  if (row.waiting) return 'not read yet (a flood): read when it calms or when the row comes into view';
  if (row.lost) return row.lost;
  const parts = [row.compression, row.error ? `malformed: ${row.error.message}` : undefined].filter(Boolean);
  return parts.length ? parts.join('; ') : undefined;
}

/**
 * The frame list: virtualized (only visible rows in the DOM), follows the newest frame while
 * scrolled to the bottom, arrows move the selection. Rows have one fixed height, so the
 * visible range is arithmetic: no per-row measurement, which with 100,000 rows cost more
 * than the rows themselves each time a search or a stream changed their count.
 */
export function FrameList(props: FrameListProps): ReactElement {
  const {
    rows,
    selectedId,
    onSelect,
    connectionLabels,
    sortBySize = false,
    onSortBySize,
    onView,
    observeResize = resizeObserver,
    isWirescope,
    interceptMark,
    onRowMenu,
  } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  const followRef = useRef(true);
  const [view, measure, setView] = useScrollView(scrollRef, FALLBACK_HEIGHT);
  const total = HEADER_HEIGHT + rows.length * ROW_HEIGHT;
  const totalRef = useRef(total);
  totalRef.current = total;
  /** The scroll position the list set itself (following): its scroll event needs no redraw. */
  const ownScrollRef = useRef(-1);

  // Follow the tail like DevTools' network log, until the user scrolls up. The rows drawn
  // already are the tail's (below): only the scroll position follows, with no second render.
  const following = followRef.current && rows.length > 0 && !sortBySize;
  const sortRef = useRef(sortBySize);
  sortRef.current = sortBySize;
  const toTail = useCallback(() => {
    const el = scrollRef.current;
    if (!el || !followRef.current || sortRef.current) return;
    el.scrollTop = totalRef.current;
    ownScrollRef.current = el.scrollTop;
  }, []);
  // The content grew (a redraw added rows): the scroll position follows once the browser has
  // laid the list out. Writing scrollTop in a layout effect, right after React changed the
  // rows, made the browser lay them out synchronously inside the redraw's task, under a flood
  // the panel's longest tasks; after layout the write costs no layout at all.
  useLayoutEffect(() => {
    const content = contentRef.current;
    if (!content || !observeResize) return;
    return observeResize(content, toTail);
  }, [observeResize, toTail]);
  useLayoutEffect(() => {
    // Without a resize observation (jsdom) the write cannot wait for layout.
    if (!observeResize && following) toTail();
  }, [observeResize, following, total, toTail]);
  useLayoutEffect(() => {
    // Following again (the sort back to arrival order) with no change of size to observe.
    if (following) toTail();
  }, [following, toTail]);
  // Toggling the sort starts at the top (largest) or back at the tail (newest).
  useEffect(() => {
    followRef.current = !sortBySize;
    if (sortBySize && scrollRef.current) {
      scrollRef.current.scrollTop = 0;
      setView((v) => ({ top: 0, height: v.height }));
    }
  }, [sortBySize]);

  /**
   * A row selected stops the follow, as in DevTools' network log: new frames no longer
   * scroll the selected row away. End, or a scroll back to the bottom, follows again. The
   * view is measured where the list stands (following, the list's own moves left it unmeasured).
   */
  const stopFollowing = useCallback(() => {
    const el = scrollRef.current;
    if (!followRef.current) return;
    followRef.current = false;
    if (el) setView({ top: el.scrollTop, height: el.clientHeight || FALLBACK_HEIGHT });
  }, [setView]);
  const selectRef = useRef(onSelect);
  selectRef.current = onSelect;
  const selectRow = useCallback(
    (frameId: number) => {
      stopFollowing();
      selectRef.current(frameId);
    },
    [stopFollowing],
  );

  const onScroll = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    if (el.scrollTop === ownScrollRef.current) {
      // The list's own move (to the tail, or revealing the selected row): following, the rows
      // drawn are the tail's already; not following, it stays so (a reveal near the bottom is no wish to follow).
      if (!followRef.current) measure();
      return;
    }
    const wasFollowing = followRef.current;
    followRef.current = el.scrollTop + el.clientHeight >= el.scrollHeight - ROW_HEIGHT * 2;
    // Following or not decides which rows are drawn: redraw on a change even when the view's
    // last measured position (not updated by the list's own moves) happens to be this one.
    if (wasFollowing !== followRef.current) setView({ top: el.scrollTop, height: el.clientHeight || FALLBACK_HEIGHT });
    else measure();
  }, [measure, setView]);

  /** Scrolls just enough to show row `index` below the sticky header. */
  const reveal = (index: number) => {
    const el = scrollRef.current;
    if (!el) return;
    const top = HEADER_HEIGHT + index * ROW_HEIGHT;
    const height = el.clientHeight || FALLBACK_HEIGHT;
    if (top - HEADER_HEIGHT < el.scrollTop) el.scrollTop = top - HEADER_HEIGHT;
    else if (top + ROW_HEIGHT > el.scrollTop + height) el.scrollTop = top + ROW_HEIGHT - height;
    ownScrollRef.current = el.scrollTop;
  };

  // The list's height changed (in the stacked layout the detail opens below it when a frame
  // is selected, and the list shrinks): the scroll position the browser kept no longer
  // matches the rows drawn for it. Keep the selected row in view (else the tail when
  // following), then redraw for where the list really is.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only on a height change; rows and selection are read as they are then
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el?.clientHeight) return;
    const at = selectedId === null ? -1 : rows.findIndex((r) => r.frameId === selectedId);
    if (at >= 0) {
      reveal(at);
      // (A selected row keeps the follow stopped; one revealed away from the tail stops it.)
      followRef.current =
        followRef.current && !sortBySize && el.scrollTop + el.clientHeight >= el.scrollHeight - ROW_HEIGHT * 2;
    } else if (followRef.current && !sortBySize) el.scrollTop = total;
    // A new object even when unchanged: the follow flag may have changed with no scroll.
    setView({ top: el.scrollTop, height: el.clientHeight });
  }, [view.height]);

  // The rows changed around the selected row (a filter set or cleared, frames inserted before
  // it): the scroll position the browser kept now shows other rows. A selected row that was in
  // view keeps its place on screen; one that comes back into the rows (a filter that had hidden
  // it, cleared) is brought into view. A row the user scrolled away from is left where it is,
  // and a change of sort starts at its own end (above).
  const placedRef = useRef<{ id: number; index: number; sortBySize: boolean } | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the rows or the selection change; the view is read as it was before
  useLayoutEffect(() => {
    const before = placedRef.current;
    let at = -1;
    if (selectedId !== null)
      at =
        before && rows[before.index]?.frameId === selectedId
          ? before.index
          : rows.findIndex((r) => r.frameId === selectedId);
    placedRef.current = selectedId === null ? null : { id: selectedId, index: at, sortBySize };
    if (at < 0 || followRef.current) return;
    if (!before || before.id !== selectedId || before.index === at || before.sortBySize !== sortBySize) return;
    // (Read last: a layout read after React changed the rows lays them out inside this task.)
    const el = scrollRef.current;
    if (!el?.clientHeight) return;
    // view.top is where the list stood before this change: the browser's clamp of a shorter
    // list reports its scroll after this effect.
    const wasTop = HEADER_HEIGHT + before.index * ROW_HEIGHT;
    const wasInView =
      before.index >= 0 && wasTop >= view.top + HEADER_HEIGHT && wasTop + ROW_HEIGHT <= view.top + view.height;
    if (wasInView) {
      el.scrollTop = view.top + (at - before.index) * ROW_HEIGHT;
      ownScrollRef.current = el.scrollTop;
      reveal(at);
    } else if (before.index < 0) reveal(at);
    else return;
    setView({ top: el.scrollTop, height: el.clientHeight });
  }, [rows, selectedId]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!rows.length) return;
    const current = selectedId ?? props.anchorId ?? null;
    const at = current === null ? -1 : rows.findIndex((r) => r.frameId === current);
    let next = at;
    if (e.key === 'ArrowDown') next = Math.min(rows.length - 1, at + 1);
    else if (e.key === 'ArrowUp') next = Math.max(0, at < 0 ? rows.length - 1 : at - 1);
    // Back on the closed frame's row: Enter opens it again.
    else if (e.key === 'Enter' && selectedId === null && at >= 0) next = at;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = rows.length - 1;
    else if (e.key === 'PageDown') next = Math.min(rows.length - 1, at + 20);
    else if (e.key === 'PageUp') next = Math.max(0, at - 20);
    else return;
    e.preventDefault();
    // End goes back to the tail and follows it; any other move selects a row and stops following.
    if (e.key === 'End') followRef.current = true;
    else stopFollowing();
    onSelect(rows[next].frameId);
    reveal(next);
  };

  // Browsers clamp scrollTop to the content; jsdom does not.
  const top = following ? Math.max(0, total - view.height) : Math.min(view.top, Math.max(0, total - view.height));
  // Following the tail, nothing is drawn above the view: under a flood every drawn row gets
  // new text each redraw (the tail moves by thousands of rows), and rows nobody sees cost as
  // much layout and paint as the rest. A scroll up redraws with the overscan.
  const first = Math.max(0, Math.floor((top - HEADER_HEIGHT) / ROW_HEIGHT) - (following ? 0 : OVERSCAN));
  const last = Math.min(rows.length, Math.ceil((top + view.height) / ROW_HEIGHT) + OVERSCAN);
  // Each drawn row keeps its element (its slot) while it stays in view, and a row coming into
  // view takes the slot of one that left: a redraw touches only the rows that changed (a slow
  // stream: the few new ones), and under a flood (the tail moves by thousands of rows) the
  // same elements are updated in place, none removed or created. The elements stay in the
  // rows' order (the order assistive technology reads): a new row's element moves to its
  // place, the others stay where they are.
  const slotsRef = useRef<ReadonlyMap<number, number>>(new Map());
  const slots = assignSlots(slotsRef.current, rows, first, last);
  slotsRef.current = slots;
  // The event / topic and protocol columns collapse while no row in view has a protocol.
  let anyProtocol = false;
  for (let i = first; i < last && !anyProtocol; i++) anyProtocol = rows[i]!.protocol !== undefined;
  const visible: ReactElement[] = [];
  for (let i = first; i < last; i++) {
    const row = rows[i]!;
    const slot = slots.get(row.frameId)!;
    visible.push(
      <Row
        key={slot}
        row={row}
        top={HEADER_HEIGHT + i * ROW_HEIGHT}
        selected={row.frameId === selectedId}
        connection={connectionLabels.get(row.connectionId) ?? row.connectionId}
        onSelect={selectRow}
        wirescope={isWirescope?.(row.frameId) ?? false}
        intercepted={interceptMark?.(row.frameId)}
        onMenu={onRowMenu}
      />,
    );
  }

  // Waiting rows drawn (a flood: the worker lists frames before reading them): ask for them
  // once; their read rows replace them in a later redraw.
  let waitingDrawn = '';
  for (let i = first; i < last; i++) if (rows[i]!.waiting) waitingDrawn += `${rows[i]!.frameId},`;
  // Following the tail, only once it rests: under a flood it moves by thousands of rows per
  // redraw, so rows read ahead of their turn came back off screen, and were read again in
  // order later (each decoded twice while the flood lasted, on the cores the page needs).
  const askedRef = useRef('');
  useEffect(() => {
    if (!onView || !waitingDrawn || waitingDrawn === askedRef.current) return;
    const ask = () => {
      askedRef.current = waitingDrawn;
      onView(waitingDrawn.slice(0, -1).split(',').map(Number));
    };
    if (!following) return void ask();
    const timer = setTimeout(ask, VIEW_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [waitingDrawn, onView, following]);

  // The focus ring is drawn over the rows by a sibling, not as the list's own outline: the
  // rows (absolutely placed, with their zebra and selection backgrounds) painted over that.
  return (
    <div className="ws-frame-list-box">
      <div
        ref={scrollRef}
        className="ws-frame-list"
        role="grid"
        aria-label="Frames"
        aria-rowcount={rows.length}
        tabIndex={0}
        onKeyDown={onKeyDown}
        onScroll={onScroll}
        data-testid="frame-list"
        data-no-protocol={anyProtocol ? undefined : ''}
      >
        <div ref={contentRef} style={{ height: total, position: 'relative' }}>
          {/* biome-ignore lint/a11y/useFocusableInteractive: the frame grid takes focus itself and moves the selection with the arrow keys; rows and headers are not tab stops */}
          <div className="ws-frame-header" role="row" data-testid="frame-list-header">
            {LIST_COLUMNS.map((c) =>
              c.id === 'size' && onSortBySize ? (
                // The header cell says how the column is sorted; the button inside it sorts.
                // biome-ignore lint/a11y/useFocusableInteractive: the frame grid takes focus itself and moves the selection with the arrow keys; rows and headers are not tab stops
                <span
                  key={c.id}
                  role="columnheader"
                  data-column={c.id}
                  className="ws-num"
                  aria-sort={sortBySize ? 'descending' : 'none'}
                  title={c.fullName}
                >
                  <button
                    type="button"
                    className="ws-num ws-col-sort"
                    aria-pressed={sortBySize}
                    onClick={() => onSortBySize(!sortBySize)}
                    title={
                      sortBySize
                        ? `${c.fullName}: sorted largest first, click for arrival order`
                        : `${c.fullName}: click to sort largest first`
                    }
                    aria-label={`sort by ${c.fullName}`}
                    data-testid="sort-by-size"
                  >
                    size{sortBySize ? ' ▼' : ''}
                  </button>
                </span>
              ) : (
                // biome-ignore lint/a11y/useFocusableInteractive: the frame grid takes focus itself and moves the selection with the arrow keys; rows and headers are not tab stops
                <span
                  key={c.id}
                  role="columnheader"
                  data-column={c.id}
                  className={c.numeric ? 'ws-num' : undefined}
                  title={c.fullName}
                >
                  {c.narrowTitle ? (
                    <>
                      <span className="ws-col-title">{c.title}</span>
                      <span className="ws-col-title-narrow">{c.narrowTitle}</span>
                    </>
                  ) : (
                    c.title
                  )}
                </span>
              ),
            )}
          </div>
          {visible}
        </div>
        {rows.length === 0 && <div className="ws-empty">{props.empty ?? 'No frames yet.'}</div>}
      </div>
      <div className="ws-focus-ring" aria-hidden="true" />
    </div>
  );
}
