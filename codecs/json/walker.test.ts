import { describe, expect, it } from 'vitest';
import { indexJson, jsonLeafValue } from './index.js';
import { Flag, Kind, kindName } from '../core/kinds.js';
import { EntriesMap } from '../core/values.js';
import type { SpanIndex } from '../core/span-index.js';

const enc = new TextEncoder();
const utf8 = (s: string): Uint8Array => enc.encode(s);
/** Text with \xHH escapes for raw bytes (only for bytes that are not valid UTF-8 on their own). */
const raw = (s: string): Uint8Array => {
  const parts: number[] = [];
  for (let i = 0; i < s.length; ) {
    if (s[i] === '\\' && s[i + 1] === 'x') {
      parts.push(parseInt(s.slice(i + 2, i + 4), 16));
      i += 4;
    } else {
      const cp = s.codePointAt(i)!;
      parts.push(...enc.encode(String.fromCodePoint(cp)));
      i += cp > 0xffff ? 2 : 1;
    }
  }
  return Uint8Array.from(parts);
};
const ix = (s: string, depth?: number): SpanIndex => indexJson(utf8(s), depth === undefined ? {} : { depth });
const err = (b: Uint8Array | string): [string, number] | null => {
  const e = indexJson(typeof b === 'string' ? utf8(b) : b).error;
  return e ? [e.code, e.offset] : null;
};
const latin1 = (b: Uint8Array, s: number, e: number): string => Buffer.from(b.subarray(s, e)).toString('latin1');

interface NodeRow {
  kind: string;
  text: string;
  head: number;
  arg: number;
  key: boolean;
}
function rows(index: SpanIndex): NodeRow[] {
  const { store, bytes } = index;
  const out: NodeRow[] = [];
  for (let id = 0; id < store.size; id++) {
    out.push({
      kind: kindName(store.kind[id]),
      text: Buffer.from(bytes.subarray(store.start[id], store.end[id])).toString('utf8'),
      head: store.head[id],
      arg: store.arg[id],
      key: (store.flags[id] & Flag.key) !== 0,
    });
  }
  return out;
}

describe('json walker: tokens and spans', () => {
  it('indexes every token type with exact spans, heads and args', () => {
    const text = ' \t\r\n{ "ab" :\t[ 1 , -2.5e+3 , true,false ,null, "x\\"y" ] ,\n "c":{ } , "d" : [] }  \n';
    const index = ix(text);
    expect(index.error).toBeNull();
    expect(rows(index)).toEqual([
      { kind: 'map', text: text.trim(), head: 1, arg: 3, key: false },
      { kind: 'text', text: '"ab"', head: 1, arg: 2, key: true },
      { kind: 'array', text: '[ 1 , -2.5e+3 , true,false ,null, "x\\"y" ]', head: 1, arg: 6, key: false },
      { kind: 'number', text: '1', head: 0, arg: 0, key: false },
      { kind: 'number', text: '-2.5e+3', head: 0, arg: 0, key: false },
      { kind: 'true', text: 'true', head: 0, arg: 0, key: false },
      { kind: 'false', text: 'false', head: 0, arg: 0, key: false },
      { kind: 'null', text: 'null', head: 0, arg: 0, key: false },
      { kind: 'text', text: '"x\\"y"', head: 1, arg: 4, key: false },
      { kind: 'text', text: '"c"', head: 1, arg: 1, key: true },
      { kind: 'map', text: '{ }', head: 1, arg: 0, key: false },
      { kind: 'text', text: '"d"', head: 1, arg: 1, key: true },
      { kind: 'array', text: '[]', head: 1, arg: 0, key: false },
    ]);
    expect(index.store.start[0]).toBe(4);
    expect(index.value(0)).toEqual({ ab: [1, -2500, true, false, null, 'x"y'], c: {}, d: [] });
    expect(index.warnings).toEqual([]);
    // Every recorded container is expanded and complete.
    for (let id = 0; id < index.store.size; id++) expect(index.isIncomplete(id)).toBe(false);
    expect(index.isExpanded(0) && index.isExpanded(2) && index.isExpanded(10)).toBe(true);
  });

  it('indexes scalar roots with surrounding whitespace', () => {
    for (const [text, kind, value] of [
      ['  0 ', 'number', 0],
      ['\n-0\n', 'number', -0],
      [' 1E2', 'number', 100],
      ['true', 'true', true],
      ['false ', 'false', false],
      ['\tnull', 'null', null],
      [' "" ', 'text', ''],
    ] as const) {
      const index = ix(text);
      expect(index.error).toBeNull();
      expect(index.store.size).toBe(1);
      expect(index.kind(0)).toBe(kind);
      expect(latin1(index.bytes, index.store.start[0], index.store.end[0])).toBe(text.trim());
      expect(Object.is(index.value(0), value)).toBe(true);
    }
  });

  it('counts string arg in bytes between the quotes (escapes and UTF-8 included)', () => {
    const index = ix('["é", "\\n", "😀", ""]');
    expect([1, 2, 3, 4].map((id) => index.store.arg[id])).toEqual([2, 2, 4, 0]);
    expect(index.value(0)).toEqual(['é', '\n', '😀', '']);
  });

  it('skips a leading UTF-8 BOM', () => {
    const index = indexJson(raw('\\xef\\xbb\\xbf [1]'));
    expect(index.error).toBeNull();
    expect(index.store.start[0]).toBe(4);
    expect(index.value(0)).toEqual([1]);
    expect(err(raw('\\xef\\xbb\\xbf'))).toEqual(['empty-input', 0]);
    expect(err(raw('\\xef\\xbb'))).toEqual(['truncated', 2]);
    expect(err(raw('\\xef'))).toEqual(['truncated', 1]);
    expect(err(raw('\\xef\\xbb['))).toEqual(['invalid-token', 0]);
    // Only at the very start: elsewhere U+FEFF is not whitespace.
    expect(err(raw('[\\xef\\xbb\\xbf1]'))).toEqual(['invalid-token', 1]);
  });

  it('keys are text nodes with Flag.key alternating with values; keyOf and children', () => {
    const index = ix('{"a": 1, "b": [2]}');
    expect(index.children(0)).toEqual([2, 4]);
    expect(index.keyOf(2)).toBe(1);
    expect(index.keyOf(4)).toBe(3);
    expect(index.store.flags[1] & Flag.key).toBe(Flag.key);
    expect(jsonLeafValue(index, 1)).toBe('a');
  });
});

describe('json walker: values', () => {
  it('decodes escapes like JSON.parse, including surrogate pairs and lone surrogates', () => {
    const text = '"\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\\u00e9\\u00E9\\uD83D\\uDE00\\uD800x\\uDC00 é😀 \\u0000"';
    const index = ix(text);
    expect(index.error).toBeNull();
    const v = index.value(0) as string;
    expect(v).toBe(JSON.parse(text));
    expect(v.includes('\ud800x\udc00')).toBe(true);
    expect(v.includes('😀')).toBe(true);
  });

  it('keeps U+FEFF inside strings (raw, at the start of a string or after an escape)', () => {
    for (const text of [
      '"\ufeff"',
      '"\ufeff\ufeff"',
      '"a\\n\ufeff\ufeff\ufeffb"',
      '"\ufeffabcdefghijklmnopqrstuvwxyz"',
      '"\\n\ufeffa"',
      '["\ufeff", "x\ufeff"]',
    ]) {
      expect(ix(text).value(0)).toEqual(JSON.parse(text));
    }
  });

  it('materializes big integers exactly as bigint and other numbers as JSON.parse does', () => {
    const text =
      '[9007199254740991, 9007199254740992, -9007199254740991, -9007199254740993, 123456789012345678901234567890, 1e30, 12345678901234567890.0, 12345678901234567890e0, -0, -0.0, -0e5, 0.1, 1E-7, 123456789012345, 1234567890123456, 1e400, -1e400, 5e-324]';
    const v = ix(text).value(0) as unknown[];
    expect(v).toEqual([
      9007199254740991,
      9007199254740992n,
      -9007199254740991,
      -9007199254740993n,
      123456789012345678901234567890n,
      1e30,
      // biome-ignore lint/correctness/noPrecisionLoss: the value is past 2^53 on purpose: the walker must keep the text
      12345678901234567890,
      // biome-ignore lint/correctness/noPrecisionLoss: the value is past 2^53 on purpose: the walker must keep the text
      12345678901234567890,
      -0,
      -0,
      -0,
      0.1,
      1e-7,
      123456789012345,
      1234567890123456,
      Infinity,
      -Infinity,
      5e-324,
    ]);
    expect(Object.is(v[8], -0) && Object.is(v[9], -0) && Object.is(v[10], -0)).toBe(true);
  });

  it('__proto__ keys become own properties and Object.prototype stays untouched', () => {
    const index = ix('{"__proto__": {"x": 1}, "a": {"__proto__": null}}');
    const v = index.value(0) as Record<string, unknown>;
    expect(Object.hasOwn(v, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    // biome-ignore lint/suspicious/noProto: the decoded object must hold a plain own key named __proto__
    expect(v.__proto__).toEqual({ x: 1 });
    expect((v as { x?: unknown }).x).toBeUndefined();
    expect(({} as { x?: unknown }).x).toBeUndefined();
    expect(Object.hasOwn(Object.prototype, 'x')).toBe(false);
    expect(v).toEqual(JSON.parse('{"__proto__": {"x": 1}, "a": {"__proto__": null}}'));
  });

  it('reports duplicate keys (byte-equal) and keeps every entry', () => {
    const index = ix('{"a": 1, "b": 2, "a": 3}');
    expect(index.warnings.map((w) => [w.code, w.offset])).toEqual([['duplicate-key', 17]]);
    expect(index.store.flags[5] & Flag.duplicateKey).toBe(Flag.duplicateKey);
    const v = index.value(0);
    expect(v).toBeInstanceOf(EntriesMap);
    expect((v as EntriesMap).entries).toEqual([
      ['a', 1],
      ['b', 2],
      ['a', 3],
    ]);
  });

  it('indexes nested structures', () => {
    const text = '[[[]], {"a": [{"b": {"c": [1, [2, [3]]]}}]}, [{}, [], ""]]';
    const index = ix(text);
    expect(index.error).toBeNull();
    expect(index.value(0)).toEqual(JSON.parse(text));
  });
});

describe('json walker: shallow indexing and nodeAt', () => {
  const text = '{"a": [1, [2, 3]], "b": {"c": 4}, "d": "x"}';

  it('records only the root with depth 0, still validating everything and knowing counts', () => {
    const index = ix(text, 0);
    expect(index.error).toBeNull();
    expect(index.store.size).toBe(1);
    expect(index.store.arg[0]).toBe(3);
    expect(index.store.end[0]).toBe(text.length);
    expect(index.isExpanded(0)).toBe(false);
    expect(ix('[1, [2, tru]]', 0).error?.code).toBe('invalid-token');
  });

  it('records one level with depth 1 and expands a child on demand', () => {
    const index = ix(text, 1);
    expect(index.error).toBeNull();
    expect(rows(index).map((r) => r.text)).toEqual([text, '"a"', '[1, [2, 3]]', '"b"', '{"c": 4}', '"d"', '"x"']);
    expect(index.isExpanded(0)).toBe(true);
    expect(index.isExpanded(2)).toBe(false);
    expect(index.store.arg[2]).toBe(2); // known at the closing bracket even though not recorded
    expect(index.store.arg[4]).toBe(1);

    index.expand(2);
    expect(index.isExpanded(2)).toBe(true);
    // Only that subtree, one level: 1 and [2, 3]; not 2, 3.
    expect(
      rows(index)
        .slice(7)
        .map((r) => r.text),
    ).toEqual(['1', '[2, 3]']);
    expect(index.isExpanded(8)).toBe(false);
    expect(index.isExpanded(4)).toBe(false);
    expect(index.children(2)).toEqual([7, 8]);

    expect(index.value(0)).toEqual(JSON.parse(text));
    expect(index.store.size).toBe(ix(text).store.size);
  });

  it('expands an object child and reports its duplicate keys then', () => {
    const index = ix('[{"k": 1, "k": 2}]', 1);
    expect(index.warnings).toEqual([]);
    index.expand(1);
    expect(index.warnings.map((w) => w.offset)).toEqual([10]);
  });

  it('nodeAt finds the deepest node, expanding lazily', () => {
    for (const depth of [undefined, 0, 1]) {
      const index = ix(' ' + text, depth);
      const at = (needle: string, delta = 0): string => {
        const id = index.nodeAt(text.indexOf(needle) + 1 + delta);
        return id < 0 ? '' : latin1(index.bytes, index.store.start[id], index.store.end[id]);
      };
      expect(index.nodeAt(0)).toBe(-1);
      expect(index.nodeAt(text.length + 1)).toBe(-1);
      expect(at('{"a"')).toBe(text);
      expect(at('"a"', 1)).toBe('"a"');
      expect(at(': [1', 0)).toBe(text); // the colon belongs to the object
      expect(at('3]')).toBe('3');
      expect(at(', 3]')).toBe('[2, 3]'); // the comma belongs to the array
      expect(at('4}')).toBe('4');
      expect(at('"x"', 2)).toBe('"x"');
    }
  });
});

describe('json walker: errors', () => {
  const cases: [string, Uint8Array | string, string, number][] = [
    // invalid-token
    ['missing comma', '[1 2]', 'invalid-token', 3],
    ['missing comma in object', '{"a": 1 "b": 2}', 'invalid-token', 8],
    ['missing colon', '{"a" 1}', 'invalid-token', 5],
    ['trailing comma in array', '[1,]', 'invalid-token', 3],
    ['trailing comma in object', '{"a":1,}', 'invalid-token', 7],
    ['leading comma', '[,1]', 'invalid-token', 1],
    ['double comma', '[1,,2]', 'invalid-token', 3],
    ['single quotes', "['a']", 'invalid-token', 1],
    ['single-quoted key', "{'a': 1}", 'invalid-token', 1],
    ['unquoted key', '{a: 1}', 'invalid-token', 1],
    ['number key', '{1: 2}', 'invalid-token', 1],
    ['block comment', '[1 /* c */]', 'invalid-token', 3],
    ['line comment', '// c\n1', 'invalid-token', 0],
    ['bad literal', '[tru]', 'invalid-token', 4],
    ['bad literal 2', '[nulx]', 'invalid-token', 4],
    ['capitalized literal', 'True', 'invalid-token', 0],
    ['NaN', '[NaN]', 'invalid-token', 1],
    ['mismatched bracket', '[1}', 'invalid-token', 2],
    ['mismatched brace', '{"a":1]', 'invalid-token', 6],
    ['stray close', ']', 'invalid-token', 0],
    ['colon in array', '[1:2]', 'invalid-token', 2],
    ['form feed is not whitespace', '\f1', 'invalid-token', 0],
    ['NBSP is not whitespace', '\u00a01', 'invalid-token', 0],
    ['non-ASCII outside strings', '[é]', 'invalid-token', 1],
    // invalid-escape
    ['bad escape', '"\\x"', 'invalid-escape', 2],
    ['uppercase U escape', '"\\U0041"', 'invalid-escape', 2],
    ['short \\u', '"\\u12"', 'invalid-escape', 5],
    ['non-hex \\u', '"ab\\u12G4"', 'invalid-escape', 7],
    ['escaped quote char', '"\\\'"', 'invalid-escape', 2],
    // invalid-number
    ['leading zero', '01', 'invalid-number', 1],
    ['leading zero negative', '[-01]', 'invalid-number', 3],
    ['leading zeros', '[00]', 'invalid-number', 2],
    ['dot without digits', '[1.]', 'invalid-number', 3],
    ['dot then exponent', '[1.e5]', 'invalid-number', 3],
    ['lone minus', '[-]', 'invalid-number', 2],
    ['minus letter', '-x', 'invalid-number', 1],
    ['leading dot', '[.5]', 'invalid-number', 1],
    ['empty exponent', '[1e]', 'invalid-number', 3],
    ['exponent sign only', '[1e+]', 'invalid-number', 4],
    ['leading plus', '[+1]', 'invalid-number', 1],
    ['root leading plus', '+1', 'invalid-number', 0],
    // invalid-byte
    ['raw control char', '"a\u0001"', 'invalid-byte', 2],
    ['raw NUL', '["\u0000"]', 'invalid-byte', 2],
    ['raw tab in string', '"a\tb"', 'invalid-byte', 2],
    ['raw newline in key', '{"a\n": 1}', 'invalid-byte', 3],
    ['raw U+001F', '"\u001f"', 'invalid-byte', 1],
    // invalid-utf8
    ['0xff', raw('"\\xff"'), 'invalid-utf8', 1],
    ['lone continuation', raw('"ab\\x80"'), 'invalid-utf8', 3],
    ['cut sequence before quote', raw('"ok\\xe2\\x82"'), 'invalid-utf8', 3],
    ['overlong', raw('"\\xc0\\x80"'), 'invalid-utf8', 1],
    ['overlong 3-byte', raw('"\\xe0\\x80\\x80"'), 'invalid-utf8', 1],
    ['encoded surrogate', raw('"\\xed\\xa0\\x80"'), 'invalid-utf8', 1],
    ['above U+10FFFF', raw('"\\xf4\\x90\\x80\\x80"'), 'invalid-utf8', 1],
    ['later in a non-ASCII run', raw('"é\\xff"'), 'invalid-utf8', 3],
    ['in a key', raw('{"\\xc3(": 1}'), 'invalid-utf8', 2],
    ['invalid prefix at the end', raw('"\\xe0\\x80'), 'invalid-utf8', 1],
    ['surrogate prefix at the end', raw('"\\xed\\xa0'), 'invalid-utf8', 1],
    ['overlong 4-byte prefix at the end', raw('"ab\\xf0\\x8f'), 'invalid-utf8', 3],
    ['above U+10FFFF prefix at the end', raw('"\\xf4\\x90\\x80'), 'invalid-utf8', 1],
    ['impossible lead byte at the end', raw('"\\xf5'), 'invalid-utf8', 1],
    ['continuation without lead at the end', raw('"\\x80'), 'invalid-utf8', 1],
    ['valid run, then a bad prefix at the end', raw('"é\\xc3\\xc3'), 'invalid-utf8', 3],
    // truncated
    ['open array', '[', 'truncated', 1],
    ['open object', '{', 'truncated', 1],
    ['after key', '{"a"', 'truncated', 4],
    ['after colon', '{"a": ', 'truncated', 6],
    ['after comma', '[1, ', 'truncated', 4],
    ['after value', '{"a": 1', 'truncated', 7],
    ['open string', '"abc', 'truncated', 4],
    ['open key', '{"ab', 'truncated', 4],
    ['after backslash', '"ab\\', 'truncated', 4],
    ['short \\u at end', '"\\u00', 'truncated', 5],
    ['UTF-8 sequence cut by the end', raw('"\\xf0\\x9f\\x98'), 'truncated', 4],
    ['2-byte lead cut by the end', raw('["é\\xc3'), 'truncated', 5],
    ['3-byte sequence cut by the end', raw('"\\xed\\x9f'), 'truncated', 3],
    ['4-byte lead cut by the end', raw('"\\xf4'), 'truncated', 2],
    ['literal cut', 'tru', 'truncated', 3],
    ['number cut after minus', '-', 'truncated', 1],
    ['number cut after dot', '1.', 'truncated', 2],
    ['number cut in exponent', '1e', 'truncated', 2],
    ['number cut after exponent sign', '[1E-', 'truncated', 4],
    // trailing bytes
    ['two values', '1 2', 'trailing-bytes', 2],
    ['two objects', '{} {}', 'trailing-bytes', 3],
    ['extra bracket', '[]]', 'trailing-bytes', 2],
    ['garbage after string', '"a"x', 'trailing-bytes', 3],
    ['number then letter', '12x', 'trailing-bytes', 2],
    ['literal then letter', 'truex', 'trailing-bytes', 4],
    ['NUL after value', '[] \u0000', 'trailing-bytes', 3],
    // empty input
    ['empty', '', 'empty-input', 0],
    ['whitespace only', ' \n\t\r ', 'empty-input', 0],
  ];
  for (const [name, input, code, offset] of cases) {
    it(`${name}: ${code} at ${offset}`, () => {
      const index = indexJson(typeof input === 'string' ? utf8(input) : input);
      expect(index.error).not.toBeNull();
      expect([index.error!.code, index.error!.offset]).toEqual([code, offset]);
      expect(index.error!.message).toMatch(new RegExp(`at byte ${offset}$`));
      // Agreement with JSON.parse on valid UTF-8.
      if (typeof input === 'string') expect(() => JSON.parse(input)).toThrow();
    });
  }

  it('accepts what is valid: DEL and U+2028 in strings, escaped controls, all whitespace kinds', () => {
    for (const text of [
      '"\u007f"',
      '"\u2028\u2029"',
      '"\\u0000\\u001f"',
      ' \t\n\r[ \t\n\r1 \t\n\r] \t\n\r',
      '{"":""}',
      '[0, -0, 0.0, 0e0, 0E+1, 10.25e-3]',
    ]) {
      const index = ix(text);
      expect(index.error, text).toBeNull();
      expect(index.value(0)).toEqual(JSON.parse(text));
    }
  });

  it('finds every special byte at every position and alignment of a long string', () => {
    const expected = (b: number, at: number): [string, number] | null => {
      if (b < 0x20) return ['invalid-byte', at];
      if (b === 0x22) return ['invalid-token', at + 1]; // the string ends early; 'a' follows
      if (b === 0x5c) return ['invalid-escape', at + 1];
      if (b >= 0x80) return ['invalid-utf8', at];
      return null;
    };
    for (const b of [
      0x00, 0x01, 0x09, 0x0a, 0x1f, 0x20, 0x21, 0x22, 0x23, 0x5b, 0x5c, 0x5d, 0x7f, 0x80, 0xbf, 0xc3, 0xff,
    ]) {
      for (let offset = 0; offset < 4; offset++) {
        for (let i = 0; i < 21; i++) {
          const at = 272 + i; // past the first 256 bytes, before the closing quote: every alignment, several words
          const buffer = new Uint8Array(offset + 300);
          buffer.fill(0x61);
          const bytes = buffer.subarray(offset, offset + 296);
          bytes[0] = 0x5b;
          bytes[1] = 0x22;
          bytes[294] = 0x22;
          bytes[295] = 0x5d;
          bytes[at] = b;
          expect(err(bytes), `byte 0x${b.toString(16)} at ${at}, offset ${offset}`).toEqual(expected(b, at));
        }
      }
    }
  });

  it('marks open nodes incomplete with their end clamped to where the walk stopped', () => {
    const text = '{"a": [1, {"b": "xy';
    const index = ix(text);
    expect([index.error?.code, index.error?.offset]).toEqual(['truncated', text.length]);
    const open = rows(index)
      .map((r, id) => [r.kind, index.isIncomplete(id), index.store.end[id]] as const)
      .filter(([, inc]) => inc);
    expect(open).toEqual([
      ['map', true, text.length],
      ['array', true, text.length],
      ['map', true, text.length],
      ['text', true, text.length],
    ]);
    expect(index.value(0)).toEqual({ a: [1, { b: undefined }] });

    const bad = ix('[1, [2, 3 4], 5]');
    expect([bad.error?.code, bad.error?.offset]).toEqual(['invalid-token', 10]);
    expect(bad.isIncomplete(0) && bad.isIncomplete(2)).toBe(true);
    expect(bad.store.end[2]).toBe(10);
    expect(bad.isIncomplete(3)).toBe(false);

    const leaf = ix('[1, "ab\\q"]');
    expect(leaf.kind(2)).toBe('text');
    expect(leaf.isIncomplete(2)).toBe(true);
    expect([leaf.store.start[2], leaf.store.end[2]]).toEqual([4, 8]);
  });

  it('keeps the first error when an incomplete shallow node is expanded', () => {
    const index = ix('[[1, 2], [3, x]]', 1);
    expect([index.error?.code, index.error?.offset]).toEqual(['invalid-token', 13]);
    expect(index.isIncomplete(2)).toBe(true);
    index.expand(2);
    expect(index.children(2).length).toBe(1);
    expect([index.error?.code, index.error?.offset]).toEqual(['invalid-token', 13]);
    index.expand(1);
    expect(index.value(1)).toEqual([1, 2]);
  });

  it('every proper prefix of a document is truncated (or empty), never ok, never throws', () => {
    const docs = [
      '{"a": [1, -2.5e+3, true, false, null, "x\\u00e9\\n\\"", {}], "b": {"c": "é😀中"}, "": []}',
      // biome-ignore lint/correctness/noPrecisionLoss: the value is past 2^53 on purpose: the walker must keep the text
      JSON.stringify({ k: [1, 2, { z: null, w: 'tab\there' }], n: -0.5e-7, big: 12345678901234567890 }, null, 2),
      '"a string with \\ud83d\\ude00 and 😀 inside"',
      '[[[[[]]]], [[]], 0]',
    ];
    for (const doc of docs) {
      const bytes = utf8(doc);
      expect(indexJson(bytes).error).toBeNull();
      for (let k = 0; k < bytes.length; k++) {
        const cut = bytes.subarray(0, k);
        const index = indexJson(cut);
        const onlyWs = /^\s*$/.test(Buffer.from(cut).toString('latin1'));
        expect([index.error?.code, index.error?.offset], `prefix ${k} of ${doc}`).toEqual(
          onlyWs ? ['empty-input', 0] : ['truncated', k],
        );
        // Whatever decoded is still consistent: values of partial documents do not throw.
        if (index.root >= 0) index.value(0);
      }
    }
  });

  it('survives 100,000 nested arrays, open or closed', () => {
    const n = 100_000;
    const open = indexJson(utf8('['.repeat(n)));
    expect([open.error?.code, open.error?.offset]).toEqual(['truncated', n]);
    expect(open.store.size).toBe(n);
    expect(open.isIncomplete(n - 1)).toBe(true);

    const closed = indexJson(utf8('['.repeat(n) + ']'.repeat(n)));
    expect(closed.error).toBeNull();
    expect(closed.store.size).toBe(n);
    expect(closed.store.end[0]).toBe(2 * n);
    expect(closed.store.start[n - 1]).toBe(n - 1);
    expect(closed.store.end[n - 1]).toBe(n + 1);
    let v = closed.value(0);
    let d = 0;
    while (Array.isArray(v) && v.length) {
      v = v[0];
      d++;
    }
    expect(d).toBe(n - 1);

    // A shallow index of the same frame expands to the bottom without recursion.
    const lazy = indexJson(closed.bytes, { depth: 1 });
    expect(lazy.error).toBeNull();
    expect(lazy.store.size).toBe(2);
    lazy.expandAll(0);
    expect(lazy.store.size).toBe(n);
    expect(lazy.nodeAt(n - 1)).toBe(n - 1);

    const shallow = indexJson(utf8('{"a":'.repeat(n) + '1' + '}'.repeat(n)), { depth: 2 });
    expect(shallow.error).toBeNull();
    // Root, its key and value, the value's key and value: two levels below the root.
    expect(rows(shallow).map((r) => [r.kind, r.key])).toEqual([
      ['map', false],
      ['text', true],
      ['map', false],
      ['text', true],
      ['map', false],
    ]);
    expect(shallow.store.kind[4]).toBe(Kind.map);
    expect(shallow.isExpanded(4)).toBe(false);
    expect(shallow.store.arg[4]).toBe(1);
    expect(shallow.store.end[4]).toBe(shallow.bytes.length - 2);
  });
});
