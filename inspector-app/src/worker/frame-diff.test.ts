import { describe, expect, it } from 'vitest';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { JsonPackExtension } from '@jsonjoy.com/json-pack/lib/JsonPackExtension.js';
import { decodeFrame, type SpanIndex } from '../../../codecs/index.js';
import { diffFrames } from './frame-diff.js';

const indexOf = (value: unknown): SpanIndex => decodeFrame(new CborEncoder().encode(value), { format: 'cbor' }).index!;

function ledger(balance: number, uuidByte: number, usd: number): unknown {
  return new JsonPackExtension(55799, {
    type: 'ledger.entry',
    account: new JsonPackExtension(37, new Uint8Array(16).fill(uuidByte)),
    balance: new JsonPackExtension(2, Uint8Array.of(1, 0, 0, 0, 0, 0, 0, 0, balance)),
    byCurrency: new Map<unknown, unknown>([
      [978, 5],
      [840, usd],
    ]),
    rate: 0.5,
  });
}

describe('frame diff', () => {
  it("sizes a field as the tree's bytes column does: a map value with its key", () => {
    // "memo" key: 1 + 4 bytes; "quarterly settlement": 78 14 + 20 bytes (json-pack sizes a string's head for its
    // UTF-8 worst case). "n": 1 + 1 key, 1 and 2 one byte each.
    const rows = diffFrames(indexOf({ n: 1, memo: 'quarterly settlement' }), indexOf({ n: 2 }));
    expect(rows.find((r) => r.path === '$.memo')).toMatchObject({
      change: 'removed',
      sizeBefore: 5 + 22,
      sizeAfter: 0,
    });
    expect(rows.find((r) => r.path === '$.n')).toMatchObject({ change: 'changed', sizeBefore: 3, sizeAfter: 3 });
  });

  it('descends through a self-describe tag and lists each changed leaf, integer keys in brace notation', () => {
    const rows = diffFrames(indexOf(ledger(1, 0xaa, 10)), indexOf(ledger(2, 0xbb, -3)));
    expect(rows.map((r) => [r.path, r.change])).toEqual([
      ['$<tag 55799>.account', 'changed'],
      ['$<tag 55799>.balance', 'changed'],
      ['$<tag 55799>.byCurrency{840}', 'changed'],
    ]);
  });

  it('shows a bignum leaf by its value, not by the container it sits in', () => {
    const rows = diffFrames(indexOf(ledger(1, 0xaa, 10)), indexOf(ledger(2, 0xaa, 10)));
    expect(rows).toHaveLength(1);
    expect(rows[0].path).toBe('$<tag 55799>.balance');
    expect(rows[0].before).not.toBe(rows[0].after);
  });

  it('reports an integer key added or removed by its key', () => {
    const a = indexOf({ byCurrency: new Map([[978, 1]]) });
    const b = indexOf({ byCurrency: new Map([[840, 1]]) });
    expect(diffFrames(a, b).map((r) => [r.path, r.change])).toEqual([
      ['$.byCurrency{978}', 'removed'],
      ['$.byCurrency{840}', 'added'],
    ]);
  });

  it('a tag that differs between the frames is one changed leaf', () => {
    const rows = diffFrames(indexOf(new JsonPackExtension(55799, { a: 1 })), indexOf({ a: 1 }));
    expect(rows.map((r) => [r.path, r.change])).toEqual([['$', 'changed']]);
  });
});
