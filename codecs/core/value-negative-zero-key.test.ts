import { describe, expect, it } from 'vitest';
import { indexCbor } from '../cbor/index.js';
import { diagnostic } from './diagnostic.js';
import { EntriesMap } from './values.js';
import { hex } from '../test/helpers/cbor.js';

describe('-0.0 as a map key', () => {
  it('value() keeps the sign of the key (a JS Map would store it as 0)', () => {
    const index = indexCbor(hex('a1 f9 8000 00'));
    expect(diagnostic(index)).toBe('{-0.0: 0}');
    const v = index.value(0);
    expect(v).toBeInstanceOf(EntriesMap);
    const [[key, value]] = (v as EntriesMap).entries;
    expect(Object.is(key, -0)).toBe(true);
    expect(value).toBe(0);
  });

  it('0.0 and -0.0 side by side are two keys, both kept with their signs', () => {
    const v = indexCbor(hex('a2 f9 0000 01 f9 8000 02')).value(0) as EntriesMap;
    expect(v.entries.map(([k]) => Object.is(k, -0))).toEqual([false, true]);
  });

  it('other non-string keys still make a Map', () => {
    expect(indexCbor(hex('a1 01 02')).value(0)).toEqual(new Map([[1, 2]]));
  });
});
