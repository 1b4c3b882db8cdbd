/**
 * A nested squarified treemap (Bruls, Huizing, van Wijk 2000) over any weighted tree: every
 * item a rectangle whose area is proportional to its weight among its siblings. Pure
 * geometry: what the items are comes from a `TreemapSource` (codecs/core/byte-map.ts).
 *
 * A container keeps a 1 px border and, when it is tall and wide enough, a label strip on
 * top; its children share the rest. The container's own weight (what its children leave:
 * a map's key and head, a JSON object's braces) is a child of its own (`own`), so the
 * children's areas add up to the container's content box exactly. Children whose area
 * would be under `minArea` are summed into one `more` rectangle ("N smaller"); a container
 * whose content box is under `MIN_SIDE` on a side, or under `CLOSE_AREA` with all its
 * children that small, is drawn whole, without children.
 */

export interface TreemapChild {
  readonly ref: number;
  readonly weight: number;
}

export interface TreemapSource {
  readonly rootRef: number;
  readonly rootWeight: number;
  /** The item's children with their weights (any order, zero weights allowed); null for a leaf. */
  children(ref: number): readonly TreemapChild[] | null;
}

export type TreemapRole = 'container' | 'leaf' | 'own' | 'more';

export interface TreemapRect {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
  readonly depth: number;
  /** The index of the enclosing rectangle in the list (-1: the root). */
  readonly parent: number;
  /**
   * `container`: drawn with its children inside; `leaf`: no children drawn (a leaf item, or
   * a container too small to open); `own`: the container's own weight; `more`: smaller
   * siblings summed.
   */
  readonly role: TreemapRole;
  /** The item (for `own`: its container's; for `more`: -1). */
  readonly ref: number;
  readonly weight: number;
  /** `more`: how many items it sums; otherwise 1. */
  readonly count: number;
  /** True when a label strip was reserved on top (containers only). */
  readonly strip: boolean;
}

export interface TreemapOptions {
  readonly width: number;
  readonly height: number;
  /** Items smaller than this many px² are summed into "N smaller" (default 1). */
  readonly minArea?: number;
  /** Height of a container's label strip (default 16). */
  readonly labelHeight?: number;
  /** At most this many rectangles: containers whose children would pass it stay closed (the smallest, as they open last). */
  readonly maxRects?: number;
}

/** A container's content box under this many px on a side is not opened. */
export const MIN_SIDE = 3;
/** A container under this many px² whose children are all too small is drawn closed. */
export const CLOSE_AREA = 2500;
const PAD = 1;

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Areas (largest first) tiled into `box` as rows of near-square rectangles; returns one box per area. */
export function squarify(areas: readonly number[], box: Box): Box[] {
  const out: Box[] = [];
  let { x, y, w, h } = box;
  let i = 0;
  const n = areas.length;
  while (i < n) {
    const side = Math.min(w, h);
    let sum = areas[i];
    let j = i + 1;
    let worst = worstRatio(areas[i], areas[i], sum, side);
    while (j < n) {
      const next = worstRatio(areas[i], areas[j], sum + areas[j], side);
      if (next > worst) break;
      worst = next;
      sum += areas[j];
      j++;
    }
    // The last row takes what is left whole (no rounding drift at the far edge).
    const last = j >= n;
    if (w >= h) {
      const rowW = last ? w : side > 0 ? sum / h : 0;
      let cy = y;
      for (let k = i; k < j; k++) {
        const ch = k === j - 1 ? y + h - cy : sum > 0 ? (areas[k] / sum) * h : 0;
        out.push({ x, y: cy, w: rowW, h: ch });
        cy += ch;
      }
      x += rowW;
      w = Math.max(0, w - rowW);
    } else {
      const rowH = last ? h : side > 0 ? sum / w : 0;
      let cx = x;
      for (let k = i; k < j; k++) {
        const cw = k === j - 1 ? x + w - cx : sum > 0 ? (areas[k] / sum) * w : 0;
        out.push({ x: cx, y, w: cw, h: rowH });
        cx += cw;
      }
      y += rowH;
      h = Math.max(0, h - rowH);
    }
    i = j;
  }
  return out;
}

/** The worst aspect ratio of a row whose largest area is `max`, smallest `min`, total `sum`, along `side`. */
function worstRatio(max: number, min: number, sum: number, side: number): number {
  if (sum <= 0 || min <= 0 || side <= 0) return Infinity;
  const s2 = side * side;
  const sum2 = sum * sum;
  return Math.max((s2 * max) / sum2, sum2 / (s2 * min));
}

export function treemapLayout(source: TreemapSource, options: TreemapOptions): TreemapRect[] {
  const width = Math.max(0, options.width);
  const height = Math.max(0, options.height);
  const minArea = Math.max(options.minArea ?? 1, 1e-9);
  const labelH = options.labelHeight ?? 16;
  const maxRects = options.maxRects ?? Infinity;
  const rects: TreemapRect[] = [];
  if (!(width > 0 && height > 0 && source.rootWeight > 0)) return rects;
  // Breadth-first: the largest containers open first, so a rectangle budget closes the smallest.
  const queue: { index: number; box: Box; kids: readonly TreemapChild[] }[] = [];
  const push = (r: TreemapRect) => {
    rects.push(r);
    return rects.length - 1;
  };
  const open = (ref: number, weight: number, box: Box, depth: number, parent: number) => {
    // Children are asked for only when there is room to draw them (a source may read them lazily).
    const content = contentBox(box, labelH);
    const kids = content ? source.children(ref) : null;
    if (!kids || !content) {
      push({ ...box, depth, parent, role: 'leaf', ref, weight, count: 1, strip: false });
      return;
    }
    const index = push({ ...box, depth, parent, role: 'container', ref, weight, count: 1, strip: content.strip });
    queue.push({ index, box: content, kids });
  };
  open(source.rootRef, source.rootWeight, { x: 0, y: 0, w: width, h: height }, 0, -1);
  for (let q = 0; q < queue.length; q++) {
    const { index, box } = queue[q];
    const parent = rects[index];
    const kids = queue[q].kids.filter((k) => k.weight > 0);
    let childSum = 0;
    for (const k of kids) childSum += k.weight;
    const own = Math.max(0, parent.weight - childSum);
    const total = childSum + own;
    if (!(total > 0)) continue;
    const scale = (box.w * box.h) / total;
    kids.sort((a, b) => b.weight - a.weight);
    // Items: the children above the threshold, the container's own bytes, the rest summed.
    const items: { role: 'child' | 'own' | 'more'; ref: number; weight: number; count: number }[] = [];
    let moreWeight = 0;
    let moreCount = 0;
    let cut = kids.length;
    for (let i = 0; i < kids.length; i++) {
      if (kids[i].weight * scale < minArea) {
        cut = i;
        break;
      }
    }
    // One small item alone is drawn as itself, not as "1 smaller".
    if (cut === kids.length - 1) cut = kids.length;
    // Every child too small in a small container: it reads better closed (its key, head and value)
    // than as "N smaller"; a large one says how many it holds.
    if (cut === 0 && kids.length > 1 && box.w * box.h < CLOSE_AREA) {
      rects[index] = { ...parent, role: 'leaf', strip: false };
      continue;
    }
    for (let i = 0; i < kids.length; i++) {
      if (i < cut) items.push({ role: 'child', ref: kids[i].ref, weight: kids[i].weight, count: 1 });
      else {
        moreWeight += kids[i].weight;
        moreCount++;
      }
    }
    if (own > 0) items.push({ role: 'own', ref: parent.ref, weight: own, count: 1 });
    if (moreCount > 0) items.push({ role: 'more', ref: -1, weight: moreWeight, count: moreCount });
    // Over the budget: this container stays closed (drawn whole, as a leaf).
    if (rects.length + items.length > maxRects) {
      rects[index] = { ...parent, role: 'leaf', strip: false };
      continue;
    }
    items.sort((a, b) => b.weight - a.weight);
    const boxes = squarify(
      items.map((it) => it.weight * scale),
      box,
    );
    for (let i = 0; i < items.length; i++) {
      const it = items[i];
      const b = boxes[i];
      if (it.role === 'own' || it.role === 'more')
        push({
          ...b,
          depth: parent.depth + 1,
          parent: index,
          role: it.role,
          ref: it.ref,
          weight: it.weight,
          count: it.count,
          strip: false,
        });
      else open(it.ref, it.weight, b, parent.depth + 1, index);
    }
  }
  return rects;
}

/** Inside a container's border, below its label strip when there is room for one; null when too small to open. */
function contentBox(box: Box, labelH: number): (Box & { strip: boolean }) | null {
  const strip = box.h >= labelH * 2.5 && box.w >= 48;
  const x = box.x + PAD;
  const y = box.y + PAD + (strip ? labelH : 0);
  const w = box.w - 2 * PAD;
  const h = box.h - 2 * PAD - (strip ? labelH : 0);
  if (w < MIN_SIDE || h < MIN_SIDE) return null;
  return { x, y, w, h, strip };
}
