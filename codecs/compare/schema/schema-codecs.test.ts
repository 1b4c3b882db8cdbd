import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { schemaScalar } from '../../test/helpers/schema-arbitraries.js';
import protobuf from 'protobufjs';
import { inferredProtobufCodec, type SchemaCodec } from './schema-codecs.js';
import { avroCodec } from './avro-codec.js';
import { inferProtobuf } from './protobuf-infer.js';
import { printProto } from './protobuf-shape.js';
import { decodeProtobuf, encodeProtobuf } from './protobuf-wire.js';

/**
 * Schemas inferred from a session round-trip every frame they can hold, and
 * list the others with a reason. Normalization (documented in schema/avro-schema.ts and
 * schema/protobuf-wire.ts): a key whose value is null, or an empty list, reads back as
 * absent / null; records come back as plain objects, bytes as Uint8Array.
 */
function normalize(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(normalize);
  if (v instanceof Uint8Array) return Array.from(v);
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) && BigInt(Number(v)) === v ? Number(v) : v;
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      const x = (v as Record<string, unknown>)[k];
      if (x === null || x === undefined || (Array.isArray(x) && x.length === 0)) continue;
      out[k] = normalize(x);
    }
    return out;
  }
  return v;
}

/** Records from a small key pool, keys coming and going, some keys of one type, some mixed. */
const record = fc.record(
  {
    id: fc.integer({ min: 0, max: 1e6 }),
    name: fc.string({ maxLength: 10 }),
    price: fc.double({ noNaN: true, noDefaultInfinity: true }),
    big: fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }),
    tags: fc.array(fc.string({ maxLength: 5 }), { maxLength: 4 }),
    mixed: schemaScalar,
    list: fc.array(schemaScalar, { maxLength: 3 }),
    meta: fc.record(
      { ok: fc.boolean(), n: fc.integer(), note: fc.option(fc.string({ maxLength: 4 })) },
      { requiredKeys: ['ok'] },
    ),
    'bad-key': fc.integer(),
  },
  { requiredKeys: [] },
);
const session = fc.array(
  fc.oneof({ weight: 9, arbitrary: record }, { weight: 1, arbitrary: fc.array(fc.integer(), { maxLength: 3 }) }),
  { minLength: 1, maxLength: 25 },
);

function roundTrips(codec: SchemaCodec, frames: readonly unknown[]): { encoded: number; mismatches: string[] } {
  let encoded = 0;
  const mismatches: string[] = [];
  for (const frame of frames) {
    const out = codec.encode(frame);
    if (out instanceof Uint8Array) {
      encoded++;
      expect(normalize(codec.decode(out))).toEqual(normalize(frame));
    } else {
      expect(out.mismatch.length).toBeGreaterThan(0);
      mismatches.push(out.mismatch);
    }
  }
  expect(encoded + mismatches.length).toBe(frames.length);
  return { encoded, mismatches };
}

describe('inferred schemas round-trip generated sessions', () => {
  it('Avro: every frame decodes equal, or is listed with a reason', () => {
    fc.assert(
      fc.property(session, (frames) => {
        const codec = avroCodec(frames);
        // No frame with an Avro type (all hold bigints beyond int64): the codec says so and every frame is listed.
        if (codec.unsupported) expect(codec.unsupported).toBe('no frame has an Avro type');
        const { mismatches } = roundTrips(codec, frames);
        // A long holds a bigint of the int64 range; one beyond it is listed, none silently lost.
        const beyondInt64 = (v: unknown): boolean => typeof v === 'bigint' && (v < -(2n ** 63n) || v >= 2n ** 63n);
        const withHugeBigint = frames.filter(
          (f) =>
            typeof f === 'object' && f !== null && !Array.isArray(f) && beyondInt64((f as Record<string, unknown>).big),
        ).length;
        expect(mismatches.length).toBeGreaterThanOrEqual(withHugeBigint);
      }),
      { numRuns: 60 },
    );
  }, 60_000);

  it('Protobuf: every frame decodes equal, or is listed with a reason', () => {
    fc.assert(
      fc.property(session, (frames) => {
        const codec = inferredProtobufCodec(frames);
        const { mismatches } = roundTrips(codec, frames);
        for (const f of frames) {
          const out = codec.encode(f);
          if (Array.isArray(f))
            expect(out).toEqual({
              mismatch: expect.stringMatching(/a list, where the schema has a message \(Frame\)/),
            });
          else if ((f as Record<string, unknown>)['bad-key'] !== undefined)
            expect(out).toEqual({ mismatch: expect.any(String) });
        }
        expect(mismatches.length).toBeGreaterThanOrEqual(frames.filter(Array.isArray).length);
      }),
      { numRuns: 60 },
    );
  }, 60_000);

  it('lists what Protobuf cannot hold: mixed types, null in lists, bigints beyond int64, non-identifier keys, non-object frames', () => {
    const frames = [
      { v: 1, l: [1, 2], b: 5n },
      { v: 'one' },
      { l: [1, null] },
      { b: 1n << 64n },
      { 'a-b': 1 },
      [1],
      { v: 2 },
    ];
    const codec = inferredProtobufCodec(frames);
    const out = frames.map((f) => codec.encode(f));
    expect(out[0]).toBeInstanceOf(Uint8Array);
    expect(out[1]).toEqual({ mismatch: 'v: string where the schema has int32' });
    expect(out[2]).toEqual({ mismatch: 'l[1]: null inside a list (a repeated field has no null)' });
    expect(out[3]).toEqual({ mismatch: 'b: a bigint beyond int64 where the schema has int64' });
    expect(out[4]).toEqual({
      mismatch: 'a-b: the key is not in the schema (not an identifier, which Protobuf field names must be)',
    });
    expect(out[5]).toEqual({
      mismatch: 'the frame: a list, where the schema has a message (Frame): an object with named fields',
    });
    expect(out[6]).toBeInstanceOf(Uint8Array);
  });

  it('Protobuf keeps -0 in a double field (not elided as the default 0; found by the property above, seed 1274936657)', () => {
    const frames = [{ price: -0 }, { price: 0 }];
    const codec = inferredProtobufCodec(frames);
    const { mismatches } = roundTrips(codec, frames);
    expect(mismatches).toEqual([]);
  });

  it('protobufjs reads our bytes with our printed .proto to the same values', () => {
    const frames = [
      {
        id: 1,
        name: 'a',
        price: 1.5,
        big: 1n << 60n,
        neg: -5,
        tags: ['x', 'y'],
        on: true,
        blob: new Uint8Array([1, 2, 3]),
        meta: { ok: true, n: 300 },
        items: [{ q: 1 }, { q: 2 }],
      },
      { id: 2, name: '', price: 0, neg: -(2 ** 40), tags: [], on: false, meta: { ok: false, n: 0 }, items: [] },
    ];
    const message = inferProtobuf(frames);
    const text = printProto(message);
    const type = protobuf.parse(text, { keepCase: true }).root.lookupType('wirescope.inferred.Frame');
    for (const f of frames) {
      const bytes = encodeProtobuf(message, f);
      if (!(bytes instanceof Uint8Array)) throw new Error(bytes.mismatch);
      const theirs = type.toObject(type.decode(bytes), { longs: String, bytes: Array, defaults: false });
      const ours = decodeProtobuf(message, bytes);
      const asTheirs = (v: unknown): unknown =>
        typeof v === 'bigint'
          ? String(v)
          : v instanceof Uint8Array
            ? Array.from(v)
            : Array.isArray(v)
              ? v.map(asTheirs)
              : v && typeof v === 'object'
                ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, asTheirs(x)]))
                : v;
      // protobufjs gives int64 as strings (longs: String) and leaves implicit-presence
      // defaults out (defaults: false); ours fills them in, as proto3 reads them.
      const mine = asTheirs(ours) as Record<string, unknown>;
      const isDefault = (x: unknown): boolean =>
        x === 0 ||
        x === '0' ||
        x === '' ||
        x === false ||
        (Array.isArray(x) && x.length === 0) ||
        (x !== null &&
          typeof x === 'object' &&
          Object.keys(x).every((k) => isDefault((x as Record<string, unknown>)[k])));
      const strip = (o: unknown): unknown =>
        o && typeof o === 'object' && !Array.isArray(o)
          ? Object.fromEntries(
              Object.entries(o)
                .filter(([, x]) => !isDefault(x))
                .map(([k, x]) => [k, strip(x)]),
            )
          : Array.isArray(o)
            ? o.map(strip)
            : o;
      expect(strip(theirs)).toEqual(
        strip({
          ...mine,
          big: mine.big === undefined ? undefined : String(mine.big),
          neg: mine.neg === undefined ? undefined : String(mine.neg),
        }),
      );
      expect(normalize(ours)).toEqual(normalize(f));
    }
  });

  it('a malformed Protobuf message fails with the offset, not a wrong value', () => {
    const message = inferProtobuf([{ s: 'hello' }]);
    const bytes = encodeProtobuf(message, { s: 'hello' }) as Uint8Array;
    expect(() => decodeProtobuf(message, bytes.subarray(0, 4))).toThrow(/offset 2/);
  });
});
