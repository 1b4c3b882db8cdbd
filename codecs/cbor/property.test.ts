import { CborDecoder } from '@jsonjoy.com/json-pack/lib/cbor/CborDecoder';
import { encode as cborxEncode, decode as cborxDecode } from 'cbor-x';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { indexCbor } from './index.js';
import { diagnostic } from '../core/diagnostic.js';
import type { SpanIndex } from '../core/span-index.js';
import {
  asJsonPackDecodes,
  childSpans,
  hex,
  jsonPackEncode,
  nestingProblems,
  normalize,
  reencodeIndexed,
  tilingProblems,
  toHex,
  toJsonPack,
  valueDiff,
} from '../test/helpers/cbor.js';

/**
 * Property tests of the CBOR span index against two independent encoders (json-pack's
 * CborEncoder and cbor-x) and one decoder (json-pack's CborDecoder). Deterministic: the
 * seed is fixed (override with FC_SEED=<n> to explore), runs are bounded.
 */
const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : 0x77697265;
const runs = (n: number) => ({ seed: SEED, numRuns: n, endOnFailure: true });

// ---------------------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------------------

const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  fc.constantFrom('', 'ü', '水', '𐅑', 'a\u0000b', '\uFEFF', '\uFEFFa', '__proto__', 'constructor'),
);

const TWO_64 = 1n << 64n;

const leaf = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.float().map(Math.fround),
  text,
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.uint8Array({ maxLength: 32 }),
  fc.bigInt({ min: -TWO_64, max: TWO_64 - 1n }),
  fc.bigInt({ min: -(1n << 100n), max: 1n << 100n }),
  fc.constantFrom(
    NaN,
    Infinity,
    -Infinity,
    -0,
    0.5,
    65504,
    2 ** -24,
    2 ** 53,
    2 ** 64,
    1e300,
    5e-324,
    2n ** 64n,
    -(2n ** 64n) - 1n,
  ),
);

/** Map keys of distinct encodings (5 and 5n encode alike, so they count as one key). */
const mapKey = fc.oneof(
  text,
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.uint8Array({ maxLength: 4 }),
  fc.bigInt({ min: -TWO_64, max: TWO_64 - 1n }),
);
const keyId = (k: unknown): string =>
  typeof k === 'string' ? `s:${k}` : k instanceof Uint8Array ? `b:${toHex(k)}` : `v:${String(k)}`;

const { value: cborValue } = fc.letrec<{
  value: unknown;
  array: unknown[];
  object: Record<string, unknown>;
  map: Map<unknown, unknown>;
}>((tie) => ({
  value: fc.oneof({ maxDepth: 4, depthSize: 'small' }, leaf, tie('array'), tie('object'), tie('map')),
  array: fc.array(tie('value'), { maxLength: 5 }),
  object: fc.dictionary(text, tie('value'), { maxKeys: 5 }),
  map: fc
    .uniqueArray(fc.tuple(mapKey, tie('value')), { selector: ([k]) => keyId(k), maxLength: 4 })
    .map((entries) => new Map(entries)),
}));

const jsonValue = fc.jsonValue({ maxDepth: 4 });

// ---------------------------------------------------------------------------------------
// Encoders
// ---------------------------------------------------------------------------------------

interface Encoded {
  bytes: Uint8Array;
  /** What the index's value must equal (any one of them), normalized. */
  expected: unknown[];
  cborx: boolean;
}

/** json-pack's own CborEncoder (not the preferred-string subclass) over our value model. */
function viaJsonPack(v: unknown): Encoded {
  return { bytes: jsonPackEncode(toJsonPack(v), false), expected: [normalize(v)], cborx: false };
}

/**
 * cbor-x wraps Uint8Array in tag 64 and Map in tag 259 (normalize unwraps them). The value
 * must equal the original or, where cbor-x changed something else, cbor-x's own decode of
 * its bytes. (cbor-x decodes a `__proto__` key as "__proto_", so that is not always the
 * better reference.)
 */
function viaCborX(v: unknown): Encoded {
  const bytes = Uint8Array.from(cborxEncode(v));
  return { bytes, expected: [normalize(v), normalize(cborxDecode(bytes))], cborx: true };
}

// ---------------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------------

/** (a) no error, (b) exact tiling, (c) value round trip, (d) depth-1 agrees with full. */
function checkWellFormed({ bytes, expected, cborx }: Encoded): void {
  const index = indexCbor(bytes);
  expect(index.error, toHex(bytes)).toBeNull();
  expect(index.warnings).toEqual([]);
  index.expandAll(0);
  expect(tilingProblems(index), toHex(bytes)).toEqual([]);
  const value = index.value(0);
  const diffs = expected.map((e) => valueDiff(normalize(value, { cborx }), e));
  expect(diffs.includes(null) ? null : diffs.join('; '), toHex(bytes)).toBeNull();

  const shallow = indexCbor(bytes, { depth: 1 });
  expect(shallow.error).toBeNull();
  expect(childSpans(shallow, 0)).toEqual(childSpans(index, 0));
  expect(shallow.store.size).toBe(1 + childSpans(index, 0).length);
  expect([shallow.store.start[0], shallow.store.end[0], shallow.store.head[0]]).toEqual([
    0,
    bytes.length,
    index.store.head[0],
  ]);
  expect(diagnostic(shallow, 0)).toBe(diagnostic(index, 0));

  // Re-encoding our value (floats at their recorded width) and indexing it gives it back.
  const again = indexCbor(reencodeIndexed(index, 0));
  expect(again.error).toBeNull();
  expect(valueDiff(again.value(0), value)).toBeNull();
}

const THREW = Symbol('threw');

/** Up to `n` offsets in [0, length), spread evenly, always with the first and the last. */
function sampleOffsets(length: number, n: number): number[] {
  if (length <= n) return Array.from({ length }, (_, i) => i);
  return Array.from({ length: n }, (_, i) => Math.round((i * (length - 1)) / (n - 1)));
}

/** How often checkArbitrary got to compare (so a property cannot pass vacuously). */
const stats = { wellFormed: 0, compared: 0, selfConsistent: 0 };

/**
 * (e) Anything at all: never throws, never hangs, keeps a consistent partial tree; when the
 * index says the frame is well-formed, json-pack's decoder agrees on the value (or, where
 * the two value models cannot be compared, our value re-encodes to a well-formed frame).
 */
function checkArbitrary(bytes: Uint8Array): SpanIndex {
  const t0 = performance.now();
  const index = indexCbor(bytes);
  const error = index.error;
  if (error) {
    expect(Number.isInteger(error.offset)).toBe(true);
    expect(error.offset).toBeGreaterThanOrEqual(0);
    expect(error.offset).toBeLessThanOrEqual(bytes.length);
    expect(error.code).not.toBe('internal');
  }
  expect(nestingProblems(index), toHex(bytes)).toEqual([]);
  index.expandAll(index.root);
  const value = index.value(index.root);
  diagnostic(index, index.root);
  diagnostic(index, index.root, { indicators: 'always' });
  expect(index.error).toBe(error);
  expect(nestingProblems(index), toHex(bytes)).toEqual([]);

  // The skip-validating shallow walk finds the same error, and expands to the same tree.
  const shallow = indexCbor(bytes, { depth: 1 });
  expect(shallow.error, toHex(bytes)).toEqual(error);
  // So do walks that record nothing below the root, or two levels (other loops skip then).
  for (const depth of [0, 2])
    expect(indexCbor(bytes, { depth }).error, `${toHex(bytes)} at depth ${depth}`).toEqual(error);
  shallow.expandAll(shallow.root);
  expect(shallow.error).toEqual(error);
  expect(shallow.store.size).toBe(index.store.size);
  expect(nestingProblems(shallow), toHex(bytes)).toEqual([]);
  expect(valueDiff(shallow.value(shallow.root), value), toHex(bytes)).toBeNull();
  const warned = (ix: SpanIndex) => ix.warnings.map((w) => `${w.code}@${w.offset}`).sort();
  expect(warned(shallow)).toEqual(warned(index));

  // A fresh depth-1 index records the root and its children with the full index's spans,
  // whether or not the frame is well-formed.
  const lazy = indexCbor(bytes, { depth: 1 });
  expect(lazy.root).toBe(index.root);
  const rootEnd = lazy.root >= 0 ? lazy.store.end[lazy.root] : 0;
  if (lazy.root >= 0) {
    expect(rootEnd, toHex(bytes)).toBe(index.store.end[0]);
    expect(childSpans(lazy, 0), toHex(bytes)).toEqual(childSpans(index, 0));
  }
  // nodeAt: the deepest recorded node containing an offset (a dozen offsets per frame).
  const misses: string[] = [];
  for (const o of sampleOffsets(bytes.length, 12)) {
    const id = lazy.nodeAt(o);
    if (o >= rootEnd) {
      if (id !== -1) misses.push(`nodeAt(${o}) = ${id} beyond the root`);
      continue;
    }
    if (!(lazy.store.start[id] <= o && o < lazy.store.end[id])) misses.push(`nodeAt(${o}) = ${id} does not contain it`);
    for (let c = lazy.store.firstChild[id]; c >= 0; c = lazy.store.nextSibling[c]) {
      if (lazy.store.start[c] <= o && o < lazy.store.end[c]) misses.push(`nodeAt(${o}) = ${id} is not the deepest`);
    }
  }
  expect(misses, toHex(bytes)).toEqual([]);

  if (!error) {
    expect(tilingProblems(index), toHex(bytes)).toEqual([]);
    let reference: unknown = THREW;
    try {
      reference = new CborDecoder().decode(bytes);
    } catch {
      // json-pack refuses some well-formed frames (indefinite-length text keys, `__proto__` keys).
    }
    const ours = asJsonPackDecodes(value);
    stats.wellFormed++;
    if (reference !== THREW && !ours.ambiguous) {
      stats.compared++;
      expect(valueDiff(normalize(ours.value), normalize(reference)), toHex(bytes)).toBeNull();
    } else {
      stats.selfConsistent++;
      const again = indexCbor(jsonPackEncode(toJsonPack(value)));
      expect(again.error, toHex(bytes)).toBeNull();
    }
  }
  expect(performance.now() - t0).toBeLessThan(1000);
  return index;
}

type Mutation =
  | { op: 'flip'; at: number; bit: number }
  | { op: 'set'; at: number; byte: number }
  | { op: 'insert'; at: number; bytes: Uint8Array }
  | { op: 'delete'; at: number; count: number };

/** Bytes that mean something structural in CBOR, so mutations hit interesting cases. */
const structuralByte = fc.constantFrom(
  0xff,
  0x1f,
  0x3f,
  0x5f,
  0x7f,
  0x9f,
  0xbf,
  0xdf,
  0x1c,
  0x5c,
  0xf8,
  0xf9,
  0xc2,
  0x1b,
  0x5b,
  0x9b,
  0x80,
  0xa0,
  0x00,
  0x18,
  0xc0,
  0xed,
  0xf4,
);

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('flip' as const), at: fc.nat(), bit: fc.nat(7) }),
  fc.record({ op: fc.constant('set' as const), at: fc.nat(), byte: fc.oneof(fc.nat(255), structuralByte) }),
  fc.record({ op: fc.constant('insert' as const), at: fc.nat(), bytes: fc.uint8Array({ minLength: 1, maxLength: 4 }) }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat(), count: fc.integer({ min: 1, max: 4 }) }),
);

function mutate(input: Uint8Array, mutations: Mutation[]): Uint8Array {
  const b = Array.from(input);
  for (const m of mutations) {
    const at = m.at % (b.length + 1);
    if (m.op === 'insert') b.splice(at, 0, ...m.bytes);
    else if (m.op === 'delete') b.splice(at, m.count);
    else if (at < b.length) b[at] = m.op === 'flip' ? b[at] ^ (1 << m.bit) : m.byte;
  }
  return Uint8Array.from(b);
}

/**
 * Text of every length the walker's text checks tell apart (0-3, 4-8, 9-16, 17-32 and more
 * bytes), ASCII or not, in frames of at least 256 bytes (where the checks load four bytes at
 * a time) with containers below the root (which a depth-1 walk skips).
 */
const anyText = fc.oneof(
  fc.string({ maxLength: 70 }),
  fc.string({ unit: 'grapheme', maxLength: 24 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
);
const textHeavy = fc
  .tuple(
    fc.array(
      fc.oneof(
        anyText,
        fc.array(anyText, { maxLength: 4 }),
        fc.dictionary(anyText, fc.oneof(anyText, fc.array(anyText, { maxLength: 3 })), { maxKeys: 3 }),
      ),
      { minLength: 2, maxLength: 10 },
    ),
    fc.string({ minLength: 260, maxLength: 280 }),
    fc.nat(),
  )
  .map(([items, long, at]) => {
    items.splice(at % (items.length + 1), 0, long);
    return items;
  });
/** Mutations that also hit what UTF-8 validation looks at. */
const utf8Byte = fc.constantFrom(0x80, 0xbf, 0xc0, 0xc1, 0xc3, 0xdf, 0xe0, 0xe2, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff);
const textMutation: fc.Arbitrary<Mutation> = fc.oneof(
  mutation,
  fc.record({ op: fc.constant('set' as const), at: fc.nat(), byte: utf8Byte }),
);

const encoded = fc.oneof(
  cborValue.map(viaJsonPack),
  cborValue.map(viaCborX),
  jsonValue.map(viaJsonPack),
  jsonValue.map(viaCborX),
);

// ---------------------------------------------------------------------------------------

describe('CBOR span index properties', () => {
  it('hand-picked edge frames pass the arbitrary-input checks', () => {
    const wellFormed = [
      'c2 5f 41 01 41 02 ff', // bignum over an indefinite-length byte string
      'c2 40', // bignum 0
      'c3 41 00', // bignum -1
      'c2 49 00 00 00 00 00 00 00 00 01', // bignum with leading zeros
      'd8 20 9f bf 61 61 5f 41 00 ff ff ff', // tag > indefinite array > indefinite map > indefinite bytes
      'db ff ff ff ff ff ff ff ff 00', // tag number 2^64 - 1
      'db 00 20 00 00 00 00 00 01 00', // tag number 2^53 + 1
      '1b 00 1f ff ff ff ff ff ff', // 2^53 - 1
      '3b 00 1f ff ff ff ff ff ff', // -(2^53): bigint
      '3b 00 1f ff ff ff ff ff fe', // -(2^53 - 1): number
      '3b ff ff ff ff ff ff ff ff', // -(2^64)
      'a1 80 01', // array key
      'a1 f8 20 01', // simple-value key
      'a1 f6 01', // null key
      'a1 c2 41 01 02', // bignum key (json-pack: "[object Object]")
      'a2 61 61 01 61 61 02', // duplicate keys
      'bf 7f 61 61 ff 01 ff', // indefinite-length text key (json-pack refuses it)
      'a1 69 5f 5f 70 72 6f 74 6f 5f 5f 01', // __proto__ key (json-pack refuses it)
      'f9 7e 01', // NaN with a payload
      'fa 7f c0 00 01',
      'f9 80 00', // -0.0
      'f9 00 01', // smallest float16 subnormal
      'f8 20', // simple(32)
      '7f ff', // empty indefinite-length text
      '5f ff',
      '9f ff',
      'bf ff',
      '82 7f 62 c3 bc 61 61 ff 5f 40 ff', // text chunks with multi-byte characters
      'c1 fb 41 d4 52 d9 ec 20 00 00',
      '9a 00 00 00 01 00', // over-long array head
      '78 01 61', // over-long text head
    ];
    for (const input of wellFormed) expect(checkArbitrary(hex(input)).error, input).toBeNull();
    const malformed = [
      '5f 42 01', // overrunning last chunk
      '7f 62 61', // overrunning text chunk
      'a1 61 61', // map without a value
      'bf 61 61 ff', // break in a value position
      'c2 5f 41 01 ff 00', // trailing byte
      'd8', // tag head cut
      '7f 61 c3 61 bc ff', // character split across chunks
      '62 ed a0', // surrogate cut by the string's end
      '82 01 5a ff ff ff ff 00', // overrunning string inside an array
      '82 9f 81 9f', // unclosed indefinite inside a definite array
    ];
    for (const input of malformed) expect(checkArbitrary(hex(input)).error, input).not.toBeNull();
  });

  it('JSON values encoded by json-pack: well-formed, tiled, round trip, shallow agrees', () => {
    fc.assert(
      fc.property(jsonValue, (v) => checkWellFormed(viaJsonPack(v))),
      runs(300),
    );
  });

  it('JSON values encoded by cbor-x: well-formed, tiled, round trip, shallow agrees', () => {
    fc.assert(
      fc.property(jsonValue, (v) => checkWellFormed(viaCborX(v))),
      runs(300),
    );
  });

  it('CBOR-specific values encoded by json-pack: well-formed, tiled, round trip, shallow agrees', () => {
    fc.assert(
      fc.property(cborValue, (v) => checkWellFormed(viaJsonPack(v))),
      runs(400),
    );
  });

  it('CBOR-specific values encoded by cbor-x: well-formed, tiled, round trip, shallow agrees', () => {
    fc.assert(
      fc.property(cborValue, (v) => checkWellFormed(viaCborX(v))),
      runs(400),
    );
  });

  it('valid encodings pass the arbitrary-input checks (and agree with json-pack decoding)', () => {
    fc.assert(
      fc.property(encoded, ({ bytes }) => {
        expect(checkArbitrary(bytes).error).toBeNull();
      }),
      runs(200),
    );
    expect(stats.compared).toBeGreaterThan(150);
  });

  it('random mutations never throw, hang or break the tree; well-formed results agree with json-pack', () => {
    fc.assert(
      fc.property(encoded, fc.array(mutation, { minLength: 1, maxLength: 4 }), ({ bytes }, mutations) => {
        checkArbitrary(mutate(bytes, mutations));
      }),
      runs(1000),
    );
    // Many mutants stay well-formed (a changed digit, a changed key) and were compared.
    expect(stats.compared).toBeGreaterThan(80);
  });

  it('text-heavy frames of 256 bytes and more: well-formed; their mutations find the same error at every depth', () => {
    fc.assert(
      fc.property(
        textHeavy,
        fc.boolean(),
        fc.array(textMutation, { minLength: 1, maxLength: 3 }),
        (value, useCborX, mutations) => {
          const frame = useCborX ? viaCborX(value) : viaJsonPack(value);
          expect(frame.bytes.length).toBeGreaterThanOrEqual(256);
          checkWellFormed(frame);
          checkArbitrary(mutate(frame.bytes, mutations));
        },
      ),
      runs(300),
    );
  });

  it('random bytes never throw, hang or break the tree', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        checkArbitrary(bytes);
      }),
      runs(600),
    );
    if (process.env.FC_STATS) console.log(stats);
  });

  it('truncations of a valid encoding are end-of-input errors; extensions are trailing bytes', () => {
    fc.assert(
      fc.property(encoded, fc.uint8Array({ minLength: 1, maxLength: 3 }), ({ bytes }, extra) => {
        for (const n of sampleOffsets(bytes.length, 24)) {
          const index = checkArbitrary(bytes.subarray(0, n));
          // CBOR is self-delimiting: no proper prefix of one data item is well-formed, and a
          // prefix breaks off for lack of data, never for a syntax error.
          expect(index.error?.code, `${toHex(bytes)} cut at ${n}`).toBe(
            n === 0
              ? 'empty-input'
              : index.error?.code === 'length-exceeds-input'
                ? 'length-exceeds-input'
                : 'truncated',
          );
        }
        const longer = new Uint8Array(bytes.length + extra.length);
        longer.set(bytes);
        longer.set(extra, bytes.length);
        const index = checkArbitrary(longer);
        expect(index.error).toMatchObject({ code: 'trailing-bytes', offset: bytes.length });
        expect(index.isIncomplete(0)).toBe(false);
      }),
      runs(100),
    );
  });
});

describe('regressions found by these properties', () => {
  // SpanIndex.value() read `undefined.length` for the chunk cut off by the error.
  it('an indefinite-length byte string with an overrunning last chunk materializes its complete chunks', () => {
    for (const [input, partial] of [
      ['5f 42 01', []],
      ['5f 42', []],
      ['5f 41 00 5a 00 01 00 00', [0]],
    ] as const) {
      const index = indexCbor(hex(input));
      expect(index.error?.code).toBe('length-exceeds-input');
      expect(index.value(0)).toEqual(Uint8Array.from(partial));
    }
  });

  // core/utf8.ts decoded with a TextDecoder whose default (ignoreBOM: false) strips a
  // leading U+FEFF: "\uFEFFa" materialized and printed as "a".
  it('a text string starting with U+FEFF keeps it', () => {
    for (const input of [
      '64 ef bb bf 61',
      '63 ef bb bf',
      '73 ef bb bf 61 61 61 61 61 61 61 61 61 61 61 61 61 61 61 61',
    ]) {
      const index = indexCbor(hex(input));
      const value = index.value(0) as string;
      expect(value.startsWith('\uFEFF')).toBe(true);
      expect(value).toBe(new CborDecoder().decode(hex(input)));
      expect(diagnostic(index, 0)).toBe(JSON.stringify(value));
    }
  });
});
