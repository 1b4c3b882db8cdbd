/**
 * An Avro long holds any 64-bit integer (README): a CBOR / MessagePack integer beyond 2^53
 * arrives as a bigint and is written as a long, decoding to the same value (a bigint beyond
 * ±2^53); beyond the int64 range it does not fit, and says so. It was capped at ±2^52: a
 * bigint had no Avro type at all (`compare big-int.cbor`, `compare --session bigint.har`).
 */
import { describe, expect, it } from 'vitest';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { avroCodec } from './avro-codec.js';
import { decodeAvro, encodeAvro } from './avro-binary.js';
import { schemaActuals } from './actuals.js';
import { frameValue } from '../compare.js';
import { runSessionComparison } from '../session/session.js';
import { main, type CliIo } from '../../cli/main.js';

// big-int.cbor: {a: 2^60, b: -2^60, c: 5}, the integers as CBOR major types 0 / 1 with 8-byte arguments.
const BIG_INT_CBOR = Uint8Array.from(
  Buffer.from('b9000361611b10000000000000006162' + '3b0fffffffffffffff61630' + '5', 'hex'),
);
const EXPECTED = { a: 2n ** 60n, b: -(2n ** 60n), c: 5 };

const encoded = (out: ReturnType<ReturnType<typeof avroCodec>['encode']>): Uint8Array => {
  if (!(out instanceof Uint8Array)) throw new Error(`does not fit: ${out.mismatch}`);
  return out;
};

describe('Avro long: the whole int64 range', () => {
  it('a frame of integers beyond 2^53 decodes to bigints and round-trips through Avro exactly', () => {
    const value = frameValue(BIG_INT_CBOR).value;
    expect(value).toEqual(EXPECTED);
    const codec = avroCodec([value]);
    expect(JSON.parse(codec.schemaText!)).toEqual({
      type: 'record',
      fields: [
        { name: 'a', type: 'long' },
        { name: 'b', type: 'long' },
        { name: 'c', type: 'int' },
      ],
    });
    expect(codec.decode(encoded(codec.encode(value)))).toEqual(EXPECTED);
    const avro = schemaActuals(value).find((a) => a.codec === 'avro')!;
    expect(avro.why).toBeNull();
    expect(avro.bytes).toBe(9 + 9 + 1);
  });

  it('the int64 limits round-trip; numbers stay numbers within ±2^53 and bigints beyond; beyond int64 does not fit', () => {
    const frames = [{ n: 1 }, { n: 2n ** 63n - 1n }];
    const codec = avroCodec(frames);
    for (const n of [2n ** 63n - 1n, -(2n ** 63n), 2n ** 53n, -(2n ** 53n) - 1n, 0n])
      expect(codec.decode(encoded(codec.encode({ n }))), String(n)).toEqual({
        n: n >= -(2n ** 53n) + 1n && n <= 2n ** 53n - 1n ? Number(n) : n,
      });
    for (const n of [1, -7, 2 ** 40, Number.MAX_SAFE_INTEGER])
      expect(codec.decode(encoded(codec.encode({ n })))).toEqual({ n });
    expect(codec.encode({ n: 2n ** 63n })).toEqual({
      mismatch: expect.stringMatching(
        /^n: bigint 9223372036854775808, beyond the 64-bit range of a long, where the schema has "long"/,
      ),
    });
    // A frame whose only integer is beyond int64 has no type: it says why, naming the key.
    expect(avroCodec([{ n: 2n ** 64n }]).encode({ n: 2n ** 64n })).toEqual({
      mismatch: 'n: a bigint (18446744073709551616) beyond the 64-bit range of an Avro long',
    });
  });

  it('a varint of more than 64 bits is an error at its offset, not a wrapped value', () => {
    const bytes = Uint8Array.of(...new Array(9).fill(0xff), 0x7f);
    expect(() => decodeAvro({ kind: 'long' }, bytes)).toThrow('Avro: offset 0: a varint beyond 64 bits');
    expect(decodeAvro({ kind: 'long' }, encodeAvro({ kind: 'long' }, -(2n ** 63n)))).toBe(-(2n ** 63n));
  });

  it('a session of such frames keeps them in the Avro row', async () => {
    const data = new CborEncoder().encode(EXPECTED);
    const rows = await runSessionComparison(
      [0, 1].map(() => ({ connectionId: 'c', direction: 'server-to-client' as const, opcode: 2, data })),
      { codecs: ['avro'] },
    );
    const total = rows.find((r) => r.connectionId === null)!;
    expect(total.leftReason).toBeNull();
    expect(total.messages).toBe(2);
  });

  it('wirescope compare big-int.cbor: Avro fits', async () => {
    let stdout = '';
    const io: CliIo = { out: (t) => (stdout += t), err: () => {}, readFile: () => BIG_INT_CBOR, version: 'test' };
    expect(await main(['compare', 'big-int.cbor', '--codecs', 'json', '--runs', '1'], io)).toBe(0);
    expect(stdout).toMatch(/^Avro \(inferred\), real: 19 bytes/m);
  });
});
