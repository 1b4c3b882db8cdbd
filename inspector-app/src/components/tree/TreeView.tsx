import { memo, useEffect, useRef, type KeyboardEvent, type ReactElement } from 'react';
import { observeElementRect, useVirtualizer, type Rect, type Virtualizer } from '@tanstack/react-virtual';
import type { TreeNode } from '../../worker/api.js';
import { isMoreRow, type MoreRow, type TreeState } from './use-tree.js';
import { exactBytes, formatBytes, formatRange } from '../shell/format.js';
import { barWidth, formatShare } from '../bytes/share.js';
import { Highlighted } from './Highlighted.js';
import { TreeHeader } from './TreeHeader.js';
import { requestOpenFrame } from './open-frame.js';
import './tree.css';

const ROW_HEIGHT = 18;
const HEADER_HEIGHT = 18;
/** `*` opens at most this many nodes below the selection (a 100,000-item array stays usable). */
export const EXPAND_ALL_BUDGET = 5000;
/** Rows indent up to this depth; deeper ones keep that indentation and show their depth (as the CLI does). */
const TREE_INDENT_LEVELS = 32;
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
}

/** A node's bytes including the key that names it (what the field costs). */
export const fieldBytes = (n: TreeNode) => n.end - n.start + (n.keyEnd > n.keyStart ? n.keyEnd - n.keyStart : 0);

/** A container that is known to hold nothing gets no expand arrow (-1: not counted yet). */
const canOpen = (n: TreeNode) => n.isContainer && n.childCount !== 0;

const TreeRow = memo(function TreeRow(props: {
  node: TreeNode;
  top: number;
  selected: boolean;
  open: boolean;
  loading: boolean;
  frameSize: number;
  /** The parent's span (null for the root): the share bar is relative to it, so nested bars are not empty. */
  parentBytes: number | null;
  /** Lower-cased search text to mark in key and value ('' for none). */
  highlight: string;
  onSelect: (n: TreeNode) => void;
  onToggle: (id: number) => void;
}): ReactElement {
  const { node, top, selected, open, loading, frameSize, parentBytes, highlight, onSelect, onToggle } = props;
  const bytes = fieldBytes(node);
  const hasKey = node.keyStart >= 0;
  const ofFrame = formatShare(bytes, frameSize);
  const ofParent = parentBytes === null ? '' : formatShare(bytes, parentBytes);
  const openable = canOpen(node);
  // CRDT heads already carry the node's id (`obj 65537.1 (5 keys)`): say it once.
  const showId = node.crdtId !== null && !node.head.includes(node.crdtId);
  // Kinds whose preview is their name (undefined, null, true) would read twice.
  const showPreview = node.preview !== node.head;
  const preview = showPreview ? node.preview : '';
  // A label that already names the kind (json-joy's `id`, `meta`) is not repeated by the head.
  const head = node.head === node.label ? '' : node.head.startsWith(`${node.label} `) ? node.head.slice(node.label.length + 1) : node.head;
  return (
    <div
      role="treeitem"
      aria-level={node.depth + 1}
      aria-expanded={openable ? open : undefined}
      aria-selected={selected}
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
      <span className="ws-tree-main" style={{ paddingLeft: Math.min(node.depth, TREE_INDENT_LEVELS) * 14 }}>
        {node.depth > TREE_INDENT_LEVELS && <span className="ws-tree-depth" title="nesting depth">·{node.depth}</span>}
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
      <span className="ws-tree-value">
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
        {showId && <span className="ws-tree-id">id {node.crdtId}{node.crdtSpan !== null ? ` ×${node.crdtSpan}` : ''}</span>}
        {node.incomplete && <span className="ws-tree-flag">incomplete</span>}
        {node.duplicateKey && <span className="ws-tree-flag">duplicate key</span>}
      </span>
      <span className="ws-tree-size" title={`${exactBytes(bytes)}${hasKey ? ' with its key' : ''}`}>
        {formatBytes(bytes)}
      </span>
      <span className="ws-tree-pct" data-testid="share-parent" title="share of the parent">
        {ofParent}
      </span>
      <span className="ws-share" aria-label={parentBytes === null ? `${ofFrame} of the frame` : `${ofParent} of the parent, ${ofFrame} of the frame`}>
        <div style={{ width: barWidth(bytes, parentBytes ?? frameSize) }} />
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
    <div role="treeitem" aria-level={row.depth + 1} className="ws-tree-row ws-tree-more" style={{ transform: `translateY(${top}px)` }} data-testid="tree-more">
      <span className="ws-tree-main" style={{ paddingLeft: Math.min(row.depth, TREE_INDENT_LEVELS) * 14 + 12 }}>
        <button type="button" onMouseDown={(e) => e.stopPropagation()} onClick={() => onLoad(row)}>
          {row.side === 'after' ? `show ${Math.min(row.count, 1000)} more of ${row.count} following` : `show ${Math.min(row.count, 1000)} earlier (${row.count} above)`}
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
  const selectedIndex = selectedId === null ? -1 : rows.findIndex((r) => !isMoreRow(r) && r.id === selectedId);

  useEffect(() => {
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [selectedIndex, virtualizer]);

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
    <div ref={scrollRef} className="ws-tree" role="tree" aria-label="Decoded value tree" tabIndex={0} onKeyDown={onKeyDown} data-testid="tree-view">
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        <TreeHeader />
        {virtualizer.getVirtualItems().map((item) => {
          const node = rows[item.index];
          if (isMoreRow(node)) return <MoreRowView key={`more-${node.moreOf}-${node.side}`} row={node} top={item.start} onLoad={tree.loadMore} />;
          const parent = tree.nodes.get(node.parent);
          const parentBytes = parent ? parent.end - parent.start : null;
          return <TreeRow key={node.id} node={node} top={item.start} selected={node.id === selectedId} open={tree.expanded.has(node.id)} loading={tree.loading.has(node.id)} frameSize={frameSize} parentBytes={parentBytes} highlight={highlight} onSelect={onSelect} onToggle={tree.toggle} />;
        })}
      </div>
    </div>
  );
}
