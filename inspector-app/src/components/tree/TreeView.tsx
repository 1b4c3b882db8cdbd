import {
  memo,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  type CSSProperties,
  type KeyboardEvent,
  type ReactElement,
} from 'react';
import { observeElementRect, useVirtualizer, type Rect, type Virtualizer } from '@tanstack/react-virtual';
import type { TreeNode } from '../../worker/api.js';
import { isMoreRow, type MoreRow, type TreeState } from './use-tree.js';
import { exactBytes, formatBytes, formatRange } from '../shell/format.js';
import { barWidth, formatShare } from '../bytes/share.js';
import { Highlighted } from './Highlighted.js';
import { TreeHeader, type ResizableColumn } from './TreeHeader.js';
import { useLayoutStorage, usePersistentNumber } from '../shell/persisted.js';
import { requestOpenFrame } from './open-frame.js';
import { useElementWidth } from '../shell/use-element-size.js';
import './tree.css';

const ROW_HEIGHT = 18;
const HEADER_HEIGHT = 18;
/** `*` opens at most this many nodes below the selection (a 100,000-item array stays usable). */
export const EXPAND_ALL_BUDGET = 5000;
/** Rows indent up to this depth; deeper ones keep that indentation and show their depth (as the CLI does). */
const TREE_INDENT_LEVELS = 32;
/** Indentation per level, px. */
const INDENT_PX = 14;
const TOGGLE_PX = 12;
/**
 * Key and kind columns are as wide as their longest text among the rows (estimated at this
 * many px per character of the 12 px UI font, plus a little slack); the value takes the rest.
 */
const CHAR_PX = 7.2;
const TEXT_SLACK_PX = 8;
/** Floors: about ten letters of key (`avatarHash`), a short kind (`map(12)`). */
const KEY_TEXT_PX = 76;
const KIND_MIN_PX = 56;
/** Caps, so the value keeps room in very deep trees (their depth is shown instead) and long kinds. */
const KEY_CAP_PX = 260;
const KIND_CAP_PX = 170;
/** How narrow a drag may make the key and kind columns. */
const KEY_DRAG_MIN_PX = 40;
const KIND_DRAG_MIN_PX = 30;
/** The value column's floor, and the share of the flexible width it keeps before key and kind grow into it. */
const VALUE_MIN_PX = 48;
const VALUE_SHARE = 0.3;
/**
 * Everything beside key, kind and value (tree.css): bytes 48, % of parent with its bar 72,
 * frame 42, hdr 28, six 4 px gaps, 6 px padding and a scrollbar.
 */
const TREE_FIXED_PX = 48 + 72 + 42 + 28 + 6 * 4 + 6 + 16;

/** What the kind column says: the head without the CRDT id (the value column shows it) or the key it repeats. */
export function kindText(node: TreeNode): string {
  let head = node.head;
  if (node.crdtId !== null && head.includes(node.crdtId))
    head = head.replace(node.crdtId, '').replace(/\s+/g, ' ').trim();
  // A label that already names the kind (json-joy's `id`, `meta`) is not repeated by the head.
  if (head === node.label) return '';
  return head.startsWith(`${node.label} `) ? head.slice(node.label.length + 1) : head;
}

const keyWant = (n: TreeNode) =>
  Math.min(n.depth, TREE_INDENT_LEVELS) * INDENT_PX + TOGGLE_PX + Math.ceil(n.label.length * CHAR_PX) + TEXT_SLACK_PX;

/**
 * Key and kind column widths for these rows in a tree `width` px wide: their longest text
 * (within floors and caps), shrunk together when the value would get less than its floor.
 */
export function treeColumnWidths(
  rows: readonly TreeNode[],
  width: number,
  /** Widths the user dragged the columns to (NaN: fit the text). */
  chosen: { readonly key: number; readonly kind: number } = { key: NaN, kind: NaN },
): { key: number; kind: number } {
  let key = KEY_TEXT_PX + TOGGLE_PX;
  let kind = KIND_MIN_PX;
  for (const r of rows) {
    key = Math.max(key, keyWant(r));
    kind = Math.max(kind, Math.ceil(kindText(r).length * CHAR_PX) + TEXT_SLACK_PX);
  }
  key = Number.isNaN(chosen.key) ? Math.min(key, KEY_CAP_PX) : Math.max(KEY_DRAG_MIN_PX, chosen.key);
  kind = Number.isNaN(chosen.kind) ? Math.min(kind, KIND_CAP_PX) : Math.max(KIND_DRAG_MIN_PX, chosen.kind);
  // A long key (a compressed root's `gzip → cbor, 152 → 391 bytes (2.6x)`) or kind never takes
  // the value's last third: the value is what the row is read for.
  const flexible = width - TREE_FIXED_PX;
  const room = flexible - Math.max(VALUE_MIN_PX, Math.floor(flexible * VALUE_SHARE));
  if (key + kind > room) {
    // The key names the row: it keeps its width first, the kind gives way down to its floor.
    kind = Math.max(KIND_MIN_PX, Math.min(kind, room - key));
    key = Math.max(KEY_TEXT_PX + TOGGLE_PX, Math.min(key, room - kind));
  }
  return { key, kind };
}
const FALLBACK_RECT: Rect = { width: 600, height: 400 };
function observeRect(instance: Virtualizer<HTMLDivElement, Element>, cb: (rect: Rect) => void) {
  return observeElementRect(instance, (rect) => cb(rect.height > 0 ? rect : FALLBACK_RECT));
}

export interface TreeViewProps {
  readonly tree: TreeState;
  readonly frameSize: number;
  readonly selectedId: number | null;
  readonly onSelect: (node: TreeNode) => void;
  /** Lower-cased search text whose matches are marked in keys and values ('' for none). */
  readonly highlight?: string;
  /** The search's current match: its row is marked and scrolled into view once (null: none). */
  readonly matchId?: number | null;
}

/** A node's bytes including the key that names it (what the field costs). */
export const fieldBytes = (n: TreeNode) => n.end - n.start + (n.keyEnd > n.keyStart ? n.keyEnd - n.keyStart : 0);

/** A container that is known to hold nothing gets no expand arrow (-1: not counted yet). */
const canOpen = (n: TreeNode) => n.isContainer && n.childCount !== 0;

const TreeRow = memo(function TreeRow(props: {
  node: TreeNode;
  top: number;
  selected: boolean;
  /** The search's current match. */
  match: boolean;
  open: boolean;
  loading: boolean;
  frameSize: number;
  /**
   * The parent's bytes as its bytes column shows them, its key included (null for the root):
   * % of parent and its bar are taken against it, so nested bars are not empty.
   */
  parentBytes: number | null;
  /** Lower-cased search text to mark in key and value ('' for none). */
  highlight: string;
  onSelect: (n: TreeNode) => void;
  onToggle: (id: number) => void;
}): ReactElement {
  const { node, top, selected, match, open, loading, frameSize, parentBytes, highlight, onSelect, onToggle } = props;
  const bytes = fieldBytes(node);
  const hasKey = node.keyStart >= 0;
  const ofFrame = formatShare(bytes, frameSize);
  const ofParent = parentBytes === null ? '' : formatShare(bytes, parentBytes);
  const openable = canOpen(node);
  // Kinds whose preview is their name (undefined, null, true) would read twice.
  const showPreview = node.preview !== node.head;
  const preview = showPreview ? node.preview : '';
  // The kind column names the kind (`obj (5 keys)`, `ins_str`); a CRDT id is a value, shown
  // once in the value column: bare when it is the whole value (a json-joy `id`), else after it.
  const head = kindText(node);
  const idIsValue = node.crdtId !== null && preview === '' && !node.link;
  return (
    // biome-ignore lint/a11y/useFocusableInteractive: the tree takes focus itself and moves through its items with the arrow keys; items are not tab stops
    <div
      role="treeitem"
      aria-level={node.depth + 1}
      aria-expanded={openable ? open : undefined}
      aria-selected={selected}
      aria-current={match ? 'true' : undefined}
      data-match={match ? '' : undefined}
      data-testid="tree-row"
      data-node-id={node.id}
      data-start={node.start}
      data-end={node.end}
      data-key-start={node.keyStart}
      data-key-end={node.keyEnd}
      data-header-length={node.headerLength}
      data-path={node.path}
      className="ws-tree-row"
      style={{ transform: `translateY(${top}px)` }}
      onMouseDown={() => onSelect(node)}
      onDoubleClick={() => openable && onToggle(node.id)}
      title={`${node.path}\nbytes ${formatRange(node.start, node.end)} (${exactBytes(node.end - node.start)}, header ${node.headerLength} B${hasKey ? `, key ${formatRange(node.keyStart, node.keyEnd)}` : ''})`}
    >
      <span className="ws-tree-main" style={{ paddingLeft: Math.min(node.depth, TREE_INDENT_LEVELS) * INDENT_PX }}>
        {node.depth > TREE_INDENT_LEVELS && (
          <span className="ws-tree-depth" title="nesting depth">
            ·{node.depth}
          </span>
        )}
        <span
          className="ws-tree-toggle"
          onMouseDown={(e) => {
            e.stopPropagation();
            if (openable) onToggle(node.id);
          }}
          aria-hidden
        >
          {openable ? (loading ? '…' : open ? '▾' : '▸') : ''}
        </span>
        <span className="ws-tree-key">
          <Highlighted text={node.label} needle={highlight} />
        </span>
      </span>
      <span className="ws-tree-head">{head}</span>
      <span className="ws-tree-value" title={preview.length > 24 ? preview : undefined}>
        {/* Flags first: a long value (a 200-byte string cut short) must not push them out of the cell. */}
        {node.incomplete && <span className="ws-tree-flag">incomplete</span>}
        {node.duplicateKey && <span className="ws-tree-flag">duplicate key</span>}
        <span className="ws-tree-preview">
          <Highlighted text={preview} needle={highlight} />
        </span>
        {node.link && (
          <button
            type="button"
            className="ws-tree-link"
            data-testid="tree-frame-link"
            data-link-frame={node.link.frameId}
            title={`Open frame ${node.link.frameId}`}
            onMouseDown={(e) => e.stopPropagation()}
            onClick={(e) => {
              e.stopPropagation();
              requestOpenFrame(e.currentTarget, node.link!.frameId);
            }}
          >
            open frame {node.link.frameId}
          </button>
        )}
        {idIsValue && (
          <span className="ws-tree-preview" data-testid="tree-crdt-id">
            {node.crdtId}
            {node.crdtSpan !== null ? ` ×${node.crdtSpan}` : ''}
          </span>
        )}
        {node.crdtId !== null && !idIsValue && (
          <span className="ws-tree-id">
            id {node.crdtId}
            {node.crdtSpan !== null ? ` ×${node.crdtSpan}` : ''}
          </span>
        )}
      </span>
      <span className="ws-tree-size" title={`${exactBytes(bytes)}${hasKey ? ' with its key' : ''}`}>
        {formatBytes(bytes)}
      </span>
      <span
        className="ws-share"
        data-testid="share-parent"
        title={
          parentBytes === null
            ? `${ofFrame} of the frame`
            : `${ofParent} of the parent's ${exactBytes(parentBytes)} (its key included), ${ofFrame} of the frame`
        }
      >
        <span className="ws-share-text">{ofParent}</span>
        <span className="ws-share-bar" aria-hidden="true">
          <span style={{ width: barWidth(bytes, parentBytes ?? frameSize) }} />
        </span>
      </span>
      <span className="ws-tree-pct" data-testid="share-frame" title="share of the frame">
        {ofFrame}
      </span>
      <span className="ws-tree-hdr" title="header bytes">
        {node.headerLength}
      </span>
    </div>
  );
});

function MoreRowView(props: { row: MoreRow; top: number; onLoad: (row: MoreRow) => void }): ReactElement {
  const { row, top, onLoad } = props;
  return (
    // biome-ignore lint/a11y/useFocusableInteractive: the tree takes focus itself and moves through its items with the arrow keys; items are not tab stops
    <div
      role="treeitem"
      aria-level={row.depth + 1}
      className="ws-tree-row ws-tree-more"
      style={{ transform: `translateY(${top}px)` }}
      data-testid="tree-more"
    >
      <span
        className="ws-tree-main"
        style={{ paddingLeft: Math.min(row.depth, TREE_INDENT_LEVELS) * INDENT_PX + TOGGLE_PX }}
      >
        <button type="button" onMouseDown={(e) => e.stopPropagation()} onClick={() => onLoad(row)}>
          {row.side === 'after'
            ? `show ${Math.min(row.count, 1000)} more of ${row.count} following`
            : `show ${Math.min(row.count, 1000)} earlier (${row.count} above)`}
        </button>
      </span>
    </div>
  );
}

/** The value tree: virtualized, lazily expanded, keyboard-driven (arrows, Enter, ←/→, Home/End, `*` expands all below). */
export function TreeView(props: TreeViewProps): ReactElement {
  const { tree, frameSize, selectedId, onSelect } = props;
  const highlight = props.highlight ?? '';
  const { rows } = tree;
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    paddingStart: HEADER_HEIGHT,
    initialRect: FALLBACK_RECT,
    observeElementRect: observeRect,
  });
  // Key and kind columns fit their longest text over all rows (not the drawn ones, so they do
  // not jump while scrolling): indentation must not eat nested keys down to `n…`, nor a
  // narrow column cut `patch (1 ops)`. The value column takes what is left.
  const treeWidth = useElementWidth(scrollRef, 600);
  // Dragged on the header's grips, remembered (NaN: fit the text).
  const storage = useLayoutStorage();
  const [keyPx, setKeyPx] = usePersistentNumber(storage, 'treeKeyPx', NaN, KEY_DRAG_MIN_PX, 1000);
  const [kindPx, setKindPx] = usePersistentNumber(storage, 'treeKindPx', NaN, KIND_DRAG_MIN_PX, 1000);
  const columns = useMemo(
    () =>
      treeColumnWidths(
        rows.filter((r): r is TreeNode => !isMoreRow(r)),
        treeWidth,
        { key: keyPx, kind: kindPx },
      ),
    [rows, treeWidth, keyPx, kindPx],
  );
  const resizeColumn = useCallback(
    (column: ResizableColumn, px: number) => (column === 'key' ? setKeyPx : setKindPx)(px),
    [setKeyPx, setKindPx],
  );
  const fitColumn = useCallback(
    (column: ResizableColumn) => (column === 'key' ? setKeyPx : setKindPx)(NaN),
    [setKeyPx, setKindPx],
  );
  const selectedIndex = selectedId === null ? -1 : rows.findIndex((r) => !isMoreRow(r) && r.id === selectedId);

  useEffect(() => {
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [selectedIndex, virtualizer]);

  // A new match scrolls into view once: rows opened above it later must not pull the view back.
  const matchId = props.matchId ?? null;
  const matchIndex = matchId === null ? -1 : rows.findIndex((r) => !isMoreRow(r) && r.id === matchId);
  const scrolledToMatch = useRef<number | null>(null);
  useEffect(() => {
    if (matchId === null) scrolledToMatch.current = null;
    if (matchIndex < 0 || scrolledToMatch.current === matchId) return;
    scrolledToMatch.current = matchId;
    virtualizer.scrollToIndex(matchIndex, { align: 'auto' });
  }, [matchId, matchIndex, virtualizer]);

  // Arrow keys step over "show more" rows: they are buttons, reached with Tab.
  const step = (from: number, by: number): TreeNode | null => {
    for (let i = from + by; i >= 0 && i < rows.length; i += by) {
      const r = rows[i];
      if (!isMoreRow(r)) return r;
    }
    return null;
  };

  const edge = (from: number, by: 1 | -1): TreeNode | null => {
    const r = rows[from];
    return r && !isMoreRow(r) ? r : step(from, by);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!rows.length) return;
    if (e.key === 'Home' || e.key === 'End') {
      const n = e.key === 'Home' ? edge(0, 1) : edge(rows.length - 1, -1);
      if (n) onSelect(n);
      e.preventDefault();
      return;
    }
    const at = Math.max(0, selectedIndex);
    const current = rows[at];
    if (isMoreRow(current)) return;
    const node = current;
    const go = (n: TreeNode | null) => n && onSelect(n);
    switch (e.key) {
      case 'ArrowDown':
        go(selectedIndex < 0 ? node : step(at, 1));
        break;
      case 'ArrowUp':
        go(step(at, -1));
        break;
      case 'ArrowRight':
      case 'Enter': {
        const below = step(at, 1);
        if (canOpen(node) && !tree.expanded.has(node.id)) void tree.expand(node.id);
        else if (e.key === 'ArrowRight' && below?.parent === node.id) go(below);
        else if (e.key === 'Enter' && node.isContainer) tree.collapse(node.id);
        break;
      }
      case 'ArrowLeft':
        if (node.isContainer && tree.expanded.has(node.id)) tree.collapse(node.id);
        else go(tree.nodes.get(node.parent) ?? null);
        break;
      case '*':
        // WAI-ARIA's "expand all" key, here for the selected subtree (bounded).
        if (node.isContainer) void tree.expandAll(node.id, EXPAND_ALL_BUDGET);
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  return (
    <div
      ref={scrollRef}
      className="ws-tree"
      role="tree"
      aria-label="Decoded value tree"
      tabIndex={0}
      onKeyDown={onKeyDown}
      data-testid="tree-view"
      style={{ '--ws-tree-key': `${columns.key}px`, '--ws-tree-kind': `${columns.kind}px` } as CSSProperties}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        <TreeHeader widths={columns} onResize={resizeColumn} onFit={fitColumn} />
        {virtualizer.getVirtualItems().map((item) => {
          const node = rows[item.index];
          if (isMoreRow(node))
            return (
              <MoreRowView
                key={`more-${node.moreOf}-${node.side}`}
                row={node}
                top={item.start}
                onLoad={tree.loadMore}
              />
            );
          const parent = tree.nodes.get(node.parent);
          // The parent's bytes column: its key included, so every share agrees with the bytes shown.
          const parentBytes = parent ? fieldBytes(parent) : null;
          return (
            <TreeRow
              key={node.id}
              node={node}
              top={item.start}
              selected={node.id === selectedId}
              match={node.id === matchId}
              open={tree.expanded.has(node.id)}
              loading={tree.loading.has(node.id)}
              frameSize={frameSize}
              parentBytes={parentBytes}
              highlight={highlight}
              onSelect={onSelect}
              onToggle={tree.toggle}
            />
          );
        })}
      </div>
    </div>
  );
}
