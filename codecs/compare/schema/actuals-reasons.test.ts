import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { frameValue } from '../compare.js';
import { schemaActuals } from './actuals.js';
import { inferredProtobufCodec } from './schema-codecs.js';
import { avroCodec } from './avro-codec.js';
import { main, type CliIo } from '../../cli/main.js';
import { repoPath } from '../../test/helpers/paths.js';

/**
 * `compare samples/order.cbor` said "Protobuf (inferred): does not fit — seq:
 * the key is not in the schema" (self-contradictory: the schema was inferred from that very
 * frame), and "Avro (inferred): does not fit — no frame has an Avro type". The cause is
 * seq = 18446744073709551615, a bigint beyond int64 (and beyond what Avro inference types): say so.
 */
const order = new Uint8Array(readFileSync(repoPath('samples/order.cbor')));
const protobufWhy = (values: unknown[], value: unknown) => {
  const out = inferredProtobufCodec(values).encode(value);
  return out instanceof Uint8Array ? null : out.mismatch;
};

describe('the inferred Protobuf schema says why a key has no field', () => {
  it('samples/order.cbor: seq is a bigint beyond int64', () => {
    const actuals = schemaActuals(frameValue(order).value);
    const proto = actuals.find((a) => a.codec === 'protobuf')!;
    expect(proto.bytes).toBeNull();
    expect(proto.why).toMatch(/^seq: a bigint beyond int64\b/);
    expect(proto.why).not.toMatch(/not in the schema/);
  });

  it('the CLI prints that reason', async () => {
    let stdout = '';
    const io: CliIo = { out: (t) => (stdout += t), err: () => {}, readFile: () => order, version: 'test' };
    expect(await main(['compare', 'samples/order.cbor', '--codecs', 'json', '--runs', '1'], io)).toBe(0);
    expect(stdout).toMatch(/^Protobuf \(inferred\): does not fit — seq: a bigint beyond int64/m);
  });

  it('a list of nulls or of lists (no field inferred) names the item, as a field that exists would', () => {
    expect(protobufWhy([{ a: 1, t: [null] }], { a: 1, t: [null] })).toBe(
      't[0]: null inside a list (a repeated field has no null)',
    );
    expect(protobufWhy([{ a: 1, t: [[1]] }], { a: 1, t: [[1]] })).toMatch(/^t\[0\]: a list inside a list/);
    // Nested messages too.
    expect(protobufWhy([{ m: { n: 2n ** 70n, k: 'x' } }], { m: { n: 2n ** 70n, k: 'x' } })).toMatch(
      /^m\.n: a bigint beyond int64/,
    );
  });

  it('a value that fits, in a key left out for other frames’ values, says what those were', () => {
    // Frame 1's t is a list of null (no field type); frame 2's t would fit an int32, but the schema has no t.
    expect(
      protobufWhy(
        [
          { a: 1, t: [null] },
          { a: 2, t: 5 },
        ],
        { a: 2, t: 5 },
      ),
    ).toBe(
      't: left out of the inferred schema (another value of this key: null inside a list (a repeated field has no null))',
    );
  });

  it('a key not in a loaded .proto still says so', async () => {
    const { loadedProtobufCodec } = await import('./schema-codecs.js');
    const out = loadedProtobufCodec('syntax = "proto3"; message M { int32 a = 1; }').encode({
      a: 1,
      seq: 2n ** 64n - 1n,
    });
    expect(out instanceof Uint8Array ? null : out.mismatch).toBe('seq: the key is not in the schema');
  });
});

describe('the inferred Avro schema says why a frame has no type', () => {
  it('samples/order.cbor: seq is a bigint, not "no frame has an Avro type"', () => {
    const avro = schemaActuals(frameValue(order).value).find((a) => a.codec === 'avro')!;
    expect(avro.bytes).toBeNull();
    expect(avro.why).toMatch(/^seq: a bigint \(18446744073709551615\)/);
  });

  it('the CLI prints that reason', async () => {
    let stdout = '';
    const io: CliIo = { out: (t) => (stdout += t), err: () => {}, readFile: () => order, version: 'test' };
    expect(await main(['compare', 'samples/order.cbor', '--codecs', 'json', '--runs', '1'], io)).toBe(0);
    expect(stdout).toMatch(/^Avro \(inferred\): does not fit — seq: a bigint \(18446744073709551615\)/m);
  });

  it('in a session where no frame has a type, each frame names the part that has none', async () => {
    // Bigints beyond int64 (a long holds the rest).
    const codec = avroCodec([{ a: [1, 2n ** 64n] }, { b: { c: -(2n ** 70n) } }]);
    expect(codec.encode({ a: [1, 2n ** 64n] })).toEqual({
      mismatch: expect.stringMatching(/^a\.1: a bigint \(18446744073709551616\) beyond the 64-bit range/),
    });
    expect(codec.encode({ b: { c: -(2n ** 70n) } })).toEqual({
      mismatch: expect.stringMatching(/^b\.c: a bigint \(-1180591620717411303424\) beyond/),
    });
  });
});
