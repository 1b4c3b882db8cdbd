import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { indexCbor } from './index.js';
import { hex } from '../test/helpers/cbor.js';

/**
 * The leaf loop records short arrays of numbers and simple values (coordinate pairs,
 * vectors) in place, without a stack frame: every head width and kind must come out as the
 * general code records it (here: the same array read one level at a time by expansion).
 */
const SCALARS = [
  ['00', 'uint', 1],
  ['17', 'uint', 1],
  ['18 18', 'uint', 2],
  ['19 01 00', 'uint', 3],
  ['1a 00 01 00 00', 'uint', 5],
  ['1b 00 00 00 01 00 00 00 00', 'uint', 9],
  ['20', 'nint', 1],
  ['38 ff', 'nint', 2],
  ['39 01 00', 'nint', 3],
  ['3b 00 00 00 01 00 00 00 00', 'nint', 9],
  ['f4', 'false', 1],
  ['f5', 'true', 1],
  ['f6', 'null', 1],
  ['f7', 'undefined', 1],
  ['e0', 'simple', 1],
  ['f8 20', 'simple', 2],
  ['f9 3c 00', 'float16', 3],
  ['fa 47 c3 50 00', 'float32', 5],
  ['fb 3f f1 99 99 99 99 99 9a', 'float64', 9],
] as const;

describe('short arrays of scalars in a full CBOR index', () => {
  it('record every item with its kind, span and head, as expansion one level at a time does', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.nat(SCALARS.length - 1), { maxLength: 20 }), { minLength: 1, maxLength: 6 }),
        (arrays) => {
          let text = `${(0x80 + arrays.length).toString(16)} `;
          for (const items of arrays) {
            text +=
              items.length < 24
                ? `${(0x80 + items.length).toString(16)} `
                : `98 ${items.length.toString(16).padStart(2, '0')} `;
            for (const i of items) text += SCALARS[i][0] + ' ';
          }
          const frame = hex(text);
          const full = indexCbor(frame);
          const stepwise = indexCbor(frame, { depth: 0 });
          for (let id = 0; id < stepwise.store.size; id++) stepwise.expand(id, 1);
          expect(full.error).toBeNull();
          const describe = (ix: ReturnType<typeof indexCbor>) => {
            const out: string[] = [];
            const walk = (id: number): void => {
              out.push(
                `${ix.kind(id)} ${ix.store.start[id]}-${ix.store.end[id]} h${ix.store.head[id]} a${ix.store.arg[id]} p${ix.store.parent[id] >= 0 ? ix.store.start[ix.store.parent[id]] : -1} f${ix.store.flags[id]}`,
              );
              for (const c of ix.children(id)) walk(c);
            };
            walk(0);
            return out;
          };
          expect(describe(full)).toEqual(describe(stepwise));
          // Every scalar's kind as the table says.
          const kinds = arrays.flat().map((i) => SCALARS[i][1]);
          expect(full.children(0).flatMap((a) => full.children(a).map((c) => full.kind(c)))).toEqual(kinds);
        },
      ),
      { numRuns: 300, seed: 13 },
    );
  });

  it('runs of one head in long arrays (the leaf loop hops them) record as stepwise expansion does', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(SCALARS.length - 1), fc.integer({ min: 1, max: 40 })), { minLength: 1, maxLength: 8 }),
        (runs) => {
          const items = runs.flatMap(([i, k]) => Array.from({ length: k }, () => i));
          const count = items.length;
          const head =
            count < 24
              ? (0x80 + count).toString(16)
              : count < 256
                ? `98 ${count.toString(16).padStart(2, '0')}`
                : `99 ${count.toString(16).padStart(4, '0')}`;
          const frame = hex(`82 ${head} ${items.map((i) => SCALARS[i][0]).join(' ')} 61 78`);
          const full = indexCbor(frame);
          const stepwise = indexCbor(frame, { depth: 0 });
          stepwise.expandAll(0);
          expect(full.error).toBeNull();
          expect(full.store.size).toBe(stepwise.store.size);
          for (let id = 0; id < full.store.size; id++) {
            const f = full.store;
            const s = stepwise.store;
            // Node ids differ by recording order; compare by start offset through nodeAt-free lookup.
            const other = [...Array(s.size).keys()].find(
              (j) => s.start[j] === f.start[id] && s.kind[j] === f.kind[id] && s.end[j] === f.end[id],
            );
            expect(other, `node ${id}`).toBeDefined();
            expect([s.head[other!], s.arg[other!], s.flags[other!] & ~8], `node ${id}`).toEqual([
              f.head[id],
              f.arg[id],
              f.flags[id] & ~8,
            ]);
          }
          expect(full.children(1).map((c) => full.kind(c))).toEqual(items.map((i) => SCALARS[i][1]));
          expect(full.value(0)).toEqual(stepwise.value(0));
        },
      ),
      { numRuns: 200, seed: 13 },
    );
  });

  it('stop at what they do not handle: a string, a nested array, a tag, a cut item', () => {
    for (const [frame, error] of [
      ['81 82 01 61 61', null],
      ['81 82 01 81 02', null],
      ['81 82 01 c1 00', null],
      ['81 82 01 fb 00', 'truncated'],
      ['81 82 01 1c', 'reserved-additional-info'],
      ['81 82 01 ff', 'unexpected-break'],
    ] as const) {
      const index = indexCbor(hex(frame));
      expect(index.error?.code ?? null, frame).toBe(error);
      const stepwise = indexCbor(hex(frame), { depth: 0 });
      stepwise.expandAll(0);
      expect(index.store.size, frame).toBe(stepwise.store.size);
    }
  });
});

describe('runs of one head in the skipper (the floats of a vertex array)', () => {
  it('end where the declared count ends, and report cut or missing items as the full index does', () => {
    const heads = ['fb 3f f1 99 99 99 99 99 9a', 'fa 47 c3 50 00', '18 20', '01', 'f6'];
    for (const item of heads) {
      for (let n = 1; n <= 20; n++) {
        for (const declared of [n - 1, n, n + 1]) {
          for (const cut of [0, 1, 4]) {
            // {"a": [item x n] (declaring `declared` items), "b": 0}, the last `cut` bytes removed.
            const text = `a2 61 61 98 ${declared.toString(16).padStart(2, '0')} ` + `${item} `.repeat(n) + '61 62 00';
            const all = hex(text);
            const frame = all.subarray(0, all.length - cut);
            const full = indexCbor(frame);
            const shallow = indexCbor(frame, { depth: 1 });
            const what = `${item} x${n} declared ${declared} cut ${cut}`;
            expect(shallow.error?.code ?? null, what).toBe(full.error?.code ?? null);
            expect(shallow.error?.offset ?? null, what).toBe(full.error?.offset ?? null);
            if (!full.error) expect(shallow.store.end[2], what).toBe(full.store.end[2]);
          }
        }
      }
    }
  });
});

describe('short arrays of scalars in the skipper (coordinate pairs, skipped without a stack frame)', () => {
  it('runs and mixes of heads, declared counts off by one, cut frames: depth 1 reports what the full index does', () => {
    const heads = ['fb 3f f1 99 99 99 99 99 9a', 'fa 47 c3 50 00', '18 20', '01', 'f6', 'f8 20', 'f8 1f'];
    for (const first of heads) {
      for (const second of heads) {
        for (let n = 1; n <= 17; n++) {
          // n items: `first` twice, then alternating, so runs of one head and changes both occur.
          const items = Array.from({ length: n }, (_, i) => (i < 2 || i % 2 === 0 ? first : second));
          for (const declared of [n - 1, n, n + 1]) {
            if (declared > 23) continue;
            const body = items.join(' ');
            const whole = hex(`a2 61 61 81 ${(0x80 + declared).toString(16)} ${body} 61 62 00`);
            for (const cut of [0, 1, 4, 9, 10]) {
              const frame = whole.subarray(0, Math.max(1, whole.length - cut));
              const full = indexCbor(frame);
              const shallow = indexCbor(frame, { depth: 1 });
              const what = `${first} / ${second} x${n} declared ${declared} cut ${cut}`;
              expect(shallow.error?.code ?? null, what).toBe(full.error?.code ?? null);
              expect(shallow.error?.offset ?? null, what).toBe(full.error?.offset ?? null);
              if (!full.error) expect(shallow.store.end[2], what).toBe(full.store.end[2]);
            }
          }
        }
      }
    }
  });
});
