import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SpanIndex } from '../core/span-index.js';
import { crdtModelWalker } from './model-walker.js';
import { crdtPatchWalker } from './patch-walker.js';
import { editedModel } from './corpus.js';
import { hex } from '../test/helpers/cbor.js';

/**
 * json-joy partial trees keep the tree's shape: every child lies inside its parent and
 * siblings do not overlap, for complete and partial (malformed) frames alike. An
 * incomplete parent extends to where its last child ends: on `8041010161` the model was
 * [0, 4) around a con at [2, 5); on `808400800061010161` a vec at [3, 8) held a con at [6, 9).
 */
function shapeProblems(index: SpanIndex): string[] {
  const { store } = index;
  const problems: string[] = [];
  for (let id = 0; id < store.size; id++) {
    const [s, e] = [store.start[id], store.end[id]];
    if (!(s <= e) || e > index.bytes.length)
      problems.push(`node ${id} ${index.kind(id)} [${s}, ${e}) is not a span of the frame`);
    const kids: number[] = [];
    for (let c = store.firstChild[id]; c >= 0; c = store.nextSibling[c]) kids.push(c);
    for (const c of kids) {
      if (store.start[c] < s || store.end[c] > e)
        problems.push(
          `${index.kind(c)} ${c} [${store.start[c]}, ${store.end[c]}) outside its parent ${index.kind(id)} ${id} [${s}, ${e})`,
        );
    }
    kids.sort((a, b) => store.start[a] - store.start[b] || store.end[a] - store.end[b]);
    for (let i = 1; i < kids.length; i++) {
      const [a, b] = [kids[i - 1], kids[i]];
      // Empty spans (a zero-length node between others) overlap nothing.
      if (store.start[b] < store.end[a] && store.end[b] > store.start[b] && store.end[a] > store.start[a]) {
        problems.push(
          `siblings ${index.kind(a)} ${a} [${store.start[a]}, ${store.end[a]}) and ${index.kind(b)} ${b} [${store.start[b]}, ${store.end[b]}) overlap`,
        );
      }
    }
  }
  return problems;
}

const model = (bytes: Uint8Array) => new SpanIndex(bytes, crdtModelWalker);
const patch = (bytes: Uint8Array) => new SpanIndex(bytes, crdtPatchWalker);

describe('json-joy partial trees', () => {
  it('8041010161: the incomplete model extends over its con child', () => {
    const index = model(hex('8041010161'));
    expect(index.error).toMatchObject({ code: 'invalid-id', offset: 4 });
    expect(shapeProblems(index)).toEqual([]);
    expect(index.store.end[0]).toBeGreaterThanOrEqual(5);
  });

  it('808400800061010161: the incomplete vec extends over its con child', () => {
    const index = model(hex('808400800061010161'));
    expect(index.error).not.toBeNull();
    expect(shapeProblems(index)).toEqual([]);
  });

  // Real frames to start from: models with both clocks and their patches.
  const seeds = [1, 2, 3].flatMap((seed) =>
    (['logical', 'server'] as const).map((clock) => {
      const { model: m, patches } = editedModel(seed, { clock, edits: 12, size: 6 });
      return { model: m.toBinary(), patches: patches.slice(0, 6).map((p) => p.toBinary()) };
    }),
  );
  const frames = seeds.flatMap((s) => [
    { kind: 'model' as const, bytes: s.model },
    ...s.patches.map((bytes) => ({ kind: 'patch' as const, bytes })),
  ]);
  const read = (kind: 'model' | 'patch', bytes: Uint8Array) => (kind === 'model' ? model(bytes) : patch(bytes));

  it('complete frames: children inside parents, siblings apart', () => {
    for (const f of frames) {
      const index = read(f.kind, f.bytes);
      expect(index.error, f.kind).toBeNull();
      expect(shapeProblems(index)).toEqual([]);
    }
  });

  it('mutated frames (bytes changed, cut, inserted, removed): the same holds for the partial trees', () => {
    fc.assert(
      fc.property(
        fc.nat(frames.length - 1),
        fc.array(fc.tuple(fc.constantFrom('set', 'cut', 'insert', 'remove'), fc.nat(), fc.nat(255)), {
          minLength: 1,
          maxLength: 4,
        }),
        (which, edits) => {
          const f = frames[which];
          let bytes = Array.from(f.bytes);
          for (const [op, at, value] of edits) {
            const i = at % Math.max(1, bytes.length);
            if (op === 'set') bytes[i] = value;
            else if (op === 'cut') bytes = bytes.slice(0, i);
            else if (op === 'insert') bytes.splice(i, 0, value);
            else bytes.splice(i, 1);
          }
          const input = Uint8Array.from(bytes);
          for (const kind of ['model', 'patch'] as const) {
            const problems = shapeProblems(read(kind, input));
            if (problems.length)
              throw new Error(`${kind} ${Buffer.from(input).toString('hex')}: ${problems.slice(0, 3).join('; ')}`);
          }
        },
      ),
      { numRuns: 1500, seed: 13 },
    );
  });

  it('random bytes read as a model and as a patch', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 64 }),
        fc.constantFrom(0x80, 0x00, 0x01, 0x40, 0x41, 0x81),
        (body, first) => {
          const input = Uint8Array.from([first, ...body]);
          for (const kind of ['model', 'patch'] as const) {
            const problems = shapeProblems(read(kind, input));
            if (problems.length)
              throw new Error(`${kind} ${Buffer.from(input).toString('hex')}: ${problems.slice(0, 3).join('; ')}`);
          }
        },
      ),
      { numRuns: 3000, seed: 13 },
    );
  });
});
