import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import type { SpanIndex } from './span-index.js';
import { Flag } from './kinds.js';
import { keyHash } from './duplicates.js';
import { indexCbor } from '../cbor/index.js';
import { indexMsgpack } from '../msgpack/index.js';
import { indexJson } from '../json/index.js';

/**
 * Duplicate map keys across the three formats. CBOR and MessagePack keys are equal when
 * their encoded bytes are; JSON keys when their decoded values are (`"a"` and `"\u0061"`
 * are the same key to every JSON parser). Maps of every size, with no string built per key
 * and no Map made per object.
 */

const utf8 = new TextEncoder();

/** Where each key of an encoded map starts, and the bytes. */
interface EncodedMap {
  bytes: Uint8Array;
  keyAt: number[];
}

function cborMap(keys: string[]): EncodedMap {
  const out: number[] = keys.length < 24 ? [0xa0 + keys.length] : [0xb8, keys.length];
  const keyAt: number[] = [];
  for (const key of keys) {
    const b = utf8.encode(key);
    keyAt.push(out.length);
    out.push(...(b.length < 24 ? [0x60 + b.length] : [0x78, b.length]), ...b, 0x00);
  }
  return { bytes: Uint8Array.from(out), keyAt };
}

function msgpackMap(keys: string[]): EncodedMap {
  const out: number[] = keys.length < 16 ? [0x80 + keys.length] : [0xde, keys.length >> 8, keys.length & 255];
  const keyAt: number[] = [];
  for (const key of keys) {
    const b = utf8.encode(key);
    keyAt.push(out.length);
    out.push(...(b.length < 32 ? [0xa0 + b.length] : [0xd9, b.length]), ...b, 0x00);
  }
  return { bytes: Uint8Array.from(out), keyAt };
}

/** JSON object text with each key written as given (already escaped), and its key offsets. */
function jsonMap(rawKeys: string[]): EncodedMap {
  let text = '{';
  const keyAt: number[] = [];
  rawKeys.forEach((raw, i) => {
    if (i) text += ', ';
    keyAt.push(utf8.encode(text).length);
    text += `"${raw}": ${i}`;
  });
  return { bytes: utf8.encode(text + '}'), keyAt };
}

/** [offset of the repeat, offset of the first] for each key equal to an earlier one. */
function expected(keys: string[], keyAt: number[]): [number, number][] {
  const out: [number, number][] = [];
  keys.forEach((key, i) => {
    const first = keys.indexOf(key);
    if (first < i) out.push([keyAt[i], keyAt[first]]);
  });
  return out;
}

function reported(index: SpanIndex): [number, number][] {
  return index.warnings
    .filter((w) => w.code === 'duplicate-key')
    .map((w) => {
      const first = /first at byte (\d+)/.exec(w.message);
      return [w.offset, first ? Number(first[1]) : -1];
    });
}

/**
 * `key` as the text of a JSON string, each code point escaped or not by `escape()`: as
 * `\uXXXX` (both halves of a surrogate pair; hex digits in either case), or `\/` for a solidus.
 */
function jsonKeyText(key: string, escape: () => boolean): string {
  let out = '';
  let upper = false;
  for (const c of key) {
    const code = c.codePointAt(0)!;
    if (!(c === '"' || c === '\\' || code < 0x20 || escape())) {
      out += c;
      continue;
    }
    if (c === '/' && escape()) {
      out += '\\/';
      continue;
    }
    upper = !upper;
    for (let i = 0; i < c.length; i++) {
      const h = c.charCodeAt(i).toString(16).padStart(4, '0');
      out += '\\u' + (upper ? h.toUpperCase() : h);
    }
  }
  return out;
}

describe('JSON keys are compared by their decoded value', () => {
  /** [what, keys as written in the JSON text, the same keys decoded]. */
  const cases: [string, string[], string[]][] = [
    ['a letter and its \\u escape', ['a', '\\u0061'], ['a', 'a']],
    ['a raw UTF-8 letter and its escape', ['é', '\\u00e9'], ['é', 'é']],
    ['an emoji and its surrogate-pair escape', ['😀', '\\ud83d\\ude00'], ['😀', '😀']],
    ['a solidus and its short escape', ['/', '\\/'], ['/', '/']],
    ['a quote escaped two ways', ['a\\"', 'a\\u0022'], ['a"', 'a"']],
    ['lower- and upper-case hex digits', ['\\ud800', '\\uD800'], ['\ud800', '\ud800']],
    ['a lone high surrogate is not the pair it starts', ['\\ud800\\udc00', '\\ud800'], ['\u{10000}', '\ud800']],
    ['different keys of the same raw length', ['ab', '\\u0061', 'a\\u0062c', 'abc'], ['ab', 'a', 'abc', 'abc']],
    ['a short escape is not its letter', ['\\n', 'n', '\\t', 't'], ['\n', 'n', '\t', 't']],
  ];
  for (const [name, raw, decoded] of cases) {
    it(name, () => {
      const { bytes, keyAt } = jsonMap(raw);
      const index = indexJson(bytes);
      expect(index.error).toBeNull();
      const want = expected(decoded, keyAt);
      expect(reported(index)).toEqual(want);
      for (const [at] of want) {
        const node = index.nodeAt(at);
        expect(index.store.flags[node] & Flag.duplicateKey).toBe(Flag.duplicateKey);
      }
    });
  }

  it('in a large map too (40 keys, the last one an escaped repeat of the first)', () => {
    const keys = Array.from({ length: 39 }, (_, i) => `key${i}`);
    keys.push('\\u006bey0');
    const { bytes, keyAt } = jsonMap(keys);
    expect(reported(indexJson(bytes))).toEqual([[keyAt[39], keyAt[0]]]);
  });
});

describe('duplicate keys in maps of every size, in every format', () => {
  /** Keys that repeat, share lengths, share prefixes, are long, are not ASCII. */
  const POOL = [
    'a',
    'b',
    'id',
    'ID',
    'name',
    'nam',
    'names',
    'é',
    'e\u0301',
    '数据',
    '😀',
    '',
    'x'.repeat(40),
    'x'.repeat(39) + 'y',
    'k' + 'v'.repeat(30),
    '"q"',
    'a/b',
    'tab\t',
  ];
  const keysArb = fc.array(fc.oneof(fc.constantFrom(...POOL), fc.string({ maxLength: 6 })), {
    maxLength: 80,
    size: 'max',
  });

  it('CBOR and MessagePack: every key equal byte for byte to an earlier one, with the first', () => {
    fc.assert(
      fc.property(keysArb, (keys) => {
        for (const [encode, index] of [
          [cborMap, indexCbor],
          [msgpackMap, indexMsgpack],
        ] as const) {
          const { bytes, keyAt } = encode(keys);
          const ix = index(bytes);
          expect(ix.error).toBeNull();
          expect(reported(ix)).toEqual(expected(keys, keyAt));
          // A shallow index reports the same once the map is expanded.
          const shallow = index(bytes, { depth: 0 });
          shallow.expandAll(0);
          expect(reported(shallow)).toEqual(expected(keys, keyAt));
        }
      }),
      { numRuns: 300, seed: 13 },
    );
  });

  it('JSON: every key equal by value to an earlier one, however either is escaped', () => {
    fc.assert(
      fc.property(keysArb, fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }), (keys, coin) => {
        let n = 0;
        const raw = keys.map((k) => jsonKeyText(k, () => coin[n++ & 63]));
        // JSON.parse agrees with the escaping.
        expect(raw.map((r) => JSON.parse(`"${r}"`))).toEqual(keys);
        const { bytes, keyAt } = jsonMap(raw);
        const ix = indexJson(bytes);
        expect(ix.error).toBeNull();
        expect(reported(ix)).toEqual(expected(keys, keyAt));
      }),
      { numRuns: 300, seed: 13 },
    );
  });

  it('keys whose hashes collide are told apart by their bytes', () => {
    // Two different keys with the same 32-bit hash, found by a birthday search over `k${i.toString(36)}`.
    const [a, b] = ['k3pvu', 'ke3ea'];
    expect(keyHash(utf8.encode(a), 0, a.length)).toBe(keyHash(utf8.encode(b), 0, b.length));
    const filler = Array.from({ length: 30 }, (_, i) => `f${i}`);
    for (const keys of [
      [a, b],
      [...filler, a, b],
      [...filler, a, b, a],
    ]) {
      const json = jsonMap(keys);
      expect(reported(indexJson(json.bytes))).toEqual(expected(keys, json.keyAt));
    }
  });
});

describe('the duplicate-key check allocates nothing per key or per map', () => {
  const RealMap = globalThis.Map;
  afterEach(() => {
    globalThis.Map = RealMap;
    vi.restoreAllMocks();
  });

  it('no Map and no String.fromCharCode while indexing maps of 3 to 60 keys with duplicates', () => {
    for (const size of [3, 17, 40, 60]) {
      const keys = Array.from({ length: size }, (_, i) => `field_${i % (size - 1)}`);
      const frames: [string, () => SpanIndex][] = [
        ['cbor', () => indexCbor(cborMap(keys).bytes)],
        ['msgpack', () => indexMsgpack(msgpackMap(keys).bytes)],
        ['json', () => indexJson(jsonMap(keys.map((k, i) => (i === size - 1 ? '\\u0066' + k.slice(1) : k))).bytes)],
      ];
      for (const [format, build] of frames) {
        let maps = 0;
        globalThis.Map = class CountingMap<K, V> extends RealMap<K, V> {
          constructor(entries?: Iterable<readonly [K, V]> | null) {
            super(entries);
            maps++;
          }
        } as MapConstructor;
        const fromCharCode = vi.spyOn(String, 'fromCharCode');
        let index: SpanIndex;
        try {
          index = build();
        } finally {
          globalThis.Map = RealMap;
        }
        expect(
          index.warnings.filter((w) => w.code === 'duplicate-key'),
          `${format} ${size}`,
        ).toHaveLength(1);
        expect(maps, `${format} ${size}: Maps made`).toBe(0);
        expect(fromCharCode, `${format} ${size}`).not.toHaveBeenCalled();
        fromCharCode.mockRestore();
      }
    }
  });
});
