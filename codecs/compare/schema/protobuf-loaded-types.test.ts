/**
 * A loaded `.proto`'s every scalar type, enums and maps, written by wirescope's encoder
 * (protobuf-scalars.ts, protobuf-wire.ts) from the values a schema reading gives (enums by
 * name, maps as objects, 64-bit as numbers or bigints): protobufjs reads the bytes back to
 * the same values, and writes the same bytes from the same message.
 */
import { describe, expect, it } from 'vitest';
import { loadSchema } from '../../protobuf/schema/load.js';
import { loadedSchemaCodec } from './schema-codecs.js';

const PROTO = `syntax = "proto3";
package t;
enum Color { COLOR_UNSPECIFIED = 0; RED = 1; BLUE = 2; }
message All {
  int32 i32 = 1; int64 i64 = 2; uint32 u32 = 3; uint64 u64 = 4; sint32 s32 = 5; sint64 s64 = 6;
  fixed32 f32 = 7; fixed64 f64 = 8; sfixed32 sf32 = 9; sfixed64 sf64 = 10; float fl = 11; double db = 12;
  bool b = 13; string s = 14; bytes by = 15; Color color = 16; repeated Color colors = 17;
  map<string, int64> counts = 18; map<int32, Inner> inner = 19; repeated sint64 deltas = 20;
  oneof pick { string name = 21; Color zero = 22; }
}
message Inner { string v = 1; }`;

function setup() {
  const loaded = loadSchema([{ name: 't.proto', source: PROTO }]);
  if (!loaded.ok) throw new Error(loaded.error);
  return { codec: loadedSchemaCodec(loaded.schema, 't.All', PROTO), type: loaded.schema.root.lookupType('t.All') };
}

const value = {
  i32: -5,
  i64: -(2n ** 62n),
  u32: 4_000_000_000,
  u64: 2n ** 64n - 1n,
  s32: -100,
  s64: -(2n ** 60n),
  f32: 4_000_000_000,
  f64: 2n ** 63n + 5n,
  sf32: -7,
  sf64: -(2n ** 55n),
  fl: 1.5,
  db: -2.25,
  b: true,
  s: 'héllo',
  by: Uint8Array.of(1, 2, 3),
  color: 'BLUE',
  colors: ['RED', 'BLUE', 'COLOR_UNSPECIFIED'],
  counts: { a: 1, b: 2n ** 60n },
  inner: { '7': { v: 'x' }, '-1': { v: 'y' } },
  deltas: [1, -1, 2n ** 62n],
  zero: 'COLOR_UNSPECIFIED',
};

/** protobufjs' object with longs as strings and enums as names, bigints and numbers compared as strings. */
const asStrings = (v: unknown): unknown =>
  typeof v === 'bigint' || typeof v === 'number'
    ? String(v)
    : v instanceof Uint8Array
      ? Array.from(v, String)
      : Array.isArray(v)
        ? v.map(asStrings)
        : v && typeof v === 'object'
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, asStrings(x)]))
          : v;

describe('loaded .proto: every scalar type, enums, maps', () => {
  it('protobufjs reads our bytes to the same values and writes the same bytes', () => {
    const { codec, type } = setup();
    const out = codec.encode(value);
    if (!(out instanceof Uint8Array)) throw new Error(out.mismatch);
    const theirs = type.toObject(type.decode(out), { longs: String, enums: String, bytes: Array });
    expect(asStrings(theirs)).toEqual(asStrings(value));
    const written = type.encode(type.fromObject(asStrings(value) as Record<string, unknown>)).finish();
    // The same fields in field-number order: protobufjs writes map entries in its own key order, so compare decoded, then sizes.
    expect(written.length).toBe(out.length);
    // Our own decoder gives the values back (numbers within ±2^53, bigints beyond; enums by name).
    expect(asStrings(codec.decode(out))).toEqual(asStrings(value));
  });

  it('what the schema cannot hold is a mismatch naming the field', () => {
    const { codec } = setup();
    expect(codec.encode({ color: 'GREEN' })).toEqual({ mismatch: 'color: "GREEN" is not a value of enum t.Color' });
    expect(codec.encode({ u64: -1 })).toEqual({ mismatch: 'u64: int32 where the schema has uint64' });
    expect(codec.encode({ i32: 2 ** 40 })).toEqual({ mismatch: 'i32: int64 where the schema has int32' });
    expect(codec.encode({ inner: { x: { v: 'a' } } })).toEqual({
      mismatch: 'inner.x: the key "x" is not a int32 map key',
    });
    expect(codec.encode({ counts: { a: null } })).toEqual({
      mismatch: "counts.a: null as a map value (a map entry's value has no null)",
    });
    expect(codec.encode({ counts: [1] })).toEqual({ mismatch: 'counts: a list where the schema has a map' });
  });
});
