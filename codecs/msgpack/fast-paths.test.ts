import { describe, expect, it } from 'vitest';
import { pack } from 'msgpackr';
import { Flag, kindName } from '../core/kinds.js';
import type { SpanIndex } from '../core/span-index.js';
import { indexMsgpack } from './index.js';
import { hex } from '../test/helpers/hex.js';

/**
 * The walker's fast paths (runs of leaves, short arrays of numbers recorded with their items
 * without a stack frame) must record exactly what the general code records: the same nodes,
 * flags and errors at every depth, for well-formed and cut-off frames.
 */

function rows(ix: SpanIndex): string[] {
  const s = ix.store;
  const out: string[] = [];
  for (let id = 0; id < s.size; id++) {
    const p = s.parent[id];
    const children: number[] = [];
    for (let c = s.firstChild[id]; c >= 0; c = s.nextSibling[c]) children.push(s.start[c]);
    out.push(
      [
        kindName(s.kind[id]),
        s.start[id],
        s.end[id],
        s.head[id],
        s.arg[id],
        s.flags[id] & ~Flag.expanded,
        p < 0 ? -1 : s.start[p],
        children.join('/'),
      ].join(','),
    );
  }
  return out.sort();
}

const values: unknown[] = [
  [
    [1.5, -2, 3],
    [127, -32],
    [0, 0.25],
  ],
  { a: [1, 2], b: [[-1.5, 2.5, 1e300]], c: 'x' },
  Array.from({ length: 40 }, (_, i) => [i, -i - 1, i / 3]),
  [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]],
  [
    [300, 1],
    [1, 'a'],
    [null, 1],
    [1, [2]],
  ], // items the short-array path leaves to the general code
  new Map<unknown, unknown>([[[1, 2], 'pair as a key']]),
];

describe('msgpack walker: fast paths record what the general code records', () => {
  for (const [i, value] of values.entries()) {
    it(`value ${i}: full index, depth-limited indexes expanded, values`, () => {
      const bytes = pack(value);
      const full = indexMsgpack(bytes);
      expect(full.error).toBeNull();
      expect(full.value(0)).toEqual(value);
      for (const depth of [0, 1, 2, 3]) {
        const shallow = indexMsgpack(bytes, { depth });
        expect(shallow.error).toBeNull();
        shallow.expandAll(0);
        expect(rows(shallow)).toEqual(rows(full));
      }
      // A short array is expanded exactly when its items are recorded.
      const d1 = indexMsgpack(bytes, { depth: 1 });
      for (let id = 0; id < d1.store.size; id++)
        expect(d1.isExpanded(id), `node ${id}`).toBe(
          d1.store.firstChild[id] >= 0 || (id === 0 && d1.store.arg[0] === 0),
        );
    });
  }

  it('a short array cut off is an error at the same offset at every depth', () => {
    for (const h of ['92 92 cb 3ff8000000', '91 93 01 02', '91 92 ca 3fc0', '92 92 01 02 92 01']) {
      const bytes = hex(h);
      const full = indexMsgpack(bytes);
      expect(full.error?.code, h).toBe('truncated');
      expect(full.error?.offset, h).toBe(bytes.length);
      for (const depth of [0, 1, 2]) {
        const ix = indexMsgpack(bytes, { depth });
        expect(ix.error?.code).toBe('truncated');
        expect(ix.error?.offset).toBe(bytes.length);
      }
      // Every recorded node lies inside its parent.
      const s = full.store;
      for (let id = 1; id < s.size; id++) {
        const p = s.parent[id];
        expect(s.start[id]).toBeGreaterThanOrEqual(s.start[p]);
        expect(s.end[id]).toBeLessThanOrEqual(s.end[p]);
      }
    }
  });
});
