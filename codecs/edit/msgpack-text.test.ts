import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { indexMsgpack } from '../msgpack/index.js';
import { wellFormedMsgpack } from '../test/helpers/random-msgpack.js';
import { msgpackEditText } from './msgpack-edit-text.js';
import { msgpackFromText } from './msgpack-from-text.js';

const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : 0x6d7067;
const toHex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const fromHex = (h: string) => Uint8Array.from(Buffer.from(h.replace(/\s/g, ''), 'hex'));

function encodeText(text: string): string {
  const r = msgpackFromText(text);
  if (!r.ok) throw new Error(`${r.error.line}:${r.error.column}: ${r.error.message} in ${text}`);
  return toHex(r.bytes);
}

function printed(bytes: Uint8Array): string {
  const index = indexMsgpack(bytes);
  expect(index.error, toHex(bytes)).toBeNull();
  return msgpackEditText(index, index.root);
}

describe('the MessagePack edit text as printed gives back the original bytes', () => {
  it('for random MessagePack of every format and width', () => {
    fc.assert(
      fc.property(wellFormedMsgpack, (bytes) => {
        expect(encodeText(printed(bytes)), printed(bytes)).toBe(toHex(bytes));
      }),
      { seed: SEED, numRuns: 3000, endOnFailure: true },
    );
  });

  it.each([
    ['05', '5'],
    ['cc05', '5_u8'],
    ['d005', '5_i8'],
    ['ccc8', '200'],
    ['d1ff38', '-200'],
    ['e0', '-32'],
    ['d3ffffffffffffffff', '-1_i64'],
    ['cb3ff8000000000000', '1.5'],
    ['ca3fc00000', '1.5_f32'],
    ['cb4000000000000000', '2.0'],
    ['ca7fc00000', 'NaN_f32'],
    ['cb7ff8000000000001', "float'7ff8000000000001'"],
    ['a161', '"a"'],
    ['d90161', '"a"_8'],
    ['a2c328', "str(h'c328')"],
    ['c40101', "h'01'"],
    ['c5000101', "h'01'_16"],
    ['920102', '[1, 2]'],
    ['dc00020102', '[_16 1, 2]'],
    ['df00000001a16101', '{_32 "a": 1}'],
    ['d40501', "ext(5, h'01')"],
    ['c7010501', "ext(5, h'01')_8"],
    ['c0', 'nil'],
    ['d6ff00000001', "ext(-1, h'00000001') / timestamp 1970-01-01T00:00:01.000000000Z /"],
  ])('%s prints as %s', (hex, text) => {
    expect(printed(fromHex(hex))).toBe(text);
    expect(encodeText(text)).toBe(hex);
  });
});

describe('an edited MessagePack text encodes in the narrowest format unless a suffix says otherwise', () => {
  it.each([
    ['{"a": [1, -1, 1.5, true, null], "b": "x"}', '82a16195 01ff cb3ff8000000000000 c3c0 a162a178'],
    ['128', 'cc80'],
    ['-33', 'd0df'],
    ['18446744073709551615', 'cfffffffffffffffff'],
    ["'hi'", 'c4026869'],
    ["b64'AQI='", 'c4020102'],
    ["ext(1, h'010203')", 'c703010102 03'],
    ['timestamp("1970-01-01T00:00:01Z")', 'd6ff00000001'],
    ['timestamp("2025-11-21T22:24:02.123456789Z")', 'd7ff 1d6f34546920e682'], // (123456789 << 34) | 1763763842,
    ['timestamp(-1, 0)', 'c70cff00000000ffffffffffffffff'],
    ['[1, 2,] # trailing comma and a comment', '920102'],
  ])('%s → %s', (text, hex) => {
    expect(encodeText(text)).toBe(hex.replace(/\s/g, ''));
  });
});

describe('any nesting depth', () => {
  it('parses 100,000 nested arrays (no call-stack recursion)', () => {
    const depth = 100_000;
    const r = msgpackFromText('['.repeat(depth) + ']'.repeat(depth));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.bytes.length).toBe(depth);
    expect(r.bytes.subarray(0, depth - 1).every((b) => b === 0x91)).toBe(true);
    expect(r.bytes[depth - 1]).toBe(0x90);
  });
});

describe('a bad MessagePack edit gives an error with line and column and no bytes', () => {
  it.each([
    ['[1, 2', 1, 6, "expected ',' or ']'"],
    ['300_u8', 1, 1, 'does not fit u8'],
    ['1_u7', 1, 2, 'unknown integer suffix'],
    ['1.1_f32', 1, 1, 'does not fit exactly in a float 32'],
    ['[_8 1]', 1, 2, 'array has no 8-bit length'],
    ["ext(200, h'00')", 1, 5, 'ext type'],
    ['{\n  "a" 1\n}', 2, 7, "expected ':'"],
    ['undefined', 1, 1, 'expected a MessagePack value'],
    ['timestamp("yesterday")', 1, 11, 'RFC 3339'],
    ['18446744073709551616', 1, 1, "beyond MessagePack's 64-bit integers"],
  ])('%j', (text, line, column, message) => {
    const r = msgpackFromText(text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.message).toContain(message);
    expect([r.error.line, r.error.column]).toEqual([line, column]);
  });
});

describe('the MessagePack edit text over lines', () => {
  const lines = (bytes: Uint8Array) => {
    const index = indexMsgpack(bytes);
    expect(index.error, toHex(bytes)).toBeNull();
    return msgpackEditText(index, index.root, { lines: true });
  };

  it('one item a line, two spaces a level, as the inspector indents EDN', () => {
    // {"a": [1, {}], "b": {_16 "c": nil}, "d": []}
    const bytes = fromHex('83 a161 92 01 80 a162 de0001 a163 c0 a164 90');
    expect(lines(bytes)).toBe(
      ['{', '  "a": [', '    1,', '    {}', '  ],', '  "b": {_16', '    "c": nil', '  },', '  "d": []', '}'].join('\n'),
    );
    expect(lines(fromHex('05'))).toBe('5');
  });

  it('gives back the original bytes for random MessagePack of every format and width', () => {
    fc.assert(
      fc.property(wellFormedMsgpack, (bytes) => {
        expect(encodeText(lines(bytes)), lines(bytes)).toBe(toHex(bytes));
      }),
      { seed: SEED, numRuns: 3000, endOnFailure: true },
    );
  });
});
