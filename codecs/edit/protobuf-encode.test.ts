import { create, toBinary, toJsonString } from '@bufbuild/protobuf';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadSchema } from '../protobuf/schema/load.js';
import { type Model, model, toBufbuild } from '../test/helpers/protobuf-model.js';
import { bufbuildRegistry, protobufjsRoot, TEST_PROTO_FILE } from '../test/helpers/protobuf-schema.js';
import { forbidFunctionPerTest } from '../test/helpers/forbid-function.js';
import { protobufFromJson } from './protobuf-from-json.js';
import { rawProtobuf } from './protobuf-raw.js';

const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : 0x70626a;
const registry = bufbuildRegistry(protobufjsRoot());
const BufEverything = registry.getMessage('wtest.Everything')!;
const loaded = loadSchema([TEST_PROTO_FILE]);
if (!loaded.ok) throw new Error(loaded.error);
const schema = loaded.schema;
const toHex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const { forbid } = forbidFunctionPerTest();

function encodeJson(type: string, json: string): string {
  const r = protobufFromJson(schema, type, json);
  if (!r.ok) throw new Error(`${r.error.line}:${r.error.column}: ${r.error.message}\n${json}`);
  return toHex(r.bytes);
}

/** proto3 JSON spells a Duration whose nanos have the seconds' sign (as protoc requires): flip them to match. */
function sameSignDuration(m: Model): Model {
  const took = m.took;
  if (!took || took.seconds >= 0n || took.nanos === 0) return m;
  return { ...m, took: { seconds: took.seconds, nanos: -took.nanos } };
}

describe('proto3 JSON → bytes by reflection over the loaded schema', () => {
  it("equals @bufbuild/protobuf's encoding of the same message, over random messages", () => {
    let compared = 0;
    fc.assert(
      fc.property(model, (random: Model) => {
        const m = sameSignDuration(random);
        const message = create(BufEverything, toBufbuild(m) as never);
        const expected = toHex(toBinary(BufEverything, message));
        for (const useProtoFieldName of [false, true]) {
          const json = toJsonString(BufEverything, message, { registry, useProtoFieldName });
          expect(encodeJson('wtest.Everything', json), json).toBe(expected);
        }
        compared++;
      }),
      { seed: SEED, numRuns: 300, endOnFailure: true },
    );
    expect(compared).toBe(300);
  });

  it('uses no generated code (no new Function / eval) while encoding', () => {
    const json =
      '{"scalars": {"fInt64": "-5", "fBytes": "AQI="}, "color": "GREEN", "counts": {"a": 1}, "at": "1970-01-01T00:00:01Z"}';
    const calls = forbid();
    expect(encodeJson('wtest.Everything', json)).toMatch(/^0a/);
    expect(calls).toEqual([]);
  });

  it('accepts proto names, enum numbers, 64-bit numbers and string floats', () => {
    expect(encodeJson('wtest.Scalars', '{"f_int64": 5, "f_double": "NaN", "f_bool": false}')).toBe(
      '09000000000000f87f' + '2005', // field 1 (f_double) before field 4 (f_int64), as written by number
    );
    expect(encodeJson('wtest.Everything', '{"color": 2}')).toBe('1002');
    expect(encodeJson('wtest.Everything', '{"color": "COLOR_UNSPECIFIED", "name": ""}')).toBe('1a00');
  });

  it.each([
    ['{"nope": 1}', 1, 2, 'Everything has no field "nope"'],
    ['{\n  "color": "PINK"\n}', 2, 12, '"PINK" is not a value of enum Color'],
    ['{"scalars": {"fInt32": 3000000000}}', 1, 24, 'cannot hold 3000000000'],
    ['{"scalars": {"fBool": 1}}', 1, 23, 'takes true or false'],
    ['{"name": "a", "number": "1"}', 1, 15, 'members of one oneof'],
    ['{"packedInts": 1}', 1, 16, 'is repeated: a JSON array'],
    ['{"at": "yesterday"}', 1, 8, 'RFC 3339'],
    ['{"scalars": {"fBytes": "a$"}}', 1, 26, 'not a base64 character'],
    ['{"color": ', 1, 11, 'expected a JSON value'],
  ])('%j is refused at its line and column, no bytes', (json, line, column, message) => {
    const r = protobufFromJson(schema, 'wtest.Everything', json);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.message).toContain(message);
    expect([r.error.line, r.error.column]).toEqual([line, column]);
  });
});

describe('raw Protobuf: (field number, wire type, value) → bytes', () => {
  it('writes each wire type, nested messages and groups, in the order given', () => {
    const r = rawProtobuf([
      { field: 1, wire: 0, value: 150 },
      { field: 1, wire: 0, value: -1n },
      { field: 2, wire: 2, value: 'testing' },
      { field: 3, wire: 2, value: [{ field: 1, wire: 0, value: 150 }] },
      { field: 4, wire: 5, value: -1 },
      { field: 5, wire: 1, value: Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8) },
      { field: 6, wire: 3, value: [{ field: 1, wire: 0, value: 1 }] },
    ]);
    expect(r.ok && toHex(r.bytes)).toBe(
      '089601' +
        '08ffffffffffffffffff01' +
        '120774657374696e67' +
        '1a03089601' +
        '25ffffffff' +
        '290102030405060708' +
        '330801' +
        '34',
    );
  });

  it('names the path of a value its wire type cannot carry', () => {
    const r = rawProtobuf([{ field: 3, wire: 2, value: [{ field: 2, wire: 5, value: 2 ** 40 }] }]);
    expect(r).toEqual({ ok: false, error: 'field 3.2: I32 takes 4 bytes or a 32-bit integer', path: '3.2' });
    expect(rawProtobuf([{ field: 0, wire: 0, value: 1 }]).ok).toBe(false);
  });
});
