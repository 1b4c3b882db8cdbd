import * as Automerge from '@automerge/automerge';
import { describe, expect, it } from 'vitest';
import { seedPayloads } from '../crdt/corpus.js';
import { automergeDocOfJson } from './automerge-doc-of-json.js';
import { rootRecordOf } from './crdt-root-record.js';

/** The view with every bigint (an integer beyond 2^53) as a number; throws unless that number is exact. */
function withExactNumbers(view: unknown): unknown {
  if (typeof view === 'bigint') {
    if (BigInt(Number(view)) !== view) throw new Error(`${view} is not exactly a double`);
    return Number(view);
  }
  if (Array.isArray(view)) return view.map(withExactNumbers);
  if (view !== null && typeof view === 'object')
    return Object.fromEntries(Object.entries(view).map(([k, v]) => [k, withExactNumbers(v)]));
  return view;
}

describe('automergeDocOfJson', () => {
  for (const { name, data } of seedPayloads()) {
    it(`holds the seed payload "${name}" and its save() carries it`, () => {
      const doc = automergeDocOfJson(data);
      expect(withExactNumbers(Automerge.toJS(doc))).toStrictEqual(rootRecordOf(data));
      expect(withExactNumbers(Automerge.toJS(Automerge.load(Automerge.save(doc))))).toStrictEqual(rootRecordOf(data));
    });
  }

  it('puts an object payload’s members at the root and an array under "value"', () => {
    expect(Automerge.toJS(automergeDocOfJson({ a: [1, { b: 'x' }], c: null }))).toStrictEqual({
      a: [1, { b: 'x' }],
      c: null,
    });
    expect(Automerge.toJS(automergeDocOfJson([{ a: 1 }, [2.5, 'y'], true]))).toStrictEqual({
      value: [{ a: 1 }, [2.5, 'y'], true],
    });
  });

  it('stores an integer beyond 2^53 as the exact value of its double', () => {
    const big = 968129121061490700;
    const saved = Automerge.save(automergeDocOfJson({ id: big }));
    expect(Automerge.toJS(Automerge.load(saved))).toStrictEqual({ id: 968129121061490688n });
    expect(Number(968129121061490688n)).toBe(big);
  });

  it('saves the same number of bytes whatever the random actor id', () => {
    const data = [{ name: 'alpha', n: [1, 2.5, null, true] }];
    expect(Automerge.save(automergeDocOfJson(data)).length).toBe(Automerge.save(automergeDocOfJson(data)).length);
  });
});
