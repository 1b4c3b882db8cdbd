import { describe, expect, it } from 'vitest';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { JsonPackExtension } from '@jsonjoy.com/json-pack/lib/JsonPackExtension.js';
import { decodeFrame } from '../../../codecs/index.js';
import { compileQuery, indexMatches, type ContentQuery } from './content-search.js';

/** A self-described CBOR ledger entry: the root is tag 55799, currencies are keyed by ISO 4217 numbers. */
function ledgerEntry(memo: string | undefined) {
  const entry = {
    type: 'ledger.entry',
    byCurrency: new Map<unknown, unknown>([
      [978, -120],
      [840, 75],
    ]),
    statement: new JsonPackExtension(32, 'https://example.com/s.pdf'),
    ...(memo === undefined ? {} : { memo }),
  };
  const bytes = new CborEncoder().encode(new JsonPackExtension(55799, entry));
  const { index } = decodeFrame(bytes, { isText: false });
  return index!;
}

const matches = (path: string, text: string, withMemo = true) =>
  indexMatches(ledgerEntry(withMemo ? 'quarterly settlement' : undefined), compileQuery(text, path) as ContentQuery);

describe('path filter', () => {
  it('looks through a tag at the root: memo, $.memo and byCurrency find a self-described CBOR entry', () => {
    expect(matches('memo', '')).toBe(true);
    expect(matches('$.memo', 'quarterly')).toBe(true);
    expect(matches('/memo', '')).toBe(true);
    expect(matches('byCurrency', '')).toBe(true);
    expect(matches('memo', '', false)).toBe(false);
    expect(matches('$.nothing', '')).toBe(false);
  });

  it('names an integer map key by its digits: byCurrency.978, byCurrency[840], /byCurrency/978', () => {
    expect(matches('byCurrency.978', '-120')).toBe(true);
    expect(matches('byCurrency[840]', '75')).toBe(true);
    expect(matches('/byCurrency/978', '')).toBe(true);
    expect(matches('byCurrency.124', '')).toBe(false);
  });

  it('looks through a tag along the path and at its end: statement holds its URI', () => {
    expect(matches('statement', 'example.com')).toBe(true);
    expect(matches('*', 'ledger.entry')).toBe(true);
  });
});
