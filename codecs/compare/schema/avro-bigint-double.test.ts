/**
 * A 64-bit integer (a bigint: CBOR / MessagePack beyond 2^53) where the
 * same field held a float elsewhere was left out ("v: bigint 9007199254852078 where the
 * schema has "double""): the merge took the widest number, a double, which rounds it. The
 * field is now the union ["double", "long"]: floats in the double, bigints in the long, every
 * value exact; the bytes equal avsc's for the same schema (avsc reads it with wrapUnions, its
 * two number branches being ambiguous unwrapped).
 */
import { Buffer } from 'node:buffer';
import avsc from 'avsc';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { describe, expect, it } from 'vitest';
import { avroCodec } from './avro-codec.js';
import { encodeAvro } from './avro-binary.js';
import { avroMismatch, inferAvroSchema, schemaJson } from './avro-schema.js';
import { runSessionComparison } from '../session/session.js';

const BIG = 9007199254852078n;

/** avsc's documented custom long (as avro-oracle.test.ts): bigints in, exact bigints out. */
const bigLong = avsc.types.LongType.__with({
  fromBuffer: (buf: Buffer) => buf.readBigInt64LE(),
  toBuffer: (n: number | bigint) => {
    const buf = Buffer.alloc(8);
    buf.writeBigInt64LE(BigInt(n));
    return buf;
  },
  fromJSON: (n: unknown) => BigInt(n as number),
  toJSON: (n: bigint) => Number(n),
  isValid: (n: unknown) => typeof n === 'bigint' || (typeof n === 'number' && Number.isInteger(n)),
  compare: (a: bigint, b: bigint) => (a === b ? 0 : a < b ? -1 : 1),
});
const avscType = (schema: unknown) =>
  avsc.Type.forSchema(
    schema as avsc.Schema,
    { wrapUnions: true, registry: { long: bigLong } } as unknown as Partial<avsc.ForSchemaOptions>,
  );

const encoded = (out: ReturnType<ReturnType<typeof avroCodec>['encode']>): Uint8Array => {
  if (!(out instanceof Uint8Array)) throw new Error(`does not fit: ${out.mismatch}`);
  return out;
};

describe('Avro: a bigint where the same field holds a float elsewhere', () => {
  it('a float then a bigint in one field: the field is ["double", "long"], both frames round-trip, bytes equal avsc', () => {
    const frames = [{ v: 1.5 }, { v: BIG }];
    const codec = avroCodec(frames);
    expect(JSON.parse(codec.schemaText!)).toEqual({
      type: 'record',
      fields: [{ name: 'v', type: ['double', 'long'] }],
    });
    const theirs = avscType(JSON.parse(codec.schemaText!));
    const wrapped = [{ v: { double: 1.5 } }, { v: { long: BIG } }];
    frames.forEach((f, i) => {
      const bytes = encoded(codec.encode(f));
      expect(codec.decode(bytes)).toEqual(f);
      expect(Buffer.from(bytes).equals(theirs.toBuffer(wrapped[i]))).toBe(true);
    });
    // An integer that arrived as a number is written in the double: a number back, exactly.
    expect(codec.decode(encoded(codec.encode({ v: 7 })))).toEqual({ v: 7 });
  });

  it('optional fields and lists: ["null", "double", "long"] and array items, same bytes as avsc', () => {
    const frames = [{ v: 2n ** 62n, l: [0.25] }, { l: [-(2n ** 60n), 3.75] }, { v: -1.25, l: [] }];
    const type = inferAvroSchema(frames)!;
    const schema = schemaJson(type);
    expect(schema).toEqual({
      type: 'record',
      fields: [
        { name: 'v', type: ['null', 'double', 'long'] },
        { name: 'l', type: { type: 'array', items: ['double', 'long'] } },
      ],
    });
    const theirs = avscType(schema);
    const wrapped = [
      { v: { long: 2n ** 62n }, l: [{ double: 0.25 }] },
      { v: null, l: [{ long: -(2n ** 60n) }, { double: 3.75 }] },
      { v: { double: -1.25 }, l: [] },
    ];
    frames.forEach((f, i) => {
      expect(avroMismatch(type, f)).toBeNull();
      expect(Buffer.from(encodeAvro(type, f)).equals(theirs.toBuffer(wrapped[i]))).toBe(true);
    });
    // Beyond int64 still does not fit, and says so.
    expect(avroMismatch(type, { v: 2n ** 64n, l: [] })).toMatch(
      /^v: bigint 18446744073709551616, beyond the 64-bit range of a long, where the schema has "long"/,
    );
  });

  it('without a float the field stays one long; without a bigint one double (as avsc)', () => {
    expect(schemaJson(inferAvroSchema([{ v: 1 }, { v: BIG }])!)).toEqual({
      type: 'record',
      fields: [{ name: 'v', type: 'long' }],
    });
    expect(schemaJson(inferAvroSchema([{ v: 1.5 }, { v: 2 ** 40 }])!)).toEqual({
      type: 'record',
      fields: [{ name: 'v', type: 'double' }],
    });
    // The bigint's long survives a merge with a number's long, so a later float still splits.
    expect(schemaJson(inferAvroSchema([{ v: BIG }, { v: 2 ** 40 }, { v: 0.5 }])!)).toEqual({
      type: 'record',
      fields: [{ name: 'v', type: ['double', 'long'] }],
    });
  });

  it('compare --session of the two CBOR frames: Avro keeps both', async () => {
    const cbor = new CborEncoder();
    const messages = [{ v: 1.5 }, { v: BIG }].map((v) => ({
      connectionId: 'c',
      direction: 'server-to-client' as const,
      opcode: 2,
      data: cbor.encode(v),
    }));
    const rows = await runSessionComparison(messages, { codecs: ['avro'], snappy: false });
    const total = rows.find((r) => r.connectionId === null && r.codec === 'avro')!;
    expect(total.leftReason).toBeNull();
    expect(total.messages).toBe(2);
  });
});
