import { encode as cborEncode } from 'cbor-x';
import { pack as msgpackEncode } from 'msgpackr';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeFrame, Flag, type SpanIndex } from '../index.js';
import { nestedValue, MAX_NESTED_DEPTH, MIN_NESTED_BYTES, type NestedValue } from './nested-value.js';
import { postOrder } from '../core/span-store.js';
import protobuf from 'protobufjs';

/**
 * Payloads inside payloads: a value encoded as CBOR / MessagePack / JSON and
 * carried in a byte string, tag 24, or a text string as it is or as base64 / base64url /
 * hex, inside a random outer value. The nested reading must equal the original value, and
 * its nodes' spans, mapped to the frame, must lie inside the outer string and tile it.
 */
const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : 0x6e657374;
const runs = (n: number) => ({ seed: SEED, numRuns: n, endOnFailure: true });

const key = fc.string({ minLength: 1, maxLength: 8 }).filter((k) => k !== '__proto__');
const leaf = fc.oneof(
  fc.integer({ min: -1e9, max: 1e9 }),
  fc.string({ maxLength: 10 }),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom('é', '水', '𐅑', 'a"b\\c/'),
);
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', maxDepth: 3 }, leaf, tie('array'), tie('object')),
  array: fc.array(tie('value'), { minLength: 1, maxLength: 4 }),
  object: fc.dictionary(key, tie('value'), { minKeys: 1, maxKeys: 4 }),
}));
/**
 * What is nested: a non-empty map with text keys, or an array of such maps or of strings (a
 * scalar in a string is not nested data, nor an array of bare numbers: random bytes read so).
 */
const map = fc.dictionary(key, value, { minKeys: 1, maxKeys: 5 });
const container = fc.oneof(
  map,
  fc.array(map, { minLength: 1, maxLength: 4 }),
  fc.array(fc.string({ minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 6 }),
);

type Carrier =
  | 'cbor-bytes'
  | 'cbor-tag24'
  | 'msgpack-bin'
  | 'json-base64'
  | 'json-base64url'
  | 'json-hex'
  | 'json-text'
  | 'cbor-text-base64';
const carriers: Carrier[] = [
  'cbor-bytes',
  'cbor-tag24',
  'msgpack-bin',
  'json-base64',
  'json-base64url',
  'json-hex',
  'json-text',
  'cbor-text-base64',
];

const enc = new TextEncoder();
class Tag24 {
  constructor(readonly bytes: Uint8Array) {}
}

function innerBytes(v: unknown, format: 'cbor' | 'msgpack' | 'json'): Uint8Array {
  if (format === 'json') return enc.encode(JSON.stringify(v));
  return format === 'cbor' ? new Uint8Array(cborEncode(v)) : new Uint8Array(msgpackEncode(v));
}

/** The outer frame: `outer` with the carrier put at `slot`, and whether it is a text frame. */
function buildFrame(
  carrier: Carrier,
  inner: Uint8Array,
  outer: Record<string, unknown>,
  slot: string,
): { bytes: Uint8Array; isText: boolean } {
  const b64 = Buffer.from(inner).toString('base64');
  switch (carrier) {
    case 'cbor-bytes':
      return { bytes: cborFrame({ ...outer, [slot]: inner }), isText: false };
    case 'cbor-tag24':
      return { bytes: cborFrame({ ...outer, [slot]: new Tag24(inner) }), isText: false };
    case 'cbor-text-base64':
      return { bytes: cborFrame({ ...outer, [slot]: b64 }), isText: false };
    case 'msgpack-bin':
      return { bytes: new Uint8Array(msgpackEncode({ ...outer, [slot]: Buffer.from(inner) })).slice(), isText: false };
    case 'json-base64':
      return { bytes: enc.encode(JSON.stringify({ ...outer, [slot]: b64 })), isText: true };
    case 'json-base64url':
      return {
        bytes: enc.encode(JSON.stringify({ ...outer, [slot]: Buffer.from(inner).toString('base64url') })),
        isText: true,
      };
    case 'json-hex':
      return {
        bytes: enc.encode(JSON.stringify({ ...outer, [slot]: Buffer.from(inner).toString('hex') })),
        isText: true,
      };
    case 'json-text':
      return { bytes: enc.encode(JSON.stringify({ ...outer, [slot]: new TextDecoder().decode(inner) })), isText: true };
  }
}

/** CBOR with tag 24 written by hand around the embedded bytes (cbor-x has no tag-24 writer we can trust to keep bytes as-is). */
function cborFrame(v: Record<string, unknown>): Uint8Array {
  const parts: Uint8Array[] = [];
  const head = (major: number, n: number) => {
    if (n < 24) parts.push(Uint8Array.of((major << 5) | n));
    else if (n < 256) parts.push(Uint8Array.of((major << 5) | 24, n));
    else if (n < 65536) parts.push(Uint8Array.of((major << 5) | 25, n >> 8, n & 255));
    else parts.push(Uint8Array.of((major << 5) | 26, n >>> 24, (n >> 16) & 255, (n >> 8) & 255, n & 255));
  };
  const entries = Object.entries(v);
  head(5, entries.length);
  for (const [k, x] of entries) {
    parts.push(new Uint8Array(cborEncode(k)));
    if (x instanceof Tag24) {
      head(6, 24);
      head(2, x.bytes.length);
      parts.push(x.bytes);
    } else if (x instanceof Uint8Array) {
      head(2, x.length);
      parts.push(x);
    } else parts.push(new Uint8Array(cborEncode(x)));
  }
  return new Uint8Array(Buffer.concat(parts));
}

/** The frame's string node holding the nested value (its key is `slot`). */
function slotNode(index: SpanIndex, slot: string): number {
  for (const c of index.children(index.root)) {
    const k = index.keyOf(c);
    if (k >= 0 && index.value(k) === slot) return index.kind(c) === 'tag' ? index.children(c)[0] : c;
  }
  return -1;
}

/** Problems with the nested value's spans mapped into the frame: outside the string, or not tiling it. */
function spanProblems(outer: SpanIndex, stringId: number, nested: NestedValue): string[] {
  const problems: string[] = [];
  const { index, map } = nested;
  const s0 = outer.store.start[stringId];
  const e0 = outer.store.end[stringId];
  const payloadStart = s0 + outer.headerLength(stringId);
  const payloadEnd = outer.format === 'json' ? e0 - 1 : e0;
  index.expandAll(index.root);
  const { start, end, firstChild, nextSibling, flags } = index.store;
  // The root covers the whole string content (binary inner formats fill their bytes exactly).
  if (
    nested.format !== 'json' &&
    (map.at(start[index.root]) !== payloadStart || map.at(end[index.root]) !== payloadEnd)
  )
    problems.push(
      `root maps to [${map.at(start[index.root])}, ${map.at(end[index.root])}), string content is [${payloadStart}, ${payloadEnd})`,
    );
  for (const n of postOrder(index.store, index.root)) {
    const s = map.at(start[n]);
    const e = map.at(end[n]);
    if (s < payloadStart || e > payloadEnd || s > e)
      problems.push(`node ${n} maps to [${s}, ${e}) outside [${payloadStart}, ${payloadEnd})`);
    if (!index.isContainer(n)) continue;
    // Children (keys included) tile the container after its head, in order.
    let at = map.at(start[n] + index.headerLength(n));
    for (let c = firstChild[n]; c >= 0; c = nextSibling[c]) {
      const cs = map.at(start[c]);
      if (nested.format === 'json' ? cs < at : cs !== at)
        problems.push(`child ${c} of ${n} starts at ${cs}, expected ${nested.format === 'json' ? '≥ ' : ''}${at}`);
      at = map.at(end[c]);
      void flags;
    }
    if (nested.format !== 'json' && at !== map.at(end[n]))
      problems.push(`children of ${n} end at ${at}, the node at ${map.at(end[n])}`);
  }
  return problems;
}

describe('nested values: property tests', () => {
  it('a value nested in bytes, tag 24, text, base64, base64url or hex reads back equal, with spans inside the string that tile it', () => {
    fc.assert(
      fc.property(
        container,
        fc.dictionary(key, leaf, { maxKeys: 3 }),
        fc.constantFrom(...carriers),
        fc.constantFrom('cbor', 'msgpack') as fc.Arbitrary<'cbor' | 'msgpack'>,
        (v, outer, carrier, innerFormat) => {
          const format = carrier === 'json-text' ? 'json' : carrier === 'cbor-tag24' ? 'cbor' : innerFormat;
          const inner = innerBytes(v, format);
          // Below MIN_NESTED_BYTES only tag 24 (which says what it holds) is read as nested.
          fc.pre(carrier === 'cbor-tag24' || inner.length >= MIN_NESTED_BYTES);
          const slot = 'nested\u00b7slot';
          const { bytes, isText } = buildFrame(carrier, inner, outer, slot);
          const d = decodeFrame(bytes, { isText });
          expect(d.verdict).toBe('decoded');
          const index = d.index!;
          const id = slotNode(index, slot);
          const nested = nestedValue(index, id);
          expect(nested, `${carrier}: ${Buffer.from(inner).toString('hex')}`).not.toBeNull();
          expect(nested!.format).toBe(format);
          expect(nested!.index.value(nested!.index.root)).toEqual(v);
          expect(spanProblems(index, id, nested!)).toEqual([]);
          // Plain bytes map by a shift: the mapped range holds the inner bytes themselves.
          if (carrier === 'cbor-bytes' || carrier === 'cbor-tag24' || carrier === 'msgpack-bin') {
            const m = nested!.map;
            expect(Array.from(bytes.subarray(m.at(0), m.at(inner.length)))).toEqual(Array.from(inner));
          }
        },
      ),
      runs(400),
    );
  });

  it('JSON strings with escapes map inner bytes back through the unescaping', () => {
    const innerJson = JSON.stringify({ 'q"uote': 'a/b\\c\u00e9\u{1F600}', n: [1, 2] });
    const frame = enc.encode(JSON.stringify({ s: innerJson }).replace(/\//g, '\\/').replace('é', '\\u00e9'));
    const d = decodeFrame(frame, { isText: true });
    const id = slotNode(d.index!, 's');
    const nested = nestedValue(d.index!, id)!;
    expect(nested.format).toBe('json');
    expect(nested.index.value(nested.index.root)).toEqual(JSON.parse(innerJson));
    expect(spanProblems(d.index!, id, nested)).toEqual([]);
    // The inner key "q\"uote" maps to its escaped form in the frame.
    const inner = nested.index;
    const firstKey = inner.store.firstChild[inner.root];
    const text = new TextDecoder().decode(
      frame.subarray(nested.map.at(inner.store.start[firstKey]), nested.map.at(inner.store.end[firstKey])),
    );
    expect(text).toBe('\\"q\\\\\\"uote\\"');
  });

  it('mutated frames with nested values never throw, and nested readings stay inside their strings', () => {
    const inner = innerBytes({ a: [1, 2, 3], b: 'hello', c: { d: true } }, 'cbor');
    const frames = carriers.map((c) =>
      buildFrame(c, c === 'json-text' ? innerBytes({ a: [1, 2], b: 'x' }, 'json') : inner, { x: 1, y: 'two' }, 'p'),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...frames),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }),
        fc.nat(),
        (frame, flips, cut) => {
          const bytes = frame.bytes.slice(0, frame.bytes.length - (cut % 3));
          for (const [at, b] of flips) bytes[at % bytes.length] = b;
          const d = decodeFrame(bytes, { isText: frame.isText });
          if (!d.index || d.index.root < 0) return;
          d.index.expandAll(d.index.root);
          walkNested(d.index, null, bytes.length);
        },
      ),
      runs(500),
    );
  });
});

/** Every nested value in every string, recursively: spans must map inside the frame. */
function walkNested(index: SpanIndex, parent: NestedValue | null, frameLength: number): void {
  for (let id = 0; id < index.store.size; id++) {
    const k = index.kind(id);
    if ((k !== 'bytes' && k !== 'text') || index.store.flags[id] & Flag.key) continue;
    const n = nestedValue(index, id, parent);
    if (!n) continue;
    n.index.expandAll(n.index.root);
    for (let c = 0; c < n.index.store.size; c++) {
      const s = n.map.at(n.index.store.start[c]);
      const e = n.map.at(n.index.store.end[c]);
      expect(s >= 0 && s <= e && e <= frameLength).toBe(true);
    }
    walkNested(n.index, n, frameLength);
  }
}

describe('nested values: Protobuf', () => {
  const Msg = protobuf.Root.fromJSON({
    nested: {
      M: {
        fields: {
          name: { type: 'string', id: 1 },
          count: { type: 'uint32', id: 2 },
          tags: { rule: 'repeated', type: 'string', id: 3 },
        },
      },
    },
  }).lookupType('M');
  it('a Protobuf message with a text field, in a byte string and as base64 in JSON, with spans that tile the string', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 20 }),
        fc.nat(100000),
        fc.array(fc.string({ maxLength: 6 }), { maxLength: 3 }),
        fc.boolean(),
        (name, count, tags, asBase64) => {
          const inner = Msg.encode(Msg.fromObject({ name, count, tags })).finish();
          fc.pre(inner.length >= 6);
          const { bytes, isText } = asBase64
            ? buildFrame('json-base64', inner, { k: 1 }, 'p')
            : buildFrame('cbor-bytes', inner, { k: 1 }, 'p');
          const d = decodeFrame(bytes, { isText });
          const id = slotNode(d.index!, 'p');
          const nested = nestedValue(d.index!, id);
          // CBOR / MessagePack readings of the same bytes come first when they are plausible; Protobuf otherwise.
          if (nested?.format !== 'protobuf') return;
          expect(spanProblems(d.index!, id, nested)).toEqual([]);
          expect(nested.label).toBe(asBase64 ? 'decoded as protobuf (from base64)' : 'decoded as protobuf');
        },
      ),
      runs(200),
    );
    // A typical message is found (one text field and a varint: exactly the detector's bar).
    const inner = Msg.encode(Msg.fromObject({ name: 'ann', count: 7 })).finish();
    const { bytes } = buildFrame('cbor-bytes', inner, { k: 1 }, 'p');
    const d = decodeFrame(bytes);
    expect(nestedValue(d.index!, slotNode(d.index!, 'p'))?.format).toBe('protobuf');
  });
});

describe('nested values: what is not nested data', () => {
  const cases: [string, Uint8Array, boolean][] = [
    ['a 3-byte byte string that happens to be CBOR', cborFrame({ h: Uint8Array.of(0x82, 0x01, 0x02) }), false],
    [
      'a SHA-256 hash in a byte string',
      cborFrame({
        h: Uint8Array.from(Buffer.from('9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', 'hex')),
      }),
      false,
    ],
    [
      'a hex hash in a JSON string',
      enc.encode(JSON.stringify({ h: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08' })),
      true,
    ],
    ['English words in a JSON string', enc.encode(JSON.stringify({ h: 'hello world, this is text' })), true],
    ['a word that is valid base64', enc.encode(JSON.stringify({ h: 'Test' })), true],
    ['a scalar in a JSON string', enc.encode(JSON.stringify({ h: '12345678' })), true],
  ];
  it('random 16- and 32-byte strings (UUIDs, hashes) in CBOR and MessagePack frames are not nested data', () => {
    let x = 0x1234567;
    const next = () => ((x ^= x << 13), (x ^= x >>> 17), (x ^= x << 5), x & 0xff);
    const found: string[] = [];
    // Found in the demo's traffic: MessagePack readings of random 16-byte ids.
    for (const hex of [
      '83a99f2f7ac42617f84e0c76e62b3d3d',
      '97fe52e7181aa8a8618480d9cdf6d257',
      '83e03a28a94df443cea09f620e24f665',
      '862671ee6266f31323e943a3b27c5773',
      '91ae4faf8f43ad2e5f4f546b02a0fc36',
      '81937eaae934dc071e942e336adf1da0',
      '93ac317552a97cd5db461cca1a681718',
      '847b5d566818524fa7056ce33b0764e3',
    ]) {
      for (const frame of [
        cborFrame({ h: Buffer.from(hex, 'hex') }),
        new Uint8Array(msgpackEncode({ h: Buffer.from(hex, 'hex') })).slice(),
      ]) {
        const d = decodeFrame(frame);
        const n = nestedValue(d.index!, slotNode(d.index!, 'h'));
        if (n) found.push(`${n.label}: ${hex}`);
      }
    }
    for (let i = 0; i < 20000; i++) {
      const blob = Uint8Array.from({ length: i % 4 ? 16 : 32 }, next);
      const frame =
        i % 4 < 2 ? cborFrame({ h: blob }) : new Uint8Array(msgpackEncode({ h: Buffer.from(blob) })).slice();
      const d = decodeFrame(frame);
      const n = nestedValue(d.index!, slotNode(d.index!, 'h'));
      if (n) found.push(`${n.label}: ${Buffer.from(blob).toString('hex')}`);
    }
    expect(found).toEqual([]);
  });

  for (const [name, bytes, isText] of cases) {
    it(name, () => {
      const d = decodeFrame(bytes, { isText });
      const id = slotNode(d.index!, 'h');
      expect(nestedValue(d.index!, id)).toBeNull();
    });
  }
});

describe('nested values: depth is capped', () => {
  it(`reads ${MAX_NESTED_DEPTH} levels of base64 inside base64 and stops there`, () => {
    let v: unknown = { leaf: 'bottom', n: 1 };
    for (let i = 0; i < MAX_NESTED_DEPTH + 3; i++)
      v = { level: i, inner: Buffer.from(cborEncode(v)).toString('base64') };
    const frame = enc.encode(JSON.stringify(v));
    const d = decodeFrame(frame, { isText: true });
    let index = d.index!;
    let parent: NestedValue | null = null;
    let levels = 0;
    for (;;) {
      const id = slotNode(index, 'inner');
      if (id < 0) break;
      const n = nestedValue(index, id, parent);
      if (!n) break;
      levels++;
      // Every level's root maps inside the frame's outermost string.
      expect(n.map.at(0)).toBeGreaterThan(0);
      expect(n.map.at(n.index.bytes.length)).toBeLessThan(frame.length);
      [index, parent] = [n.index, n];
    }
    expect(levels).toBe(MAX_NESTED_DEPTH);
  });
});
