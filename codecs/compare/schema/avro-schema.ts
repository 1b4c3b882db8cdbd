/**
 * wirescope's own Avro schema inference, with no code generation (avsc
 * compiles its record types with `new Function`, which extension pages forbid). It makes
 * the decisions avsc's `Type.forValue` + `Type.forTypes` made when wirescope called them
 * (avsc stays the oracle in the tests):
 * - per value: null, boolean, string, bytes (Uint8Array); numbers as int (32-bit), long
 *   (|n| < 2^52) or double (anything else, -0, NaN, ±Infinity) — the value hook wirescope
 *   gave avsc; a bigint in the int64 range (a CBOR / MessagePack integer beyond 2^53) as
 *   long, beyond it none (the oracle test gives avsc a bigint long type for these);
 *   an array's items merged; an object is a record, or a map when a key is not an
 *   Avro name; an empty array is array<null>, a sentinel that merging drops;
 * - merging: types grouped in buckets (null, boolean, number, string, bytes, array,
 *   object) in order of first appearance, one type per bucket (the widest number, except
 *   that a bigint's long beside a double makes both branches: ["double", "long"]; arrays
 *   merge their items; records merge field by field, a field some records lack becomes
 *   nullable with default null, its null branch swapped to the front; a map anywhere makes
 *   the whole bucket a map of every value type); several buckets make a union.
 * Differences from avsc as wirescope called it (documented in README): an empty list in one
 * frame and a non-empty one in another gives array<items> (avsc, given fresh options per
 * frame, did not recognize the other frame's sentinel and made the items nullable); values
 * outside the JSON value model (a duplicate-key map, a bigint beyond int64, undefined) have
 * no type (avsc made a record of a class instance's own fields); a bigint and a float in the
 * same place make ["double", "long"] (avsc's forTypes made a double, which rounds the bigint;
 * avsc reads that union only with `wrapUnions`, its two number branches being ambiguous).
 */
import { isRecord } from '../features.js';
import { EntriesMap, ExtValue, SimpleValue, TaggedValue } from '../../core/values.js';

export type AvroType =
  | { readonly kind: 'null' | 'boolean' | 'int' | 'long' | 'double' | 'string' | 'bytes' }
  /** A long inferred from a bigint: merged with a double it stays a branch of its own (BIG_LONG). */
  | { readonly kind: 'long'; readonly fromBigInt: true }
  | {
      readonly kind: 'array';
      readonly items: AvroType /** The type of an empty list (merging drops it). */;
      readonly empty?: true;
    }
  | { readonly kind: 'map'; readonly values: AvroType }
  | { readonly kind: 'record'; readonly fields: readonly AvroField[] }
  | { readonly kind: 'union'; readonly branches: readonly AvroType[] };

export interface AvroField {
  readonly name: string;
  readonly type: AvroType;
  /** Default null: the field may be absent from a value (written as its null branch). */
  readonly optional: boolean;
}

export type Bucket = 'null' | 'boolean' | 'number' | 'string' | 'buffer' | 'array' | 'object';

const NULL: AvroType = { kind: 'null' };
const PRIMITIVES = new Map<string, AvroType>(
  ['null', 'boolean', 'int', 'long', 'double', 'string', 'bytes'].map((k) => [
    k,
    k === 'null' ? NULL : ({ kind: k } as AvroType),
  ]),
);
const primitive = (kind: 'boolean' | 'int' | 'long' | 'double' | 'string' | 'bytes'): AvroType => PRIMITIVES.get(kind)!;
/**
 * The type of a bigint (a CBOR / MessagePack integer beyond ±2^53): a long that a double
 * cannot stand in for. Where the same place holds a float elsewhere, the widest number (a
 * double) would round it, so the merge keeps both as the union ["double", "long"]
 * ({v: 1.5} then {v: 9007199254852078} left the second frame out).
 */
const BIG_LONG: AvroType = { kind: 'long', fromBigInt: true };
const isBigLong = (t: AvroType): boolean => t.kind === 'long' && 'fromBigInt' in t;

/** avsc's (and the Avro spec's) name pattern: keys that are not names make a map. */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const I32 = 2 ** 31;
/**
 * Integers from here on are inferred as double, as before (avsc's long was a JS number,
 * zigzag-doubled: beyond ±2^52 it came back changed). avro-binary.ts writes any long exactly.
 */
export const LONG_INFERENCE_LIMIT = 2 ** 52;

/** An Avro long is a signed 64-bit integer. */
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;
export const isLongBigInt = (v: bigint): boolean => v >= LONG_MIN && v <= LONG_MAX;

export class NoAvroType extends Error {}

/** The type of one value (avsc `Type.forValue` with wirescope's number hook); throws NoAvroType. */
export function typeOfValue(value: unknown): AvroType {
  switch (typeof value) {
    case 'number':
      if (Number.isInteger(value) && !Object.is(value, -0))
        return primitive(
          value >= -I32 && value < I32 ? 'int' : Math.abs(value) < LONG_INFERENCE_LIMIT ? 'long' : 'double',
        );
      return primitive('double');
    case 'string':
      return primitive('string');
    case 'boolean':
      return primitive('boolean');
    case 'bigint':
      if (isLongBigInt(value)) return BIG_LONG;
      throw new NoAvroType(`cannot infer type from a bigint (${value}) beyond the 64-bit range of an Avro long`);
    case 'object':
      break;
    default:
      throw new NoAvroType(`cannot infer type from ${typeof value}`);
  }
  if (value === null) return NULL;
  if (Array.isArray(value)) {
    if (!value.length) return emptyArray();
    return { kind: 'array', items: mergeTypes(value.map(typeOfValue)) };
  }
  if (value instanceof Uint8Array) return primitive('bytes');
  if (!isRecord(value)) throw new NoAvroType(`cannot infer type from ${notPlainText(value)}`);
  const keys = Object.keys(value);
  if (keys.some((k) => !NAME.test(k)))
    return { kind: 'map', values: mergeTypes(keys.map((k) => typeOfValue(value[k]))) };
  return { kind: 'record', fields: keys.map((k) => ({ name: k, type: typeOfValue(value[k]), optional: false })) };
}

const emptyArray = (): AvroType => ({ kind: 'array', items: NULL, empty: true });

export function typeBucket(type: AvroType): Bucket {
  switch (type.kind) {
    case 'int':
    case 'long':
    case 'double':
      return 'number';
    case 'bytes':
      return 'buffer';
    case 'map':
    case 'record':
      return 'object';
    case 'union':
      throw new TypeError('a union has no bucket');
    default:
      return type.kind;
  }
}

/** The bucket a value would take in a union (avsc's getValueBucket); null when none. */
export function valueBucket(value: unknown): Bucket | null {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return 'boolean';
    case 'number':
    case 'bigint':
      return 'number';
    case 'string':
      return 'string';
    case 'object':
      if (Array.isArray(value)) return 'array';
      if (value instanceof Uint8Array) return 'buffer';
      return 'object';
    default:
      return null;
  }
}

const NUMBER_ORDER = ['int', 'long', 'double'];

const unionIndex = new WeakMap<AvroType, Map<Bucket | 'bigint', number>>();
/**
 * The branch of `union` a value is written in (-1: none): the branch of the value's bucket
 * (avsc's rule, one branch per bucket), except that a bigint takes the long where the number
 * bucket has a double and a long (mergeBucket). The checker and the encoder both ask here.
 */
export function unionBranch(union: Extract<AvroType, { kind: 'union' }>, value: unknown): number {
  let byBucket = unionIndex.get(union);
  if (!byBucket) {
    byBucket = new Map();
    for (let i = 0; i < union.branches.length; i++) {
      const b = union.branches[i];
      const bucket = typeBucket(b);
      if (bucket === 'number' && union.branches.some((o) => o.kind === 'double') && b.kind === 'long')
        byBucket.set('bigint', i);
      else byBucket.set(bucket, i);
    }
    unionIndex.set(union, byBucket);
  }
  if (typeof value === 'bigint' && byBucket.has('bigint')) return byBucket.get('bigint')!;
  return byBucket.get(valueBucket(value) as Bucket) ?? -1;
}

/** One type that holds values of every type given (avsc `Type.forTypes`). */
export function mergeTypes(types: readonly AvroType[]): AvroType {
  if (!types.length) throw new RangeError('no types to merge');
  if (types.length === 1) return types[0];
  const buckets = new Map<Bucket, AvroType[]>();
  for (const t of types) {
    for (const u of t.kind === 'union' ? t.branches : [t]) {
      const b = typeBucket(u);
      const list = buckets.get(b);
      if (list) list.push(u);
      else buckets.set(b, [u]);
    }
  }
  const merged: AvroType[] = [];
  for (const [bucket, list] of buckets) {
    const t = list.length === 1 ? list[0] : mergeBucket(bucket, list);
    // The number bucket may keep two branches (a double and a bigint's long).
    merged.push(...(t.kind === 'union' ? t.branches : [t]));
  }
  return merged.length === 1 ? merged[0] : { kind: 'union', branches: merged };
}

function mergeBucket(bucket: Bucket, list: AvroType[]): AvroType {
  switch (bucket) {
    case 'number': {
      let widest = list[0];
      for (const t of list) if (NUMBER_ORDER.indexOf(t.kind) > NUMBER_ORDER.indexOf(widest.kind)) widest = t;
      if (!list.some(isBigLong)) return widest;
      // A bigint rounds in a double and a float does not fit a long: both branches, each value
      // written exactly in its own (Avro allows one long and one double in a union). Without a
      // double, the long holds every integer (the bigint's long, so a later double still splits).
      return widest.kind === 'double' ? { kind: 'union', branches: [primitive('double'), BIG_LONG] } : BIG_LONG;
    }
    case 'array': {
      const real = list.filter((t) => !(t.kind === 'array' && t.empty));
      if (!real.length) return list[0];
      return { kind: 'array', items: mergeTypes(real.map((t) => (t as { items: AvroType }).items)) };
    }
    case 'object':
      return mergeObjects(list);
    default:
      // null, boolean, string, bytes: all of a bucket are the same type.
      return list[0];
  }
}

function mergeObjects(list: AvroType[]): AvroType {
  if (list.some((t) => t.kind === 'map')) {
    const all: AvroType[] = [];
    for (const t of list) {
      if (t.kind === 'map') all.push(t.values);
      else if (t.kind === 'record') for (const f of t.fields) all.push(f.type);
    }
    return { kind: 'map', values: mergeTypes(all) };
  }
  const byName = new Map<string, { types: AvroType[]; optional: boolean }>();
  for (const t of list) {
    if (t.kind !== 'record') continue;
    for (const f of t.fields) {
      const entry = byName.get(f.name);
      if (entry) {
        entry.types.push(f.type);
        entry.optional ||= f.optional;
      } else byName.set(f.name, { types: [f.type], optional: f.optional });
    }
  }
  const fields: AvroField[] = [];
  for (const [name, entry] of byName) {
    let optional = entry.optional;
    if (entry.types.length < list.length && !optional) {
      // Some records lack the field: it becomes nullable, absent = null.
      entry.types.unshift(NULL);
      optional = true;
    }
    let type = mergeTypes(entry.types);
    if (optional && type.kind === 'union' && type.branches[0].kind !== 'null') {
      // The default's branch goes first (avsc swaps it with the first branch).
      const branches = [...type.branches];
      const i = branches.findIndex((b) => b.kind === 'null');
      if (i > 0) [branches[0], branches[i]] = [branches[i], branches[0]];
      type = { kind: 'union', branches };
    }
    fields.push({ name, type, optional });
  }
  return { kind: 'record', fields };
}

/** The schema as Avro JSON, as avsc's `type.schema()` prints it (anonymous records, no defaults). */
export function schemaJson(type: AvroType): unknown {
  switch (type.kind) {
    case 'array':
      return { type: 'array', items: schemaJson(type.items) };
    case 'map':
      return { type: 'map', values: schemaJson(type.values) };
    case 'record':
      return { type: 'record', fields: type.fields.map((f) => ({ name: f.name, type: schemaJson(f.type) })) };
    case 'union':
      return type.branches.map(schemaJson);
    default:
      return type.kind;
  }
}

const describe = (v: unknown): string =>
  v === null
    ? 'null'
    : v === undefined
      ? 'undefined (no key)'
      : Array.isArray(v)
        ? 'a list'
        : typeof v === 'bigint'
          ? `bigint ${v}`
          : v instanceof Uint8Array
            ? 'bytes'
            : typeof v === 'number'
              ? Object.is(v, -0)
                ? '-0'
                : `number ${v}`
              : typeof v;

const fieldNames = new WeakMap<AvroType, ReadonlySet<string>>();
/** A record's field names as a set (built once per record type). */
export function namesOf(record: Extract<AvroType, { kind: 'record' }>): ReadonlySet<string> {
  let names = fieldNames.get(record);
  if (!names) fieldNames.set(record, (names = new Set(record.fields.map((f) => f.name))));
  return names;
}

const INT64 = 2 ** 63;

/** A value a long holds: an integral number below 2^63 in magnitude (not -0), or a bigint in the int64 range. */
const fitsLong = (v: unknown): boolean =>
  typeof v === 'bigint'
    ? isLongBigInt(v)
    : typeof v === 'number' && Number.isInteger(v) && Math.abs(v) < INT64 && !Object.is(v, -0);

/**
 * Null when `value` fits `type` (what the encoder can write and the decoder give back),
 * else the first path that does not and why. Keys a record lacks are mismatches (avsc's
 * `noUndeclaredFields`: they would otherwise be dropped without a word). Unlike avsc, -0
 * does not fit int / long (it would come back 0), and a long holds any 64-bit integer
 * (a number or a bigint; it decodes as a number within ±2^53, a bigint beyond).
 */
export function avroMismatch(type: AvroType, value: unknown): string | null {
  const path: string[] = [];
  const fail = (t: AvroType, v: unknown, why?: string): string =>
    `${path.join('.') || 'the frame'}: ${why ?? describe(v)} where the schema has ${JSON.stringify(schemaJson(t))}`.slice(
      0,
      300,
    );
  const check = (t: AvroType, v: unknown): string | null => {
    switch (t.kind) {
      case 'null':
        return v === null ? null : fail(t, v);
      case 'boolean':
        return typeof v === 'boolean' ? null : fail(t, v);
      case 'int':
        return typeof v === 'number' && v === (v | 0) && !Object.is(v, -0) ? null : fail(t, v);
      case 'long':
        return fitsLong(v)
          ? null
          : fail(t, v, typeof v === 'bigint' ? `bigint ${v}, beyond the 64-bit range of a long,` : undefined);
      case 'double':
        return typeof v === 'number' ? null : fail(t, v);
      case 'string':
        return typeof v === 'string' ? null : fail(t, v);
      case 'bytes':
        return v instanceof Uint8Array ? null : fail(t, v);
      case 'array': {
        if (!Array.isArray(v)) return fail(t, v);
        for (let i = 0; i < v.length; i++) {
          path.push(String(i));
          const why = check(t.items, v[i]);
          path.pop();
          if (why) return why;
        }
        return null;
      }
      case 'map': {
        if (!isRecord(v)) return fail(t, v);
        for (const k of Object.keys(v)) {
          path.push(k);
          const why = check(t.values, v[k]);
          path.pop();
          if (why) return why;
        }
        return null;
      }
      case 'record': {
        if (!isRecord(v)) return fail(t, v);
        const names = namesOf(t);
        for (const k of Object.keys(v))
          if (!names.has(k)) return fail(t, v, `key ${JSON.stringify(k)} is not in the record`);
        for (const f of t.fields) {
          const x = v[f.name];
          if (x === undefined && f.optional) continue;
          path.push(f.name);
          const why = check(f.type, x);
          path.pop();
          if (why) return why;
        }
        return null;
      }
      case 'union': {
        const i = unionBranch(t, v);
        return i >= 0 ? check(t.branches[i], v) : fail(t, v);
      }
    }
  };
  return check(type, value);
}

/**
 * Why `value` has no Avro type, naming the part that has none (`seq: a bigint (…)`), or null
 * when it has one: what a frame says when no frame gave the schema a type
 * (it said "no frame has an Avro type" for the very frame it was given).
 */
/**
 * What a non-plain object of the value model is, in the user's terms: never its class's name,
 * which a minified build turns into `pe`.
 */
function notPlainText(value: object): string {
  if (value instanceof EntriesMap) return 'a map with a key twice (duplicate keys)';
  if (value instanceof Map) return 'a map whose keys are not all text';
  if (value instanceof TaggedValue) return `a tagged value (tag ${value.tag})`;
  if (value instanceof ExtValue) return `an extension value (type ${value.type})`;
  if (value instanceof SimpleValue) return `a simple value (${value.value})`;
  return 'a value that is not a plain object';
}

export function whyNoAvroType(value: unknown): string | null {
  const path: string[] = [];
  const at = (): string => path.join('.') || 'the frame';
  const walk = (v: unknown): string | null => {
    switch (typeof v) {
      case 'number':
      case 'string':
      case 'boolean':
        return null;
      case 'bigint':
        return isLongBigInt(v) ? null : `${at()}: a bigint (${v}) beyond the 64-bit range of an Avro long`;
      case 'object':
        break;
      default:
        return `${at()}: ${v === undefined ? 'undefined' : typeof v}, which has no Avro type`;
    }
    if (v === null || v instanceof Uint8Array) return null;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        path.push(String(i));
        const why = walk(v[i]);
        path.pop();
        if (why) return why;
      }
      return null;
    }
    if (!isRecord(v)) return `${at()}: ${notPlainText(v)}, which has no Avro type`;
    for (const k of Object.keys(v)) {
      path.push(k);
      const why = walk(v[k]);
      path.pop();
      if (why) return why;
    }
    return null;
  };
  try {
    return walk(value);
  } catch (e) {
    if (isStackOverflow(e)) return 'nested too deep to infer a type (stack overflow)';
    throw e;
  }
}

/** Frames whose types are merged first; the rest are checked and merged in only when they do not fit. */
export const AVRO_SAMPLE = 200;
const AVRO_ROUNDS = 4;
const AVRO_PER_ROUND = 100;

/**
 * A schema for a session's frames (`values[i]` undefined = frame i did not decode and is
 * left out), as avro-codec.ts did with avsc: the types of the first AVRO_SAMPLE frames
 * that have one merged, then up to AVRO_ROUNDS rounds merging in up to AVRO_PER_ROUND
 * frames that do not fit yet. Null when no frame has an Avro type.
 *
 * `fits`, when given, receives the frames (objects and arrays only) that the last round
 * checked against the returned type and found fitting (avroMismatch null); it stays empty
 * when the rounds ran out before a round found every frame fitting. The session's encode
 * then skips a second check of the same frame against the same type (the same answer).
 */
export function inferAvroSchema(values: readonly unknown[], fits?: WeakSet<object>): AvroType | null {
  const types: AvroType[] = [];
  for (let i = 0; i < values.length && types.length < AVRO_SAMPLE; i++) {
    if (values[i] === undefined) continue;
    const t = typeOrNull(values[i]);
    if (t) types.push(t);
  }
  if (!types.length) return null;
  let type = mergeTypes(types);
  for (let round = 0; round < AVRO_ROUNDS; round++) {
    const extra: AvroType[] = [];
    const fitting: object[] = [];
    for (let k = 0; k < values.length && extra.length < AVRO_PER_ROUND; k++) {
      const v = values[k];
      if (v === undefined) continue;
      if (avroMismatch(type, v) === null) {
        if (fits && typeof v === 'object' && v !== null) fitting.push(v);
        continue;
      }
      const t = typeOrNull(v);
      if (t) extra.push(t);
    }
    if (!extra.length) {
      // This round checked every frame against `type`, which is the one returned.
      if (fits) for (const v of fitting) fits.add(v);
      break;
    }
    type = mergeTypes([type, ...extra]);
  }
  return type;
}

/** The frame's type; null when it has none, or is nested too deep to infer (a stack overflow): its encode says why. */
function typeOrNull(value: unknown): AvroType | null {
  try {
    return typeOfValue(value);
  } catch (e) {
    if (e instanceof NoAvroType || isStackOverflow(e)) return null;
    throw e;
  }
}

export const isStackOverflow = (e: unknown): boolean => e instanceof RangeError && /call stack/i.test(e.message);
