import { Flag } from './kinds.js';
import type { SpanIndex } from './span-index.js';
import { childSegment, formatPath } from './path.js';
import { fieldPatternTree } from './field-cost.js';
import { treemapLayout, type TreemapChild, type TreemapRect, type TreemapRole } from './treemap-layout.js';

/**
 * The treemap of a frame, ready to draw: by node (every value a rectangle sized by its bytes,
 * its key included) or by field (every path pattern, `users[*].avatarHash`, sized by the
 * bytes of all its occurrences). Each rectangle carries its bytes split as the hex colours
 * them: key, head, the rest value. The map by node expands the index as far as it draws;
 * the map by field reads every occurrence: call it after `index.expandAll(index.root)`.
 */
export interface ByteMapRect extends Pick<TreemapRect, 'x' | 'y' | 'w' | 'h' | 'depth' | 'parent' | 'role' | 'strip'> {
  /** True when the item is a container (drawn open or closed). */
  readonly container: boolean;
  /** The node drawn (field map: the pattern's first occurrence); -1 for "N smaller". */
  readonly nodeId: number;
  /** That node's span. */
  readonly start: number;
  readonly end: number;
  /** The item's bytes (its key included); `own`: the container's own; `more`: the summed items'. */
  readonly bytes: number;
  readonly keyBytes: number;
  readonly headBytes: number;
  /** `more`: items summed; field map: occurrences; otherwise 1. */
  readonly count: number;
  /** The key or position (`avatarHash`, `[3]`); `own`: "(key and head)"; `more`: "N smaller". */
  readonly label: string;
  /** `$.users[3].name` or `$.users[*].name`; `more` and `own`: the container's path. */
  readonly path: string;
}

export interface ByteMap {
  readonly by: 'node' | 'field';
  readonly width: number;
  readonly height: number;
  readonly frameBytes: number;
  /** The root's bytes: the whole picture. */
  readonly totalBytes: number;
  readonly rects: readonly ByteMapRect[];
}

export interface ByteMapOptions {
  readonly width: number;
  readonly height: number;
  /**
   * Items under this many px² are summed into "N smaller" (default: 1 px², or a 1/4000th of
   * the picture when that is more, so a 2 MB frame draws a few thousand rectangles, not a
   * hundred thousand).
   */
  readonly minArea?: number;
  /** At most this many rectangles (default 6000). */
  readonly maxRects?: number;
}

export const DEFAULT_MAX_RECTS = 6000;
const AREA_SHARE = 4000;

function layoutOptions(options: ByteMapOptions) {
  const area = Math.max(0, options.width) * Math.max(0, options.height);
  return {
    width: options.width,
    height: options.height,
    minArea: options.minArea ?? Math.max(1, area / AREA_SHARE),
    maxRects: options.maxRects ?? DEFAULT_MAX_RECTS,
  };
}

const span = (index: SpanIndex, id: number) => (id >= 0 ? index.store.end[id] - index.store.start[id] : 0);

/** Where a rectangle is and what it is, as the layout placed it. */
const placed = (r: TreemapRect) => ({
  x: r.x,
  y: r.y,
  w: r.w,
  h: r.h,
  depth: r.depth,
  parent: r.parent,
  role: r.role,
  strip: r.strip,
});

/** Summed siblings and a container's own bytes: the same words in both maps. */
function groupLabel(role: TreemapRole, count: number): string {
  return role === 'more' ? `${count.toLocaleString('en-US')} smaller` : '(key and head)';
}

/**
 * Every value by its bytes and its key's. A node's bytes are its span, known without reading
 * inside it, so the index is expanded only where the picture opens a container: one level
 * per container drawn open. A 2 MB record set whose records are each under the area
 * threshold costs the root's children, not the 450,000 nodes below them.
 */
export function nodeByteMap(index: SpanIndex, options: ByteMapOptions): ByteMap {
  const { store } = index;
  const root = index.root;
  const frameBytes = index.bytes.length;
  if (root < 0)
    return { by: 'node', width: options.width, height: options.height, frameBytes, totalBytes: 0, rects: [] };
  // Positions among the parent's values, filled as containers are listed (paths need them).
  const position = new Map<number, number>();
  const keyBytesOf = (id: number) => span(index, index.keyOf(id));
  const layout = treemapLayout(
    {
      rootRef: root,
      rootWeight: span(index, root),
      children(id): TreemapChild[] | null {
        if (!index.isContainer(id)) return null;
        if (!index.isExpanded(id)) index.expand(id, 1);
        if (!index.isExpanded(id)) return null;
        const out: TreemapChild[] = [];
        let i = 0;
        for (let c = store.firstChild[id]; c >= 0; c = store.nextSibling[c]) {
          if (store.flags[c] & Flag.key) continue;
          position.set(c, i++);
          out.push({ ref: c, weight: span(index, c) + keyBytesOf(c) });
        }
        return out;
      },
    },
    layoutOptions(options),
  );
  const paths: string[] = [];
  const rects = layout.map((r: TreemapRect): ByteMapRect => {
    const parentPath = r.parent >= 0 ? paths[r.parent] : '';
    const grouped = r.role === 'more' || r.role === 'own';
    const id = r.role === 'more' ? -1 : r.ref;
    let label = '$';
    let path = '$';
    if (grouped) path = parentPath;
    else if (r.parent >= 0) {
      const segment = formatPath([childSegment(index, id, position.get(id) ?? -1)]).slice(1);
      path = parentPath + segment;
      label = segment.startsWith('.') ? segment.slice(1) : segment;
    }
    paths.push(path);
    const containerId = r.role === 'own' ? r.ref : id;
    const key = r.role === 'more' ? 0 : keyBytesOf(containerId);
    return {
      ...placed(r),
      container: id >= 0 && index.isContainer(id),
      nodeId: id,
      start: id >= 0 ? store.start[id] : -1,
      end: id >= 0 ? store.end[id] : -1,
      bytes: r.weight,
      keyBytes: key,
      headBytes: r.role === 'more' ? 0 : r.role === 'own' ? r.weight - key : index.headerLength(id),
      count: r.count,
      label: grouped ? groupLabel(r.role, r.count) : label,
      path,
    };
  });
  return { by: 'node', width: options.width, height: options.height, frameBytes, totalBytes: span(index, root), rects };
}

/** Every path pattern by the bytes of all its occurrences (`users[*].avatarHash`). */
export function fieldByteMap(index: SpanIndex, options: ByteMapOptions): ByteMap {
  const frameBytes = index.bytes.length;
  const tree = fieldPatternTree(index);
  if (!tree) return { by: 'field', width: options.width, height: options.height, frameBytes, totalBytes: 0, rects: [] };
  const { names, parents, counts, keyBytes, valueBytes, headBytes, firstNode, containers } = tree;
  const kids: number[][] = names.map(() => []);
  for (let p = 1; p < names.length; p++) if (parents[p] >= 0 && parents[p] !== p) kids[parents[p]].push(p);
  const weight = (p: number) => keyBytes[p] + valueBytes[p];
  const layout = treemapLayout(
    {
      rootRef: 0,
      rootWeight: weight(0),
      children: (p) => (kids[p].length ? kids[p].map((c) => ({ ref: c, weight: weight(c) })) : null),
    },
    layoutOptions(options),
  );
  const rects = layout.map((r): ByteMapRect => {
    const grouped = r.role === 'more' || r.role === 'own';
    const p = r.role === 'more' ? -1 : r.ref;
    const parentPattern = r.role === 'more' ? layout[r.parent].ref : r.ref;
    const node = p >= 0 ? firstNode[p] : -1;
    const name = names[p >= 0 ? p : parentPattern];
    const parentName = p > 0 ? names[parents[p]] : '';
    const own = name.slice(parentName.length);
    return {
      ...placed(r),
      container: p >= 0 && containers[p],
      nodeId: node,
      start: node >= 0 ? index.store.start[node] : -1,
      end: node >= 0 ? index.store.end[node] : -1,
      bytes: r.weight,
      keyBytes: r.role === 'more' ? 0 : keyBytes[p],
      headBytes: r.role === 'more' ? 0 : r.role === 'own' ? r.weight - keyBytes[p] : headBytes[p],
      count: r.role === 'more' ? r.count : counts[p],
      label: grouped ? groupLabel(r.role, r.count) : p === 0 ? '$' : own.startsWith('.') ? own.slice(1) : own,
      path: name,
    };
  });
  return { by: 'field', width: options.width, height: options.height, frameBytes, totalBytes: weight(0), rects };
}
