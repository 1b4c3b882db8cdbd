import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { indexCbor } from '../cbor/index.js';
import { diagnostic } from '../core/diagnostic.js';
import { appendixAVectors } from '../test/helpers/appendix-a.js';
import { wellFormedCbor } from '../test/helpers/random-cbor.js';
import { cborFromEdn } from './cbor-from-edn.js';

const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : 0x65646e;
const toHex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const fromHex = (h: string) => Uint8Array.from(Buffer.from(h.replace(/\s/g, ''), 'hex'));

function encodeEdn(text: string): string {
  const r = cborFromEdn(text);
  if (!r.ok) throw new Error(`${r.error.line}:${r.error.column}: ${r.error.message} in ${text}`);
  return toHex(r.bytes);
}

/** The EDN the Text tab and `inspect --diag` print, read back to bytes. */
function roundTrip(bytes: Uint8Array, indicators: 'auto' | 'always' = 'auto'): string {
  const index = indexCbor(bytes);
  expect(index.error, toHex(bytes)).toBeNull();
  return encodeEdn(diagnostic(index, index.root, { indicators }));
}

describe('EDN as printed gives back the original CBOR bytes', () => {
  it('for every well-formed RFC 8949 Appendix A vector', () => {
    const vectors = appendixAVectors().filter((v) => v.hex !== 'f818'); // simple(24): not well-formed in RFC 8949
    expect(vectors.length).toBe(81);
    for (const v of vectors) {
      expect(roundTrip(fromHex(v.hex)), v.hex).toBe(v.hex);
      expect(roundTrip(fromHex(v.hex), 'always'), v.hex).toBe(v.hex);
    }
  });

  it('for random well-formed CBOR with every head width, indefinite lengths, tags, floats and simple values', () => {
    let checked = 0;
    fc.assert(
      fc.property(wellFormedCbor, (bytes) => {
        const index = indexCbor(bytes);
        if (index.error) return; // only a bad tag content could refuse; counted below
        checked++;
        expect(roundTrip(bytes)).toBe(toHex(bytes));
        expect(roundTrip(bytes, 'always')).toBe(toHex(bytes));
      }),
      { seed: SEED, numRuns: 3000, endOnFailure: true },
    );
    expect(checked).toBeGreaterThan(2900);
  });
});

describe('EDN edits encode with preferred serialization unless an indicator says otherwise', () => {
  it.each([
    ['0', '00'],
    ['23', '17'],
    ['24', '1818'],
    ['-1', '20'],
    ['1_0', '1801'],
    ['1_3', '1b0000000000000001'],
    ['5_i', '05'],
    ['0x10', '10'],
    ['-0x10', '2f'],
    ['0b101', '05'],
    ['18446744073709551615', '1bffffffffffffffff'],
    ['18446744073709551616', 'c249010000000000000000'],
    ['-18446744073709551617', 'c349010000000000000000'],
    ['1.5', 'f93e00'],
    ['1.5_3', 'fb3ff8000000000000'],
    ['100000.0', 'fa47c35000'],
    ['1.1', 'fb3ff199999999999a'],
    ['-0.0', 'f98000'],
    ['0x1.8p3', 'f94a00'],
    ['Infinity', 'f97c00'],
    ['-Infinity_2', 'faff800000'],
    ['NaN', 'f97e00'],
    ['NaN_3', 'fb7ff8000000000000'],
    ["float'7e01'", 'f97e01'],
    ["float'7e01'_2", 'fa7fc02000'],
    ["float'3c00'_3", 'fb3ff0000000000000'],
    ['true', 'f5'],
    ['undefined', 'f7'],
    ['simple(16)', 'f0'],
    ['simple(255)', 'f8ff'],
    ['"a"', '6161'],
    ['"\\u00fc\\u{1F600}"', '66c3bcf09f9880'],
    ['"a"_1', '79000161'],
    ["'hi'", '426869'],
    ["h'01 02 / two bytes / 03'", '43010203'],
    ["b64'AQID'", '43010203'],
    ["b64'-_8'", '42fbff'],
    ["''_", '5fff'],
    ['""_', '7fff'],
    ["(_ h'01', h'0203'_0)", '5f4101580202 03ff'],
    ['(_ "a", "b")', '7f61616162ff'],
    ['<<1, 2>>', '420102'],
    ['[_ ]', '9fff'],
    ['[1, [2, 3],]', '8201820203'],
    ['[_1 1]', '99000101'],
    ['{_ "a": 1}', 'bf616101ff'],
    ['{1: 2, 3: 4}', 'a201020304'],
    ['1(1363896240)', 'c11a514b67b0'],
    ['24_1(<<1>>)', 'd90018 4101'],
    ['# a comment\n[1, / inline / 2]', '820102'],
  ])('%s → %s', (text, hex) => {
    expect(encodeEdn(text)).toBe(hex.replace(/\s/g, ''));
  });
});

describe('a bad EDN edit gives an error with line and column and no bytes', () => {
  it.each([
    ['[1, 2', 1, 6, "expected ',' or ']', found end of input"],
    ['[1 2]', 1, 4, "expected ',' or ']'"],
    ['{1 2}', 1, 4, "expected ':'"],
    ['"abc', 1, 1, "this string is not closed: end it with '\"'"],
    ["h'0g'", 1, 4, 'not a hex digit'],
    ["h'012'", 1, 5, 'odd number of hex digits'],
    ['[\n  1,\n  foo\n]', 3, 3, 'expected a CBOR item'],
    ['256_0', 1, 1, 'does not fit in 1 byte'],
    ['24_i', 1, 1, '_i puts the argument'],
    ['1.1_1', 1, 1, 'does not fit exactly in a 16-bit float'],
    ['simple(24)', 1, 1, 'not well-formed'],
    ['1 2', 1, 3, 'expected end of input'],
    ['', 1, 1, 'found end of input'],
    ['"a"_', 1, 1, 'empty indefinite-length'],
    ['(_ 1)', 1, 4, 'definite-length byte or text string'],
    ['(_ h\'\', "")', 1, 9, 'mix byte strings and text strings'],
    ['(_ )', 1, 1, "write ''_"],
    ['1_7', 1, 2, 'unknown encoding indicator _7'],
    ['"\\ud800"', 1, 1, 'lone surrogate'],
    ['/ open', 1, 1, 'comment not closed'],
    ['-1(2)', 1, 1, 'tag number cannot be negative'],
  ])('%j', (text, line, column, message) => {
    const r = cborFromEdn(text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.message).toContain(message);
    expect([r.error.line, r.error.column]).toEqual([line, column]);
    expect('bytes' in r).toBe(false);
  });

  it('any nesting depth parses (no call-stack recursion)', () => {
    const depth = 100_000;
    const r = cborFromEdn('['.repeat(depth) + ']'.repeat(depth));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.bytes.length).toBe(depth);
    expect(r.bytes.subarray(0, depth - 1).every((b) => b === 0x81)).toBe(true);
    expect(r.bytes[depth - 1]).toBe(0x80);
  });
});
