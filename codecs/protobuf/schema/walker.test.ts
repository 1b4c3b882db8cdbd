import { describe, expect, test } from 'vitest';
import { fromJson, toBinary } from '@bufbuild/protobuf';
import { loadSchema, rankTypes, schemaWalker, lookupMessage, describeFit } from './index.js';
import { SpanIndex } from '../../core/span-index.js';
import { bufbuildRegistry, normalize, protobufjsRoot, TEST_PROTO_FILE } from '../../test/helpers/protobuf-schema.js';

/** Schema loading, the walker on hand-written messages, and ranking types by fit. */
const root = protobufjsRoot();
const Everything = root.lookupType('wtest.Everything');

function schema() {
  const loaded = loadSchema([TEST_PROTO_FILE]);
  if (!loaded.ok) throw new Error(loaded.error);
  return loaded.schema;
}

function walk(type: string, bytes: Uint8Array): SpanIndex {
  return new SpanIndex(bytes, schemaWalker(lookupMessage(schema(), type)!));
}

describe('loadSchema', () => {
  test('lists the message types, map entries and google.protobuf left out', () => {
    expect(schema().messageTypes).toEqual(['wtest.Inner', 'wtest.Scalars', 'wtest.Everything']);
  });

  test('resolves imports among the files given', () => {
    const a = {
      name: 'api/a.proto',
      source: 'syntax = "proto3"; package p; import "api/b.proto"; message A { B b = 1; }',
    };
    const b = { name: 'api/b.proto', source: 'syntax = "proto3"; package p; message B { string s = 1; }' };
    const loaded = loadSchema([a, b]);
    expect(loaded.ok).toBe(true);
    if (loaded.ok) expect(loaded.schema.messageTypes).toEqual(['p.A', 'p.B']);
  });

  test('a missing import is an error naming the file and the import', () => {
    const a = { name: 'a.proto', source: 'syntax = "proto3"; import "b.proto"; message A { B b = 1; }' };
    expect(loadSchema([a])).toEqual({
      ok: false,
      error: expect.stringMatching(/a\.proto: import "b\.proto" is not among the loaded files/),
    });
  });

  test('a syntax error names the file and the line', () => {
    const a = { name: 'bad.proto', source: 'syntax = "proto3";\nmessage A {\n  int32 x = ;\n}' };
    expect(loadSchema([a])).toEqual({ ok: false, error: expect.stringMatching(/bad\.proto, line 3/) });
  });

  test('an unresolved type is an error, not a throw', () => {
    const loaded = loadSchema([{ name: 'a.proto', source: 'syntax = "proto3"; message A { Missing m = 1; }' }]);
    expect(loaded.ok).toBe(false);
    if (!loaded.ok) expect(loaded.error).toMatch(/Missing/);
  });
});

describe('the schema walker', () => {
  const registry = bufbuildRegistry(root);
  const bufEverything = registry.getMessage('wtest.Everything')!;
  const json = {
    scalars: { fInt32: -5, fSint64: '-9007199254740993', fFloat: 1.5, fString: 'hé', fBool: true },
    color: 'BLUE',
    inner: { label: 'x', delta: -3 },
    counts: { a: 1, b: 2 },
    inners: { '7': { label: 'seven' } },
    packedInts: [1, -2, 300],
    unpackedInts: [4, 5],
    at: '2024-05-06T07:08:09.123Z',
    took: '1.500s',
    maybeInt: 42,
    meta: { k: [1, 'two', null, { deep: true }] },
    extra: { '@type': 'type.googleapis.com/wtest.Inner', label: 'in any' },
  };
  const bytes = toBinary(bufEverything, fromJson(bufEverything, json, { registry }));

  test('values equal protobufjs decode + toObject', () => {
    const index = walk('wtest.Everything', bytes);
    expect(index.error).toBeNull();
    const expected = Everything.toObject(Everything.decode(bytes), { enums: String, bytes: String });
    expect(normalize(index.value(0))).toEqual(normalize(expected));
  });

  test('field names, enums by name and well-known types in the previews', () => {
    const index = walk('wtest.Everything', bytes);
    const labels = new Map<string, string>();
    for (let id = 0; id < index.store.size; id++) {
      const key = index.keyOf(id);
      if (key >= 0 && index.store.parent[id] === 0)
        labels.set(String(index.walker.preview!(index, key, 80)), index.walker.preview!(index, id, 80));
    }
    expect(labels.get('color')).toBe('BLUE (3)');
    expect(labels.get('at')).toBe('2024-05-06T07:08:09.123Z');
    expect(labels.get('took')).toBe('1.5s');
    expect(labels.get('maybe_int')).toBe('42');
    expect(labels.get('meta')).toBe('{"k":[1,"two",null,{"deep":true}]}');
    expect(labels.get('extra')).toBe('Any type.googleapis.com/wtest.Inner');
  });

  test('a oneof member says which oneof it is in', () => {
    const index = walk('wtest.Everything', bytes);
    const inner = [...Array(index.store.size).keys()].find(
      (id) => index.store.parent[id] === 0 && index.walker.preview!(index, id, 40) === 'inner',
    )!;
    expect(index.walker.describe!(index, inner)).toBe('inner = 5 (oneof choice)');
    expect(index.walker.details!(index, inner)).toMatchObject({ name: 'inner', oneof: 'choice' });
  });

  test("an Any's value is walked as the type its URL names", () => {
    const index = walk('wtest.Everything', bytes);
    const anyValue = [...Array(index.store.size).keys()].find((id) =>
      index.walker.describe!(index, id).startsWith('Any value: Inner'),
    );
    expect(anyValue).toBeDefined();
    const label = index.store.firstChild[anyValue!];
    expect(index.walker.preview!(index, label, 40)).toBe('label');
  });

  test('unknown fields are kept with their raw reading', () => {
    // Everything's bytes read as Inner: field 1 (scalars) is a message where Inner wants a string.
    const extra = new Uint8Array([...bytes, 0xc0, 0x3e, 0x05]); // field 1000 varint 5
    const index = walk('wtest.Everything', extra);
    expect(index.error).toBeNull();
    const last = index.store.size - 1;
    expect(index.walker.describe!(index, last - 1)).toBe('unknown field 1000');
    expect(index.value(last)).toBe(5);
  });

  test('a truncated frame keeps the fields before the cut, with the offset', () => {
    const cut = bytes.subarray(0, bytes.length - 3);
    const index = walk('wtest.Everything', cut);
    expect(index.error?.offset).toBeGreaterThan(0);
    expect(index.error!.offset).toBeLessThanOrEqual(cut.length);
    expect((index.value(0) as Record<string, unknown>).color).toBe('BLUE');
  });
});

describe('rankTypes', () => {
  test('picks the type the frame was written as', () => {
    const Scalars = root.lookupType('wtest.Scalars');
    const bytes = Scalars.encode(
      Scalars.fromObject({ f_double: 2.5, f_string: 'abc', f_fixed32: 7, f_bool: true }),
    ).finish();
    const ranked = rankTypes(schema(), bytes);
    expect(ranked[0].type).toBe('wtest.Scalars');
    expect(describeFit(ranked[0])).toMatch(/reads whole, 4 known fields/);
  });

  test('a frame no type reads whole ranks them all as not whole, and nothing throws', () => {
    const ranked = rankTypes(schema(), new Uint8Array([0x0a, 0x20, 0x01]));
    expect(ranked.every((f) => !f.whole)).toBe(true);
  });
});

describe('fit details', () => {
  const proto2 = {
    name: 'p2.proto',
    source:
      'syntax = "proto2"; package p2; message Need { required int32 id = 1; optional string name = 2; } message Loose { optional int32 id = 1; optional string name = 2; } message Other { optional fixed32 id = 1; }',
  };

  test('a missing required field ranks a type below one without it; a wire-type mismatch below both', () => {
    const loaded = loadSchema([proto2]);
    if (!loaded.ok) throw new Error(loaded.error);
    const ranked = rankTypes(loaded.schema, new Uint8Array([0x12, 0x01, 0x61])); // name = "a", no id
    expect(ranked.map((f) => f.type)).toEqual(['p2.Loose', 'p2.Need', 'p2.Other']);
    expect(ranked[1].missingRequired).toBe(1);
    const withId = rankTypes(loaded.schema, new Uint8Array([0x08, 0x07])); // id = 7 as a varint
    expect(withId.at(-1)).toMatchObject({ type: 'p2.Other', wireMismatches: 1 });
  });
});

describe('hostile nesting', () => {
  test('messages nested deeper than the limit are kept as bytes with a warning, nothing thrown', () => {
    // Inner { child = 3 } nested 150 levels, innermost label "x".
    let bytes = new Uint8Array([0x0a, 0x01, 0x78]);
    for (let i = 0; i < 150; i++) {
      const len = bytes.length;
      const head = len < 128 ? [0x1a, len] : [0x1a, (len & 0x7f) | 0x80, len >> 7];
      bytes = new Uint8Array([...head, ...bytes]);
    }
    const index = walk('wtest.Inner', bytes);
    expect(index.error).toBeNull();
    expect(index.warnings.map((w) => w.code)).toContain('nesting-too-deep');
    expect(() => index.value(0)).not.toThrow();
  });
});
