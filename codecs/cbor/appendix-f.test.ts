import { CborDecoder } from '@jsonjoy.com/json-pack/lib/cbor/CborDecoder';
import { describe, expect, it } from 'vitest';
import { indexCbor } from './index.js';
import { diagnostic } from '../core/diagnostic.js';
import type { DecodeErrorCode } from '../core/errors.js';
import { Flag } from '../core/kinds.js';
import { EntriesMap } from '../core/values.js';
import { hex, nestingProblems } from '../test/helpers/cbor.js';

/**
 * RFC 8949 Appendix F.1, "Examples of CBOR Data Items That Are Not Well-Formed": every
 * example, grouped under the RFC's own headings (94 in all). `code` is the error each must
 * produce; `offset` is where the input stops making sense: the end of the input for a
 * truncation, the start of the string for a declared length the input cannot hold, the
 * offending byte for a syntax error (given per example where it is not the first byte).
 */
interface Group {
  heading: string;
  code: DecodeErrorCode;
  examples: string;
  /** Expected error offset per example: 'end' = input length; default 0. */
  offsets?: Array<number | 'end'> | 'end';
}

const APPENDIX_F: Group[] = [
  // Kind 2, too little data.
  {
    heading: 'End of input in a head',
    code: 'truncated',
    examples:
      '18, 19, 1a, 1b, 19 01, 1a 01 02, 1b 01 02 03 04 05 06 07, 38, 58, 78, 98, 9a 01 ff 00, b8, d8, f8, f9 00, fa 00 00, fb 00 00 00',
    offsets: 'end',
  },
  {
    heading: 'Definite-length strings with short data',
    code: 'length-exceeds-input',
    examples:
      '41, 61, 5a ff ff ff ff 00, 5b ff ff ff ff ff ff ff ff 01 02 03, 7a ff ff ff ff 00, 7b 7f ff ff ff ff ff ff ff 01 02 03',
  },
  {
    heading: 'Definite-length maps and arrays not closed with enough items',
    code: 'truncated',
    examples: '81, 81 81 81 81 81 81 81 81 81, 82 00, a1, a2 01 02, a1 00, a2 00 00 00',
    offsets: 'end',
  },
  { heading: 'Tag number not followed by tag content', code: 'truncated', examples: 'c0', offsets: 'end' },
  {
    heading: 'Indefinite-length strings not closed by a "break" stop code',
    code: 'truncated',
    examples: '5f 41 00, 7f 61 00',
    offsets: 'end',
  },
  {
    heading: 'Indefinite-length maps and arrays not closed by a "break" stop code',
    code: 'truncated',
    examples:
      '9f, 9f 01 02, bf, bf 01 02 01 02, 81 9f, 9f 80 00, 9f 9f 9f 9f 9f ff ff ff ff, 9f 81 9f 81 9f 9f ff ff ff',
    offsets: 'end',
  },
  // Kind 3, syntax errors, subkinds 1 to 5.
  {
    heading: 'Subkind 1: Reserved additional information values',
    code: 'reserved-additional-info',
    examples: '1c, 1d, 1e, 3c, 3d, 3e, 5c, 5d, 5e, 7c, 7d, 7e, 9c, 9d, 9e, bc, bd, be, dc, dd, de, fc, fd, fe',
  },
  {
    heading: 'Subkind 2: Reserved two-byte encodings of simple values',
    code: 'invalid-simple',
    examples: 'f8 00, f8 01, f8 18, f8 1f',
  },
  {
    heading: 'Subkind 3: Indefinite-length string chunks not of the correct type',
    code: 'invalid-indefinite-chunk',
    examples: '5f 00 ff, 5f 21 ff, 5f 61 00 ff, 5f 80 ff, 5f a0 ff, 5f c0 00 ff, 5f e0 ff, 7f 41 00 ff',
    offsets: [1, 1, 1, 1, 1, 1, 1, 1],
  },
  {
    heading: 'Subkind 3: Indefinite-length string chunks not definite length',
    code: 'invalid-indefinite-chunk',
    examples: '5f 5f 41 00 ff ff, 7f 7f 61 00 ff ff',
    offsets: [1, 1],
  },
  {
    heading: 'Subkind 4: Break occurring on its own outside of an indefinite-length item',
    code: 'unexpected-break',
    examples: 'ff',
  },
  {
    heading: 'Subkind 4: Break occurring in a definite-length array or map or a tag',
    code: 'unexpected-break',
    examples: '81 ff, 82 00 ff, a1 ff, a1 ff 00, a1 00 ff, a2 00 00 ff, 9f 81 ff, 9f 82 9f 81 9f 9f ff ff ff ff',
    offsets: [1, 2, 1, 1, 2, 3, 2, 9],
  },
  {
    heading:
      'Subkind 4: Break in an indefinite-length map that would lead to an odd number of items (break in a value position)',
    code: 'unexpected-break',
    examples: 'bf 00 ff, bf 00 00 00 ff',
    offsets: [2, 4],
  },
  {
    heading: 'Subkind 5: Major type 0, 1, 6 with additional information 31',
    code: 'invalid-major-31',
    examples: '1f, 3f, df',
  },
];

const EXPECTED_COUNTS = [18, 6, 7, 1, 2, 8, 24, 4, 8, 2, 1, 8, 2, 3];

function examplesOf(group: Group): string[] {
  return group.examples.split(',').map((s) => s.trim());
}

describe('RFC 8949 Appendix F.1: not well-formed', () => {
  it('holds every example of the RFC (94, per heading as published)', () => {
    expect(APPENDIX_F.map((g) => examplesOf(g).length)).toEqual(EXPECTED_COUNTS);
    expect(EXPECTED_COUNTS.reduce((a, b) => a + b)).toBe(94);
  });

  for (const group of APPENDIX_F) {
    describe(group.heading, () => {
      examplesOf(group).forEach((example, i) => {
        it(`${example} -> ${group.code}`, () => {
          const bytes = hex(example);
          const index = indexCbor(bytes);
          expect(index.error).not.toBeNull();
          const { code, offset } = index.error!;
          expect(Number.isInteger(offset)).toBe(true);
          expect(offset).toBeGreaterThanOrEqual(0);
          expect(offset).toBeLessThanOrEqual(bytes.length);
          expect(code).toBe(group.code);
          const want = group.offsets === 'end' ? 'end' : (group.offsets?.[i] ?? 0);
          expect(offset).toBe(want === 'end' ? bytes.length : want);
          // Nothing throws on a broken frame, and the partial tree stays consistent.
          expect(() => index.value(0)).not.toThrow();
          expect(() => index.expandAll(0)).not.toThrow();
          expect(() => diagnostic(index, 0)).not.toThrow();
          expect(nestingProblems(index)).toEqual([]);
          expect(index.error!.code).toBe(code); // re-walking kept the first error
          // A depth-1 index validates the skipped subtrees and reports the same error.
          expect(indexCbor(bytes, { depth: 1 }).error).toEqual(index.error);
        });
      });
    });
  }
});

describe('malformed and hostile frames', () => {
  it('huge declared lengths fail fast without allocating', () => {
    for (const [input, code, partial] of [
      ['9b 00 00 00 00 ff ff ff ff', 'truncated', []],
      ['5b ff ff ff ff ff ff ff ff', 'length-exceeds-input', undefined],
      ['bb 00 00 00 00 ff ff ff ff', 'truncated', {}],
      ['7a ff ff ff ff', 'length-exceeds-input', undefined],
    ] as const) {
      const bytes = hex(input);
      const t0 = performance.now();
      const index = indexCbor(bytes);
      const value = index.value(0);
      const elapsed = performance.now() - t0;
      expect(index.error?.code).toBe(code);
      expect(elapsed).toBeLessThan(50);
      // Nothing sized by the declared length: the store holds at most one node per input byte.
      expect(index.store.capacity).toBeLessThanOrEqual(Math.max(16, bytes.length + 1));
      expect(index.store.size).toBeLessThanOrEqual(1);
      expect(value).toEqual(partial);
    }
  });

  it('82 01 is truncated (json-pack 17.67 reads past the end and decodes it as [1, 0])', () => {
    const bytes = hex('82 01');
    const index = indexCbor(bytes);
    expect(index.error).toMatchObject({ code: 'truncated', offset: 2 });
    expect(index.value(0)).toEqual([1]);
    // The reference decoder is lenient here: why the property tests only compare with it
    // when our index reports the frame well-formed.
    expect(new CborDecoder().decode(bytes)).toEqual([1, 0]);
  });

  it('100,000 nested arrays around 0 index, materialize and print without overflowing the stack', () => {
    const n = 100_000;
    const bytes = new Uint8Array(n + 1).fill(0x81);
    bytes[n] = 0x00;
    const index = indexCbor(bytes);
    expect(index.error).toBeNull();
    expect(index.store.size).toBe(n + 1);
    let v = index.value(0);
    let depth = 0;
    while (Array.isArray(v) && v.length === 1) {
      v = v[0];
      depth++;
    }
    expect(depth).toBe(n);
    expect(v).toBe(0);
    expect(diagnostic(index, 0)).toBe('['.repeat(n) + '0' + ']'.repeat(n));
    const shallow = indexCbor(bytes, { depth: 1 });
    expect(shallow.error).toBeNull();
    expect(shallow.store.size).toBe(2);
  });

  // Regression: SpanIndex.expand(id, Infinity) used to recurse into every child after its
  // walk, one JS frame per nesting level, so a shallow index of a deep frame overflowed the
  // call stack in expandAll / value / diagnostic.
  it('a depth-1 index of 100,000 nested arrays expands fully without overflowing the stack', () => {
    const n = 100_000;
    const bytes = new Uint8Array(n + 1).fill(0x81);
    bytes[n] = 0x00;
    const shallow = indexCbor(bytes, { depth: 1 });
    shallow.expandAll(0);
    expect(shallow.store.size).toBe(n + 1);
    expect(diagnostic(shallow, 0)).toBe('['.repeat(n) + '0' + ']'.repeat(n));
    const deep = indexCbor(bytes, { depth: 1 });
    let v = deep.value(0);
    let depth = 0;
    while (Array.isArray(v) && v.length === 1) {
      v = v[0];
      depth++;
    }
    expect([depth, v]).toEqual([n, 0]);
  });

  it('100,000 nested arrays without content are truncated', () => {
    const n = 100_000;
    const bytes = new Uint8Array(n).fill(0x81);
    const index = indexCbor(bytes);
    expect(index.error).toMatchObject({ code: 'truncated', offset: n });
    expect(index.store.size).toBe(n);
    expect(index.isIncomplete(0) && index.isIncomplete(n - 1)).toBe(true);
    expect(() => index.value(0)).not.toThrow();
    expect(diagnostic(index, 0, { maxLength: 10 })).toBe('[[[[[[[[[[…');
  });

  it('a __proto__ key becomes an own property and never touches a prototype', () => {
    // {_ "__proto__": {"x": 1}} (indefinite) and the definite-length equivalent.
    for (const input of [
      'bf 69 5f 5f 70 72 6f 74 6f 5f 5f a1 61 78 01 ff',
      'a1 69 5f 5f 70 72 6f 74 6f 5f 5f a1 61 78 01',
    ]) {
      const index = indexCbor(hex(input));
      expect(index.error).toBeNull();
      const v = index.value(0) as Record<string, unknown>;
      expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
      expect(Object.hasOwn(v, '__proto__')).toBe(true);
      expect(Object.getOwnPropertyDescriptor(v, '__proto__')!.value).toEqual({ x: 1 });
      expect(Object.keys(v)).toEqual(['__proto__']);
      expect((v as { x?: unknown }).x).toBeUndefined();
      expect(({} as { x?: unknown }).x).toBeUndefined();
      expect(Object.hasOwn(Object.prototype, 'x')).toBe(false);
    }
  });

  it('constructor / prototype keys are plain own properties', () => {
    // {"constructor": {"prototype": {"polluted": true}}}
    const index = indexCbor(hex('a1 6b 636f6e7374727563746f72 a1 69 70726f746f74797065 a1 68 706f6c6c75746564 f5'));
    expect(index.error).toBeNull();
    const v = index.value(0) as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v)).toEqual(['constructor']);
    expect(v.constructor).toEqual({ prototype: { polluted: true } });
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false);
    expect({}.constructor).toBe(Object);
  });

  it('duplicate keys are warnings at the second key and materialize as an EntriesMap', () => {
    // {"a": 1, "a": 2}
    let index = indexCbor(hex('a2 61 61 01 61 61 02'));
    expect(index.error).toBeNull();
    expect(index.warnings).toHaveLength(1);
    expect(index.warnings[0]).toMatchObject({ code: 'duplicate-key', offset: 4, node: 3 });
    expect(index.store.flags[3] & Flag.duplicateKey).toBeTruthy();
    let v = index.value(0);
    expect(v).toBeInstanceOf(EntriesMap);
    expect((v as EntriesMap).entries).toEqual([
      ['a', 1],
      ['a', 2],
    ]);
    // {_ 1: 2, 1: 3}, non-string keys, indefinite length
    index = indexCbor(hex('bf 01 02 01 03 ff'));
    expect(index.warnings.map((w) => w.offset)).toEqual([3]);
    v = index.value(0);
    expect((v as EntriesMap).entries).toEqual([
      [1, 2],
      [1, 3],
    ]);
  });

  it('non-string keys give a Map', () => {
    const v = indexCbor(hex('a2 01 02 03 04')).value(0);
    expect(v).toBeInstanceOf(Map);
    expect([...(v as Map<unknown, unknown>)]).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(typeof [...(v as Map<unknown, unknown>).keys()][0]).toBe('number');
  });

  it('invalid UTF-8 in a text string is reported at the offending byte', () => {
    for (const [input, offset] of [
      ['63 61 ff 62', 2], // 0xff never appears in UTF-8
      ['62 c0 80', 1], // overlong NUL
      ['63 ed a0 80', 1], // UTF-16 surrogate
      ['64 f4 90 80 80', 1], // above U+10FFFF
      ['82 01 62 61 c3', 4], // sequence cut by the string's end
      ['7f 61 c3 61 bc ff', 2], // a character split across chunks: each chunk must be valid
      ['a1 62 6b c3 01', 3], // in a map key
    ] as const) {
      const index = indexCbor(hex(input));
      expect(index.error, input).toMatchObject({ code: 'invalid-utf8', offset });
      expect(() => index.value(0)).not.toThrow();
      expect(() => diagnostic(index, 0)).not.toThrow();
      expect(nestingProblems(index), input).toEqual([]);
    }
  });

  it('trailing bytes are an error at the root end; the root is kept', () => {
    let index = indexCbor(hex('01 02'));
    expect(index.error).toMatchObject({ code: 'trailing-bytes', offset: 1 });
    expect(index.store.size).toBe(1);
    expect(index.store.end[0]).toBe(1);
    expect(index.value(0)).toBe(1);
    index = indexCbor(hex('83 01 02 03 ff 00'));
    expect(index.error).toMatchObject({ code: 'trailing-bytes', offset: 4 });
    expect(index.value(0)).toEqual([1, 2, 3]);
    expect(index.isIncomplete(0)).toBe(false);
  });

  it('the partial tree of a truncated input is kept', () => {
    const index = indexCbor(hex('83 01 02'));
    expect(index.error).toMatchObject({ code: 'truncated', offset: 3 });
    expect(index.children(0)).toHaveLength(2);
    expect(index.isIncomplete(0)).toBe(true);
    expect(index.store.end[0]).toBe(3);
    expect(index.value(0)).toEqual([1, 2]);
    expect(diagnostic(index, 0)).toBe('[1, 2, …]');
  });

  it('a string whose declared length overruns the input stays inside its incomplete parent', () => {
    const bytes = hex('82 01 5a ff ff ff ff 00');
    const index = indexCbor(bytes);
    expect(index.error).toMatchObject({ code: 'length-exceeds-input', offset: 2 });
    expect(nestingProblems(index)).toEqual([]);
    // Every byte of the recorded string (head included) is found under the root.
    expect(index.nodeAt(3)).toBe(2);
    expect(index.nodeAt(7)).toBe(2);
  });

  it('node ids that were never recorded are harmless (no root: ff, 1c, 18)', () => {
    // The store's typed arrays hold zeros past its size: following firstChild / nextSibling
    // from such an id looped forever on node 0 (diagnostic(index, 0) hung on `ff`).
    for (const input of ['ff', '1c', '18']) {
      const index = indexCbor(hex(input));
      expect(index.root).toBe(-1);
      expect(diagnostic(index, 0)).toBe('');
      expect(diagnostic(index)).toBe('');
      expect(index.value(0)).toBeUndefined();
      index.expandAll(0);
      index.expand(0);
      expect(index.children(0)).toEqual([]);
      expect(index.keyOf(0)).toBe(-1);
      expect(index.nodeAt(0)).toBe(-1);
    }
    const index = indexCbor(hex('82 01 02'));
    expect(diagnostic(index, 3)).toBe('');
    expect(index.children(7)).toEqual([]);
  });

  it('empty input is an error', () => {
    const index = indexCbor(new Uint8Array(0));
    expect(index.error).toMatchObject({ code: 'empty-input', offset: 0 });
    expect(index.root).toBe(-1);
    expect(index.value(0)).toBeUndefined();
    expect(diagnostic(index)).toBe('');
  });
});
