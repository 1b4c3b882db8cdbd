import fc from 'fast-check';
import { protobufjsRoot } from './protobuf-schema.js';

/**
 * Random messages of the test schema (helpers/protobuf-schema.ts, wtest.Everything) as a
 * plain model, and that model as protobufjs' fromObject and @bufbuild/protobuf's create
 * take it, so one random message can be encoded by either library.
 */
const Inner = protobufjsRoot().lookupType('wtest.Inner');

export interface InnerModel {
  label?: string;
  delta?: number;
  child?: InnerModel;
}

const int32 = fc.integer({ min: -0x80000000, max: 0x7fffffff });
const uint32 = fc.integer({ min: 0, max: 0xffffffff });
const int64 = fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n });
const uint64 = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });
const text = fc.string({ unit: 'grapheme', maxLength: 12 });
const float32 = fc.float({ noNaN: true });
const double = fc.double({ noNaN: true });

export const innerModel: fc.Arbitrary<InnerModel> = fc.letrec<{ inner: InnerModel }>((tie) => ({
  inner: fc.record(
    {
      label: text,
      delta: int32,
      child: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.constant(undefined), tie('inner')),
    },
    { requiredKeys: [] },
  ) as fc.Arbitrary<InnerModel>,
})).inner;

const scalarsModel = fc.record(
  {
    f_double: double,
    f_float: float32,
    f_int32: int32,
    f_int64: int64,
    f_uint32: uint32,
    f_uint64: uint64,
    f_sint32: int32,
    f_sint64: int64,
    f_fixed32: uint32,
    f_fixed64: uint64,
    f_sfixed32: int32,
    f_sfixed64: int64,
    f_bool: fc.boolean(),
    f_string: text,
    f_bytes: fc.uint8Array({ maxLength: 12 }),
  },
  { requiredKeys: [] },
);

const structValue = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  text,
  fc.boolean(),
  fc.constant(null),
);

export const model = fc.record(
  {
    scalars: scalarsModel,
    color: fc.integer({ min: 0, max: 3 }),
    choice: fc.oneof(fc.record({ name: text }), fc.record({ number: int64 }), fc.record({ inner: innerModel })),
    counts: fc.dictionary(text, int32, { maxKeys: 3 }),
    inners: fc.dictionary(int32.map(String), innerModel, { maxKeys: 3 }),
    packed_ints: fc.array(int32, { maxLength: 5 }),
    packed_sints: fc.array(int64, { maxLength: 5 }),
    packed_doubles: fc.array(double, { maxLength: 4 }),
    unpacked_ints: fc.array(uint32, { maxLength: 4 }),
    names: fc.array(text, { maxLength: 3 }),
    children: fc.array(innerModel, { maxLength: 3 }),
    colors: fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 4 }),
    at: fc.record({
      seconds: fc.bigInt({ min: -62135596800n, max: 253402300799n }),
      nanos: fc.integer({ min: 0, max: 999_999_999 }),
    }),
    took: fc.record({
      seconds: fc.bigInt({ min: -315576000000n, max: 315576000000n }),
      nanos: fc.integer({ min: 0, max: 999_999_999 }),
    }),
    extra: innerModel,
    maybe_int: int32,
    maybe_text: text,
    meta: fc.dictionary(text, structValue, { maxKeys: 3 }),
  },
  { requiredKeys: [] },
);
export type Model = typeof model extends fc.Arbitrary<infer T> ? T : never;

const longs = (v: unknown): unknown => (typeof v === 'bigint' ? String(v) : v);
function mapValues<T, U>(o: Record<string, T>, f: (v: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v)]));
}
function structFields(meta: Record<string, unknown>, snake: boolean): Record<string, unknown> {
  return mapValues(meta, (v) => {
    if (v === null) return snake ? { null_value: 0 } : { kind: { case: 'nullValue', value: 0 } };
    const kind = typeof v === 'number' ? 'number' : typeof v === 'string' ? 'string' : 'bool';
    return snake ? { [`${kind}_value`]: v } : { kind: { case: `${kind}Value`, value: v } };
  });
}

/** The model as protobufjs' fromObject takes it (snake_case, longs as strings). */
export function toProtobufjs(m: Model): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(m)) {
    if (v === undefined) continue;
    if (k === 'scalars') out[k] = mapValues(v as Record<string, unknown>, longs);
    else if (k === 'choice') Object.assign(out, mapValues(v as Record<string, unknown>, longs));
    else if (k === 'packed_sints') out[k] = (v as bigint[]).map(String);
    else if (k === 'at' || k === 'took')
      out[k] = { seconds: String((v as { seconds: bigint }).seconds), nanos: (v as { nanos: number }).nanos };
    else if (k === 'extra')
      out[k] = {
        type_url: 'type.googleapis.com/wtest.Inner',
        value: Inner.encode(Inner.fromObject(v as object)).finish(),
      };
    else if (k === 'maybe_int' || k === 'maybe_text') out[k] = { value: v };
    else if (k === 'meta') out[k] = { fields: structFields(v as Record<string, unknown>, true) };
    else out[k] = v;
  }
  return out;
}

const camel = (s: string): string => s.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
function innerInit(m: InnerModel): Record<string, unknown> {
  return { ...m, child: m.child ? innerInit(m.child) : undefined };
}

/** The model as @bufbuild/protobuf's create takes it (camelCase, bigints, oneof cases, unboxed wrappers). */
export function toBufbuild(m: Model): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(m)) {
    if (v === undefined) continue;
    const key = camel(k);
    if (k === 'scalars') out[key] = Object.fromEntries(Object.entries(v as object).map(([sk, sv]) => [camel(sk), sv]));
    else if (k === 'choice') {
      const [c, value] = Object.entries(v as object)[0];
      out.choice = { case: c, value: c === 'inner' ? innerInit(value as InnerModel) : value };
    } else if (k === 'inners') out[key] = mapValues(v as Record<string, InnerModel>, innerInit);
    else if (k === 'children') out[key] = (v as InnerModel[]).map(innerInit);
    else if (k === 'extra')
      out[key] = {
        typeUrl: 'type.googleapis.com/wtest.Inner',
        value: Inner.encode(Inner.fromObject(v as object)).finish(),
      };
    else if (k === 'meta') out[key] = { fields: structFields(v as Record<string, unknown>, false) };
    else out[key] = v;
  }
  return out;
}
