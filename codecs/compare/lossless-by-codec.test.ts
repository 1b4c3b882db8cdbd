/**
 * What each codec keeps of values JSON cannot say (codecs/compare): the lossless / lost /
 * unsupported result per codec on crafted values, as each json-pack / json-joy encoder
 * actually behaves (checked by hand against the decoded output), plus the structural
 * comparison itself (diff.ts).
 */
import { describe, expect, it } from 'vitest';
import { CODECS, codecByName } from './codecs.js';
import { measureCodec, type Row } from './compare.js';
import { lostInRoundTrip } from './diff.js';
import { scanValue } from './features.js';
import { EntriesMap, ExtValue, SimpleValue, TaggedValue } from '../core/values.js';

const values = {
  bigint: { a: 2n ** 70n + 1n },
  bigint64: { a: 2n ** 60n + 1n },
  bytes: { a: Uint8Array.of(1, 2, 3) },
  undefined: { a: undefined },
  negzero: { a: -0 },
  nan: { a: NaN },
  mapkeys: {
    m: new Map<unknown, unknown>([
      [1, 'x'],
      [2, 'y'],
    ]),
  },
  tag: { a: new TaggedValue(100, 'x') },
} as const;
type Case = keyof typeof values;

/** 'ok' = lossless; a list = what is lost; 'unsupported' = represent() refuses. */
type Expect = 'ok' | 'unsupported' | string[];

const crdtCommon: Record<Case, Expect> = {
  bigint: 'unsupported',
  bigint64: 'unsupported',
  bytes: 'ok',
  undefined: ['undefined'], // an obj member whose value is undefined is not in the view
  negzero: ['-0'],
  nan: 'ok',
  mapkeys: 'unsupported',
  tag: 'unsupported',
};

const expected: Record<string, Record<Case, Expect>> = {
  json: {
    bigint: ['bigint'],
    bigint64: ['bigint'],
    bytes: ['bytes'],
    undefined: ['undefined'],
    negzero: ['-0'],
    nan: ['NaN'],
    mapkeys: ['non-string keys'],
    tag: ['tags'],
  },
  // CborEncoder: bignums via tags 2/3 (our conversion), 64-bit bigints as such, -0 as integer 0.
  cbor: {
    bigint: 'ok',
    bigint64: 'ok',
    bytes: 'ok',
    undefined: 'ok',
    negzero: ['-0'],
    nan: 'ok',
    mapkeys: ['non-string keys'],
    tag: 'ok',
  },
  // CborEncoderFast writes JSON values only: everything else comes out mangled.
  'cbor-fast': {
    bigint: ['bigint'],
    bigint64: ['bigint'],
    bytes: ['bytes'],
    undefined: ['undefined'],
    negzero: ['-0'],
    nan: 'ok',
    mapkeys: ['non-string keys'],
    tag: ['tags', 'strings'],
  },
  // CborEncoderStable writes undefined as null.
  'cbor-stable': {
    bigint: 'ok',
    bigint64: 'ok',
    bytes: 'ok',
    undefined: ['undefined'],
    negzero: ['-0'],
    nan: 'ok',
    mapkeys: ['non-string keys'],
    tag: 'ok',
  },
  // DAG-CBOR: no undefined, NaN, tags other than 42; CborDecoderDag drops the bignum tag.
  'cbor-dag': {
    bigint: ['bigint'],
    bigint64: 'ok',
    bytes: 'ok',
    undefined: ['undefined'],
    negzero: ['-0'],
    nan: ['NaN'],
    mapkeys: ['non-string keys'],
    tag: ['tags'],
  },
  msgpack: {
    bigint: ['bigint'],
    bigint64: ['bigint'],
    bytes: 'ok',
    undefined: 'ok',
    negzero: ['-0'],
    nan: 'ok',
    mapkeys: ['non-string keys'],
    tag: ['tags'],
  },
  ubjson: {
    bigint: ['bigint'],
    bigint64: 'ok',
    bytes: 'ok',
    undefined: 'ok',
    negzero: ['-0'],
    nan: 'ok',
    mapkeys: ['non-string keys'],
    tag: ['tags'],
  },
  ion: {
    bigint: 'unsupported',
    bigint64: 'unsupported',
    bytes: 'ok',
    undefined: 'unsupported',
    negzero: ['-0'],
    nan: 'ok',
    mapkeys: ['non-string keys'],
    tag: ['tags'],
  },
  // json-pack's BsonEncoder silently skips bigint members.
  bson: {
    bigint: ['bigint'],
    bigint64: ['bigint'],
    bytes: 'ok',
    undefined: 'ok',
    negzero: ['-0'],
    nan: 'ok',
    mapkeys: ['non-string keys'],
    tag: ['tags'],
  },
  'json-joy-binary': crdtCommon,
  'json-joy-binary-server': crdtCommon,
  'json-joy-compact': { ...crdtCommon, nan: 'unsupported' },
  'json-joy-compact-binary': crdtCommon,
  'json-joy-verbose': { ...crdtCommon, nan: 'unsupported' },
  'json-joy-indexed': crdtCommon,
  'json-joy-sidecar': crdtCommon,
};

function outcome(row: Row): Expect {
  if (row.unsupported !== null) return 'unsupported';
  return row.lossless ? 'ok' : [...row.lost];
}

describe('lossless flags per codec', () => {
  it('covers every registered codec', () => {
    expect(Object.keys(expected).sort()).toEqual(CODECS.map((c) => c.name).sort());
  });
  for (const codec of CODECS) {
    it(codec.name, () => {
      const got: Record<string, Expect> = {};
      for (const [name, value] of Object.entries(values))
        got[name] = outcome(measureCodec(codec, value, { runs: 1, warmup: 0, compress: false })!);
      expect(got).toEqual(expected[codec.name]);
    });
  }
});

describe('refusals', () => {
  it('BSON refuses arrays and scalars at the top, and Infinity', () => {
    const bson = codecByName('bson')!;
    expect(bson.represent([1, 2])).toMatch(/document/);
    expect(bson.represent(5)).toMatch(/document/);
    expect(bson.represent({ a: Infinity })).toMatch(/Infinity/);
    expect(bson.represent({ a: 1 })).toBeNull();
  });
  it('every codec refuses duplicate keys and too deep values', () => {
    const dup = new EntriesMap([
      ['a', 1],
      ['a', 2],
    ]);
    let deep: unknown = 1;
    for (let i = 0; i < 3000; i++) deep = [deep];
    for (const c of CODECS) {
      expect(c.represent(dup)).toMatch(/duplicate/);
      expect(c.represent(deep)).toMatch(/nested/);
    }
  });
  it('JSON says what bytes would cost as base64', () => {
    const json = codecByName('json')!;
    const row = measureCodec(json, { a: new Uint8Array(10), b: new Uint8Array(3) }, { runs: 1, warmup: 0 })!;
    expect(row.unsupported).toBeNull();
    expect(row.notes.join('\n')).toMatch(/as base64 it would be 20 bytes/);
    if (row.unsupported === null) expect(row.lost).toEqual(['bytes']);
  });
  it('MessagePack keeps extensions; CBOR keeps simple values', () => {
    const ext = { e: new ExtValue(5, Uint8Array.of(1, 2)) };
    expect(outcome(measureCodec(codecByName('msgpack')!, ext, { runs: 1, warmup: 0 })!)).toBe('ok');
    expect(outcome(measureCodec(codecByName('cbor')!, ext, { runs: 1, warmup: 0 })!)).toEqual(['ext']);
    const simple = { s: new SimpleValue(16) };
    expect(outcome(measureCodec(codecByName('cbor')!, simple, { runs: 1, warmup: 0 })!)).toBe('ok');
    expect(outcome(measureCodec(codecByName('msgpack')!, simple, { runs: 1, warmup: 0 })!)).toEqual(['simple']);
  });
});

describe('structural comparison', () => {
  it('ignores key order and int/bigint representation', () => {
    expect(lostInRoundTrip({ a: 1, b: [1, 'x'] }, { b: [1, 'x'], a: 1 })).toEqual([]);
    expect(lostInRoundTrip(5, 5n)).toEqual([]);
  });
  it('names each kind of loss', () => {
    expect(lostInRoundTrip({ a: 1 }, { a: 1, b: 2 })).toEqual(['keys']);
    expect(lostInRoundTrip([1, 2], [1])).toEqual(['structure']);
    expect(lostInRoundTrip('x', 'y')).toEqual(['strings']);
    expect(lostInRoundTrip(1.5, 1.25)).toEqual(['numbers']);
    expect(lostInRoundTrip(2n ** 60n, 2 ** 60)).toEqual(['bigint']);
    expect(lostInRoundTrip({ a: undefined, b: NaN, c: -0, d: Uint8Array.of(1) }, { b: null, c: 0, d: 'AQ==' })).toEqual(
      ['bytes', 'undefined', '-0', 'NaN'],
    );
  });
  it('scans features once', () => {
    const f = scanValue({
      a: [1n, Uint8Array.of(1, 2, 3, 4), undefined, -0, NaN, Infinity, new Map([[1, 2]]), new TaggedValue(1, 0)],
    });
    expect([
      f.bigints,
      f.bytes,
      f.byteLength,
      f.base64Length,
      f.undefineds,
      f.negativeZeros,
      f.nans,
      f.infinities,
      f.nonStringKeyMaps,
      f.tags,
    ]).toEqual([1, 1, 4, 8, 1, 1, 1, 1, 1, 1]);
  });
});
