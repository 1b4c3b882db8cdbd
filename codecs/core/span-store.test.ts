import { describe, expect, it } from 'vitest';
import { SpanStore, allocateFloat64 } from './span-store.js';

/**
 * SpanStore carves its packed region out of shared slabs and writes it through arrays that
 * span the whole slab: stores must never see each other's nodes, growth must carry every
 * field over (within a slab, into a new slab, into a buffer of its own), and the per-store
 * views (named fields, and the packed `i32` / `u8` / `f64` that duplicates.ts reads) must
 * show exactly the store's own region.
 */

/** Fills node fields from (store, id) so any overlap or lost copy shows. */
function fill(store: SpanStore, tag: number, count: number): void {
  for (let i = 0; i < count; i++) {
    const id = store.add(
      (tag + i) % 50,
      tag * 1000 + i * 3,
      1 + ((tag + i) % 9),
      tag + i / 4,
      i > 0 ? 0 : -1,
      i > 1 ? i - 1 : -1,
    );
    store.setEnd(id, tag * 1000 + i * 3 + 2);
    store.addFlags(id, (tag + i) & 0x0f);
  }
}

function problems(store: SpanStore, tag: number, count: number): string[] {
  const out: string[] = [];
  const { kind, flags, head, start, end, parent, firstChild, nextSibling, arg, i32, u8, f64, cap } = store;
  if (store.size !== count) out.push(`store ${tag}: size ${store.size} != ${count}`);
  for (let id = 0; id < count; id++) {
    const want = {
      kind: (tag + id) % 50,
      flags: (tag + id) & 0x0f,
      head: 1 + ((tag + id) % 9),
      start: tag * 1000 + id * 3,
      end: tag * 1000 + id * 3 + 2,
      parent: id > 0 ? 0 : -1,
      nextSibling: id > 0 && id < count - 1 ? id + 1 : -1,
      arg: tag + id / 4,
    };
    const got = {
      kind: kind[id],
      flags: flags[id],
      head: head[id],
      start: start[id],
      end: end[id],
      parent: parent[id],
      nextSibling: nextSibling[id],
      arg: arg[id],
    };
    if (JSON.stringify(got) !== JSON.stringify(want))
      out.push(`store ${tag} node ${id}: ${JSON.stringify(got)} != ${JSON.stringify(want)}`);
    // The packed layout duplicates.ts relies on: field f of node id at f * cap + id.
    const packed = [
      i32[id],
      i32[cap + id],
      i32[2 * cap + id],
      i32[3 * cap + id],
      i32[4 * cap + id],
      u8[id],
      u8[cap + id],
      u8[2 * cap + id],
      f64[id],
    ];
    const named = [
      start[id],
      end[id],
      parent[id],
      firstChild[id],
      nextSibling[id],
      kind[id],
      flags[id],
      head[id],
      arg[id],
    ];
    if (packed.join() !== named.join()) out.push(`store ${tag} node ${id}: packed ${packed} != named ${named}`);
  }
  if (count > 1 && firstChild[0] !== 1) out.push(`store ${tag}: firstChild[0] = ${firstChild[0]}`);
  return out;
}

describe('SpanStore', () => {
  it('stores from shared slabs never overlap, and growth carries every field over', () => {
    // Interleaved: each store grows while others are carved after it.
    const stores: { store: SpanStore; tag: number; count: number }[] = [];
    for (let tag = 0; tag < 600; tag++) {
      const capacity = 4 + ((tag * 37) % 200);
      const count = (tag * 53) % 700; // often beyond the capacity: grows, sometimes past 16 KiB (own buffer)
      stores.push({ store: new SpanStore(capacity), tag, count });
    }
    for (const s of stores) fill(s.store, s.tag, s.count >> 1);
    for (const s of stores) {
      const { store, tag, count } = s;
      for (let i = count >> 1; i < count; i++) {
        const id = store.add(
          (tag + i) % 50,
          tag * 1000 + i * 3,
          1 + ((tag + i) % 9),
          tag + i / 4,
          i > 0 ? 0 : -1,
          i > 1 ? i - 1 : -1,
        );
        store.setEnd(id, tag * 1000 + i * 3 + 2);
        store.addFlags(id, (tag + i) & 0x0f);
      }
    }
    const found = stores.flatMap((s) => problems(s.store, s.tag, s.count));
    expect(found.slice(0, 5)).toEqual([]);
    expect(stores.some((s) => s.store.byteLength > 16 * 1024)).toBe(true);
  });

  it('views made before a growth keep the old region; views read after it show the new one', () => {
    const store = new SpanStore(4);
    fill(store, 7, 4);
    const oldStart = store.start;
    const id = store.add(3, 99, 1, 5, 0, 3);
    expect(store.capacity).toBe(8);
    expect(store.start).not.toBe(oldStart);
    expect(oldStart[3]).toBe(7009);
    expect(Array.from(store.start.subarray(0, 5))).toEqual([7000, 7003, 7006, 7009, 99]);
    expect(Array.from(store.end.subarray(0, 5))).toEqual([7002, 7005, 7008, 7011, 100]);
    expect(store.nextSibling[3]).toBe(id);
    expect(Array.from(store.kind.subarray(0, 5))).toEqual([7, 8, 9, 10, 3]);
  });

  it('endOf reads what setEnd wrote; a fresh slot has clear flags', () => {
    const store = new SpanStore(16);
    const id = store.add(1, 10, 2, 0, -1, -1);
    expect(store.endOf(id)).toBe(12);
    store.setEnd(id, 40);
    expect(store.endOf(id)).toBe(40);
    expect(store.end[id]).toBe(40);
    expect(store.flags[id]).toBe(0);
    store.setArg(id, 2 ** 60);
    expect(store.arg[id]).toBe(2 ** 60);
  });

  it('allocateFloat64 hands out zeroed arrays that stores do not write into', () => {
    const arrays = Array.from({ length: 50 }, (_, i) => allocateFloat64(10 + i));
    const stores = Array.from({ length: 50 }, (_, i) => new SpanStore(4 + i));
    stores.forEach((s, i) => {
      fill(s, i, 4 + i);
    });
    arrays.forEach((a, i) => {
      expect(a.length).toBe(10 + i);
      expect(a.every((x) => x === 0)).toBe(true);
      a.fill(i + 0.5);
    });
    expect(stores.flatMap((s, i) => problems(s, i, 4 + i))).toEqual([]);
    arrays.forEach((a, i) => {
      expect(a.every((x) => x === i + 0.5)).toBe(true);
    });
  });
});

describe('SpanStore.trim', () => {
  it('a store at the end of its slab is compacted in place; the next store gets the tail back zeroed', () => {
    for (const count of [0, 1, 3, 5, 40, 100]) {
      const a = new SpanStore(400); // 12 KB: carved from a slab
      fill(a, 7, count);
      a.trim();
      expect(a.capacity, `count ${count}`).toBe(Math.max(count, 4));
      expect(problems(a, 7, count), `count ${count}`).toEqual([]);
      // The next store lands in the space given back: its fresh slots must be clear.
      const b = new SpanStore(300);
      expect(b.slab).toBe(a.slab);
      expect([...b.flags].every((f) => f === 0)).toBe(true);
      fill(b, 9, 300);
      expect(problems(b, 9, 300)).toEqual([]);
      expect(problems(a, 7, count), `count ${count}, after the next store`).toEqual([]);
      // Growing after a trim carries every node over.
      for (let i = 0; i < 3; i++) a.grow();
      expect(problems(a, 7, count)).toEqual([]);
    }
  });

  it('a store with a buffer of its own is copied into one of its size; little slack is kept', () => {
    const big = new SpanStore(10_000);
    fill(big, 3, 6000);
    big.trim();
    expect(big.capacity).toBe(6000);
    expect(big.byteLength).toBe(6000 * 31);
    expect(problems(big, 3, 6000)).toEqual([]);
    const snug = new SpanStore(10_000);
    fill(snug, 4, 8500);
    snug.trim();
    expect(snug.capacity).toBe(10_000); // 15% empty: kept (at most 31 * 10000 / 8500 = 36.5 B per node)
  });

  it('a store not at the end of its slab stays as it is', () => {
    const a = new SpanStore(100);
    fill(a, 5, 10);
    const b = new SpanStore(100);
    a.trim();
    expect(a.capacity).toBe(100);
    expect(problems(a, 5, 10)).toEqual([]);
    expect(b.slab).toBe(a.slab);
  });
});
