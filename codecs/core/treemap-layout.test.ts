import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { squarify, treemapLayout, type TreemapRect, type TreemapSource } from './treemap-layout.js';
import { fieldByteMap, nodeByteMap } from './byte-map.js';
import { decodeFrame } from '../index.js';

/** A weighted tree given as nested arrays of leaf weights. */
type Shape = number | Shape[];
function sourceOf(shape: Shape): TreemapSource {
  const items: Shape[] = [];
  const weights: number[] = [];
  const add = (s: Shape): number => {
    items.push(s);
    weights.push(0);
    const id = items.length - 1;
    weights[id] = typeof s === 'number' ? s : s.map(add).reduce((a, c) => a + weights[c], 0);
    return id;
  };
  add(shape);
  const kidIds = new Map<number, number[]>();
  // Ids are handed out depth-first: rebuild each item's children from the shape.
  let next = 0;
  const walk = (s: Shape): number => {
    const id = next++;
    if (typeof s !== 'number') kidIds.set(id, s.map(walk));
    return id;
  };
  walk(shape);
  return {
    rootRef: 0,
    rootWeight: weights[0],
    children: (ref) => kidIds.get(ref)?.map((c) => ({ ref: c, weight: weights[c] })) ?? null,
  };
}

const EPS = 1e-6;
const inside = (r: TreemapRect, p: TreemapRect) =>
  r.x >= p.x - EPS && r.y >= p.y - EPS && r.x + r.w <= p.x + p.w + EPS && r.y + r.h <= p.y + p.h + EPS;

const shapeArb: fc.Arbitrary<Shape> = fc.letrec<{ node: Shape }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.integer({ min: 1, max: 1000 }),
    fc.array(tie('node'), { minLength: 1, maxLength: 6 }),
  ),
})).node;

describe('squarified treemap layout', () => {
  it('tiles the box exactly: areas proportional to the weights', () => {
    const areas = [60, 30, 20, 10, 5, 3, 2].map((a) => a * 10);
    const boxes = squarify(areas, { x: 0, y: 0, w: 50, h: 26 });
    expect(boxes).toHaveLength(areas.length);
    for (const [i, b] of boxes.entries()) expect(b.w * b.h).toBeCloseTo(areas[i], 6);
    const total = boxes.reduce((s, b) => s + b.w * b.h, 0);
    expect(total).toBeCloseTo(50 * 26, 6);
  });

  it('keeps sibling areas proportional to their weights and every rectangle inside its parent', () => {
    fc.assert(
      fc.property(shapeArb, fc.integer({ min: 20, max: 900 }), fc.integer({ min: 20, max: 700 }), (shape, w, h) => {
        const rects = treemapLayout(sourceOf(shape), { width: w, height: h });
        expect(rects[0]).toMatchObject({ x: 0, y: 0, w, h });
        for (const r of rects) {
          expect(r.w).toBeGreaterThanOrEqual(-EPS);
          expect(r.h).toBeGreaterThanOrEqual(-EPS);
          if (r.parent >= 0) expect(inside(r, rects[r.parent])).toBe(true);
        }
        // Per container: area per unit of weight is the same for all its children.
        const byParent = new Map<number, TreemapRect[]>();
        for (const r of rects) if (r.parent >= 0) byParent.set(r.parent, [...(byParent.get(r.parent) ?? []), r]);
        for (const [p, kids] of byParent) {
          const density = kids.map((k) => (k.w * k.h) / k.weight);
          for (const d of density) expect(d).toBeCloseTo(density[0], 4);
          // The children fill the parent's content box: weights add up to the parent's.
          expect(kids.reduce((s, k) => s + k.weight, 0)).toBeCloseTo(rects[p].weight, 6);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('sums children under the area threshold into one "N smaller" rectangle', () => {
    // One big child and 50 tiny ones in a 100×100 box: the tiny ones are under 1 px² each.
    const rects = treemapLayout(sourceOf([1_000_000, ...Array.from({ length: 50 }, () => 1)]), {
      width: 100,
      height: 100,
    });
    const more = rects.filter((r) => r.role === 'more');
    expect(more).toHaveLength(1);
    expect(more[0]).toMatchObject({ count: 50, weight: 50, parent: 0 });
    expect(rects.filter((r) => r.role === 'leaf')).toHaveLength(1);
  });

  it('closes a small container whose children are all under the threshold; a large one says "N smaller"', () => {
    const large = treemapLayout(sourceOf(Array.from({ length: 20_000 }, () => 1)), { width: 100, height: 100 });
    expect(large.map((r) => [r.role, r.count])).toEqual([
      ['container', 1],
      ['more', 20_000],
    ]);
    const rects = treemapLayout(sourceOf([1_000_000, Array.from({ length: 30 }, () => 1)]), {
      width: 100,
      height: 100,
    });
    expect(rects.filter((r) => r.role === 'more')).toHaveLength(0);
    expect(rects.filter((r) => r.role === 'leaf').map((r) => r.weight)).toEqual([1_000_000, 30]);
  });

  it('draws one small child as itself, not as "1 smaller"', () => {
    const rects = treemapLayout(sourceOf([1_000_000, 1]), { width: 100, height: 100 });
    expect(rects.filter((r) => r.role === 'more')).toHaveLength(0);
    expect(rects.filter((r) => r.role === 'leaf')).toHaveLength(2);
  });

  it('reserves a label strip only on containers with room for it', () => {
    const rects = treemapLayout(sourceOf([[10, 20], 30]), { width: 400, height: 300 });
    expect(rects[0].strip).toBe(true);
    const small = treemapLayout(sourceOf([[10, 20], 30]), { width: 30, height: 30 });
    expect(small[0].strip).toBe(false);
  });

  it('stops at the rectangle budget: the rest stays closed', () => {
    const wide = Array.from({ length: 40 }, () => Array.from({ length: 40 }, () => 5));
    const rects = treemapLayout(sourceOf(wide), { width: 2000, height: 2000, maxRects: 100 });
    expect(rects.length).toBeLessThanOrEqual(100);
    expect(rects.filter((r) => r.role === 'leaf').length).toBeGreaterThan(0);
  });
});

describe('the frame as a treemap', () => {
  const users = Array.from({ length: 20 }, (_, i) => ({ id: i, avatarHash: 'ab'.repeat(20), email: `u${i}@x.io` }));
  const bytes = new CborEncoder().encode({ type: 'users.page', users });
  const index = decodeFrame(bytes, { format: 'cbor' }).index!;
  index.expandAll(index.root);

  it('by node: the root covers the picture, each value is charged its key, shown as the hex colours it', () => {
    const map = nodeByteMap(index, { width: 800, height: 500, minArea: 1 });
    expect(map.totalBytes).toBe(bytes.length);
    const usersRect = map.rects.find((r) => r.path === '$.users')!;
    // 'users' key: 1 head byte + 5 letters.
    expect(usersRect).toMatchObject({ label: 'users', keyBytes: 6, container: true, role: 'container' });
    expect(usersRect.bytes).toBe(usersRect.end - usersRect.start + 6);
    const hash = map.rects.find((r) => r.path === '$.users[3].avatarHash')!;
    const hashKey = index.keyOf(hash.nodeId);
    const keyBytes = index.store.end[hashKey] - index.store.start[hashKey];
    expect(keyBytes).toBeGreaterThanOrEqual(11);
    expect(hash).toMatchObject({ label: 'avatarHash', keyBytes, headBytes: 2, bytes: keyBytes + 42 });
    // The record's own bytes: its map head, without a key (array items have none).
    const own = map.rects.find((r) => r.role === 'own' && r.path === '$.users[3]')!;
    expect(own).toMatchObject({ bytes: 1, keyBytes: 0, headBytes: 1, label: '(key and head)' });
  });

  it('by field: one rectangle per path pattern, the heaviest leaf first', () => {
    const map = fieldByteMap(index, { width: 800, height: 500 });
    const leaves = map.rects.filter((r) => r.role === 'leaf').sort((a, b) => b.bytes - a.bytes);
    expect(leaves[0]).toMatchObject({ path: '$.users[*].avatarHash', label: 'avatarHash', count: 20 });
    const hashKey = index.keyOf(leaves[0].nodeId);
    expect(leaves[0].bytes).toBe(20 * (42 + index.store.end[hashKey] - index.store.start[hashKey]));
    expect(leaves[0].nodeId).toBeGreaterThan(0);
    // The pattern points at its first occurrence.
    expect(bytes[leaves[0].start]).toBe(0x78);
  });

  it('stays within its parent for every rectangle of a real frame', () => {
    for (const map of [
      nodeByteMap(index, { width: 640, height: 400 }),
      fieldByteMap(index, { width: 640, height: 400 }),
    ])
      for (const r of map.rects)
        if (r.parent >= 0)
          expect(inside(r as unknown as TreemapRect, map.rects[r.parent] as unknown as TreemapRect)).toBe(true);
  });
});
