import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder';
import { JsonPackExtension } from '@jsonjoy.com/json-pack/lib/JsonPackExtension';
import { JsonPackValue } from '@jsonjoy.com/json-pack/lib/JsonPackValue';
import { Flag, Kind } from '../../core/kinds.js';
import type { SpanIndex } from '../../core/span-index.js';
import { EntriesMap, SimpleValue, TaggedValue, setOwn } from '../../core/values.js';

export { repoRoot } from './paths.js';
export { hex } from './hex.js';

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

// ---------------------------------------------------------------------------------------
// Exact JSON
// ---------------------------------------------------------------------------------------

const BIGINT_MARK = '\u0000bigint:';

/**
 * JSON.parse that keeps integer literals beyond ±(2^53 - 1) exact as bigint: such literals
 * (outside string tokens) are quoted with a marker first and turned into bigint by a reviver.
 */
export function parseJsonExact(text: string): unknown {
  const quoted = text.replace(/"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g, (token) => {
    if (token[0] === '"' || !/^-?\d+$/.test(token)) return token;
    const n = BigInt(token);
    if (n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER)) return token;
    return JSON.stringify(BIGINT_MARK + token);
  });
  return JSON.parse(quoted, (_key, v: unknown) =>
    typeof v === 'string' && v.startsWith(BIGINT_MARK) ? BigInt(v.slice(BIGINT_MARK.length)) : v,
  );
}

// ---------------------------------------------------------------------------------------
// Re-encoding our value model with json-pack
// ---------------------------------------------------------------------------------------

const utf8 = new TextEncoder();

/**
 * json-pack's CborEncoder with one change: json-pack sizes a text string's head from the
 * string's UTF-16 length × 4 (so a 20-character string gets `78 14`, not `74`); RFC 8949
 * preferred serialization (what Appendix A shows) uses the shortest head for the UTF-8 length.
 */
export class PreferredCborEncoder extends CborEncoder {
  override writeStr(str: string): void {
    const b = utf8.encode(str);
    this.writeStrHdr(b.length);
    this.writer.buf(b, b.length);
  }
}

/** Encodes with a fresh encoder (a shared json-pack Writer hands out views of one buffer). */
export function jsonPackEncode(value: unknown, preferred = true): Uint8Array {
  const enc = preferred ? new PreferredCborEncoder() : new CborEncoder();
  return enc.encode(value).slice();
}

const TWO_64 = 1n << 64n;

/** Big-endian magnitude bytes of a non-negative bigint, shortest form (at least one byte). */
export function bigintBytes(n: bigint): Uint8Array {
  const out: number[] = [];
  do {
    out.unshift(Number(n & 0xffn));
    n >>= 8n;
  } while (n > 0n);
  return Uint8Array.from(out);
}

function bignum(v: bigint): JsonPackExtension<Uint8Array> {
  return v < 0n ? new JsonPackExtension(3, bigintBytes(-1n - v)) : new JsonPackExtension(2, bigintBytes(v));
}

function simpleBytes(n: number): Uint8Array {
  return n < 24 ? Uint8Array.of(0xe0 | n) : Uint8Array.of(0xf8, n);
}

/**
 * Our value model -> json-pack's: TaggedValue -> JsonPackExtension, SimpleValue -> its raw
 * bytes in a JsonPackValue, bigint beyond 64 bits -> bignum tag 2/3 (json-pack's u64 writer
 * would wrap it), EntriesMap -> pre-encoded map (a Map would merge its duplicate keys), plain
 * objects -> Map (json-pack dispatches on `value.constructor`, so an own `constructor` key
 * would make it write null).
 */
export function toJsonPack(v: unknown): unknown {
  if (typeof v === 'bigint') return v >= -TWO_64 && v < TWO_64 ? v : bignum(v);
  if (v === null || typeof v !== 'object') return v;
  if (v instanceof Uint8Array) return v;
  if (Array.isArray(v)) return v.map(toJsonPack);
  if (v instanceof TaggedValue) return new JsonPackExtension(v.tag as number, toJsonPack(v.value));
  if (v instanceof SimpleValue) return new JsonPackValue(simpleBytes(v.value));
  if (v instanceof JsonPackExtension || v instanceof JsonPackValue) return v;
  if (v instanceof EntriesMap) return encodedMap(v.entries.map(([k, x]) => [toJsonPack(k), toJsonPack(x)]));
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [toJsonPack(k), toJsonPack(x)]));
  return new Map(Object.keys(v).map((k) => [k, toJsonPack((v as Record<string, unknown>)[k])]));
}

/** A map whose entries are written as given, duplicates included. */
function encodedMap(entries: ReadonlyArray<readonly [unknown, unknown]>): JsonPackValue<Uint8Array> {
  const enc = new PreferredCborEncoder();
  enc.writeMapHdr(entries.length);
  for (const [k, x] of entries) {
    enc.writeAny(k);
    enc.writeAny(x);
  }
  return new JsonPackValue(enc.writer.flush().slice());
}

/** IEEE 754 half-precision bits of a number that float16 holds exactly (throws otherwise). */
export function float16Bits(v: number): number {
  if (Number.isNaN(v)) return 0x7e00;
  const sign = v < 0 || Object.is(v, -0) ? 0x8000 : 0;
  const a = Math.abs(v);
  if (a === Infinity) return sign | 0x7c00;
  if (a === 0) return sign;
  if (a < 2 ** -14) {
    const mant = a / 2 ** -24;
    if (!Number.isInteger(mant)) throw new Error(`${v} is not a float16 value`);
    return sign | mant;
  }
  let exp = Math.floor(Math.log2(a));
  if (2 ** exp > a) exp--;
  if (2 ** (exp + 1) <= a) exp++;
  const mant = (a / 2 ** exp - 1) * 1024;
  if (exp > 15 || !Number.isInteger(mant)) throw new Error(`${v} is not a float16 value`);
  return sign | ((exp + 15) << 10) | mant;
}

/** A float at a given width (re-derived from the value, never copied from the input). */
export function floatBytes(v: number, kind: number): Uint8Array {
  if (kind === Kind.float16) {
    const bits = float16Bits(v);
    return Uint8Array.of(0xf9, bits >> 8, bits & 0xff);
  }
  const out = new Uint8Array(kind === Kind.float32 ? 5 : 9);
  const view = new DataView(out.buffer);
  if (kind === Kind.float32) {
    out[0] = 0xfa;
    view.setFloat32(1, v);
  } else {
    out[0] = 0xfb;
    view.setFloat64(1, v);
  }
  return out;
}

function recordedChildren(index: SpanIndex, id: number): number[] {
  const out: number[] = [];
  for (let c = index.store.firstChild[id]; c >= 0; c = index.store.nextSibling[c]) out.push(c);
  return out;
}

/**
 * Converts the materialized value of `id` to json-pack's model, walking the index alongside
 * it only to learn what the value model forgets: the width of each float (json-pack has no
 * float16 writer and writes integral floats as integers), the wire order of map entries and
 * which bigints were bignum tags.
 */
export function toJsonPackIndexed(index: SpanIndex, id: number, value: unknown): unknown {
  const { store } = index;
  const kind = store.kind[id];
  switch (kind) {
    case Kind.float16:
    case Kind.float32:
    case Kind.float64:
      return new JsonPackValue(floatBytes(value as number, kind));
    case Kind.array: {
      const kids = recordedChildren(index, id);
      return kids.map((c, i) => toJsonPackIndexed(index, c, (value as unknown[])[i]));
    }
    case Kind.map: {
      const kids = recordedChildren(index, id);
      const entries: [unknown, unknown][] = [];
      const wire = value instanceof EntriesMap ? value.entries : value instanceof Map ? [...value] : undefined;
      for (let i = 0; i + 1 < kids.length; i += 2) {
        const [k, x] = wire
          ? wire[i / 2]
          : [index.value(kids[i]), (value as Record<string, unknown>)[index.value(kids[i]) as string]];
        entries.push([toJsonPackIndexed(index, kids[i], k), toJsonPackIndexed(index, kids[i + 1], x)]);
      }
      return encodedMap(entries);
    }
    case Kind.tag: {
      const [content] = recordedChildren(index, id);
      if (typeof value === 'bigint') return bignum(value);
      const t = value as TaggedValue;
      return new JsonPackExtension(t.tag as number, toJsonPackIndexed(index, content, t.value));
    }
    default:
      return toJsonPack(value);
  }
}

/** Re-encodes the materialized value of `id` with json-pack, floats at their recorded width. */
export function reencodeIndexed(index: SpanIndex, id = 0): Uint8Array {
  index.expandAll(id);
  return jsonPackEncode(toJsonPackIndexed(index, id, index.value(id)));
}

// ---------------------------------------------------------------------------------------
// Normalization for comparisons
// ---------------------------------------------------------------------------------------

export interface NormalizeOptions {
  /** cbor-x wraps Uint8Array in tag 64 and Maps in tag 259: unwrap them. */
  cborx?: boolean;
}

/**
 * A canonical form for deep comparison of values from different encoders / decoders:
 * -0 -> 0 (json-pack and cbor-x write it as integer 0), safe-range bigint -> number,
 * Buffer -> Uint8Array, maps with only string keys -> plain object (own `__proto__`
 * included), other maps -> Map, json-pack's bignum extensions -> bigint, its other
 * extensions -> TaggedValue, its simple values -> SimpleValue.
 */
export function normalize(v: unknown, options: NormalizeOptions = {}): unknown {
  const n = (x: unknown): unknown => normalize(x, options);
  if (typeof v === 'number') return Object.is(v, -0) ? 0 : v;
  if (typeof v === 'bigint') {
    return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
  }
  if (v === null || typeof v !== 'object') return v;
  if (v instanceof Uint8Array) return new Uint8Array(v);
  if (Array.isArray(v)) return v.map(n);
  if (v instanceof TaggedValue) {
    if (options.cborx && v.tag === 64 && v.value instanceof Uint8Array) return n(v.value);
    if (options.cborx && v.tag === 259) return n(v.value);
    return new TaggedValue(Number(v.tag), n(v.value));
  }
  if (v instanceof JsonPackExtension) {
    if ((v.tag === 2 || v.tag === 3) && v.val instanceof Uint8Array) {
      let m = 0n;
      for (const b of v.val) m = (m << 8n) | BigInt(b);
      return n(v.tag === 2 ? m : -1n - m);
    }
    return new TaggedValue(Number(v.tag), n(v.val));
  }
  if (v instanceof JsonPackValue) return typeof v.val === 'number' ? new SimpleValue(v.val) : v;
  if (v instanceof SimpleValue) return new SimpleValue(v.value);
  const entries: ReadonlyArray<readonly [unknown, unknown]> =
    v instanceof EntriesMap
      ? v.entries
      : v instanceof Map
        ? [...v]
        : Object.keys(v).map((k) => [k, (v as Record<string, unknown>)[k]]);
  return mapFrom(entries.map(([k, x]) => [n(k), n(x)]));
}

function mapFrom(entries: ReadonlyArray<readonly [unknown, unknown]>): unknown {
  if (entries.every(([k]) => typeof k === 'string')) {
    const obj: Record<string, unknown> = {};
    for (const [k, x] of entries) setOwn(obj, k as string, x);
    return obj;
  }
  return new Map(entries);
}

/**
 * What json-pack's CborDecoder would make of our value: every map becomes a plain object
 * whose keys are `String(key)` of json-pack's own model of the key, later duplicates win.
 * Returns `ambiguous: true` where that cannot be said from our model alone: a key that
 * holds a bigint (json-pack stringifies a bignum tag as "[object Object]", a big integer
 * as digits) or a `__proto__` key (json-pack throws in a definite map and sets the
 * prototype in an indefinite one).
 */
export function asJsonPackDecodes(v: unknown): { value: unknown; ambiguous: boolean } {
  let ambiguous = false;
  const keyString = (k: unknown): string => {
    if (typeof k === 'string') {
      if (k === '__proto__') ambiguous = true;
      return k;
    }
    if (containsBigint(k)) ambiguous = true;
    return String(objectsForMaps(k));
  };
  const conv = (x: unknown): unknown => {
    if (x === null || typeof x !== 'object' || x instanceof Uint8Array) return x;
    if (Array.isArray(x)) return x.map(conv);
    if (x instanceof TaggedValue) return new TaggedValue(x.tag, conv(x.value));
    if (x instanceof SimpleValue) return x;
    const entries: ReadonlyArray<readonly [unknown, unknown]> =
      x instanceof EntriesMap
        ? x.entries
        : x instanceof Map
          ? [...x]
          : Object.keys(x).map((k) => [k, (x as Record<string, unknown>)[k]]);
    const obj: Record<string, unknown> = {};
    for (const [k, y] of entries) setOwn(obj, keyString(k), conv(y));
    return obj;
  };
  const value = conv(v);
  return { value, ambiguous };
}

function containsBigint(x: unknown): boolean {
  if (typeof x === 'bigint') return true;
  if (Array.isArray(x)) return x.some(containsBigint);
  return false;
}

/** Replaces every Map (json-pack decodes maps to plain objects) so String() matches. */
function objectsForMaps(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(objectsForMaps);
  if (x instanceof Map || x instanceof EntriesMap) return {};
  return x;
}

// ---------------------------------------------------------------------------------------
// Structural invariants
// ---------------------------------------------------------------------------------------

/**
 * For a complete (error-free), fully expanded index: the children of every container tile
 * its payload exactly and the root spans the whole buffer, so every byte is covered once.
 * Returns the list of violations (empty when all hold).
 */
export function tilingProblems(index: SpanIndex): string[] {
  const { store, bytes } = index;
  const problems: string[] = [];
  if (store.size === 0) return ['no root'];
  if (store.start[0] !== 0 || store.end[0] !== bytes.length) {
    problems.push(`root spans [${store.start[0]}, ${store.end[0]}) of ${bytes.length} bytes`);
  }
  let covered = 0;
  for (let id = 0; id < store.size; id++) {
    const start = store.start[id];
    const head = store.head[id];
    const end = store.end[id];
    const indefinite = (store.flags[id] & Flag.indefinite) !== 0;
    if (store.flags[id] & Flag.incomplete) problems.push(`node ${id} incomplete`);
    if (!index.isContainer(id)) {
      covered += end - start;
      if (end - start < head) problems.push(`leaf ${id} [${start}, ${end}) shorter than its head ${head}`);
      if ((store.kind[id] === Kind.bytes || store.kind[id] === Kind.text) && end - start - head !== store.arg[id]) {
        problems.push(`string ${id} payload ${end - start - head} != declared ${store.arg[id]}`);
      }
      continue;
    }
    covered += head + (indefinite ? 1 : 0);
    if (!index.isExpanded(id)) problems.push(`container ${id} not expanded`);
    let pos = start + head;
    let count = 0;
    for (let c = store.firstChild[id]; c >= 0; c = store.nextSibling[c]) {
      if (store.parent[c] !== id) problems.push(`node ${c} parent ${store.parent[c]} != ${id}`);
      if (store.start[c] !== pos) problems.push(`child ${c} of ${id} starts at ${store.start[c]}, expected ${pos}`);
      const isKey = (store.flags[c] & Flag.key) !== 0;
      if (isKey !== (store.kind[id] === Kind.map && count % 2 === 0))
        problems.push(`node ${c} key flag ${isKey} at position ${count}`);
      pos = store.end[c];
      count++;
    }
    const payloadEnd = end - (indefinite ? 1 : 0);
    if (pos !== payloadEnd) problems.push(`children of ${id} end at ${pos}, payload ends at ${payloadEnd}`);
    if (indefinite && bytes[end - 1] !== 0xff) problems.push(`indefinite ${id} does not end with a break`);
    if (!indefinite) {
      const expected =
        store.kind[id] === Kind.map ? store.arg[id] * 2 : store.kind[id] === Kind.tag ? 1 : store.arg[id];
      if (count !== expected) problems.push(`container ${id} has ${count} children, head says ${expected}`);
    } else if (store.kind[id] === Kind.map && count % 2) {
      problems.push(`indefinite map ${id} has an odd number of children`);
    }
  }
  if (covered !== bytes.length) problems.push(`bytes covered ${covered} != ${bytes.length}`);
  return problems;
}

/**
 * For any index, complete or not: every node lies within [0, length], after its header,
 * inside its parent, and after its previous sibling. Returns the violations.
 */
export function nestingProblems(index: SpanIndex): string[] {
  const { store, bytes } = index;
  const problems: string[] = [];
  for (let id = 0; id < store.size; id++) {
    const start = store.start[id];
    const end = store.end[id];
    if (!(start <= end && end <= bytes.length)) problems.push(`node ${id} spans [${start}, ${end}) of ${bytes.length}`);
    if (end - start < store.head[id])
      problems.push(`node ${id} [${start}, ${end}) shorter than its head ${store.head[id]}`);
    let prevEnd = start + store.head[id];
    for (let c = store.firstChild[id]; c >= 0; c = store.nextSibling[c]) {
      if (store.start[c] < prevEnd) problems.push(`child ${c} of ${id} starts at ${store.start[c]} before ${prevEnd}`);
      if (store.end[c] > end)
        problems.push(`child ${c} [${store.start[c]}, ${store.end[c]}) ends after its parent ${id} [${start}, ${end})`);
      prevEnd = store.end[c];
    }
  }
  return problems;
}

/** Spans of the recorded children of `id` (keys included), for comparing two indexes. */
export function childSpans(index: SpanIndex, id: number): Array<[number, number, number, string]> {
  return recordedChildren(index, id).map((c) => [
    index.store.start[c],
    index.store.end[c],
    index.store.head[c],
    index.kind(c),
  ]);
}

// ---------------------------------------------------------------------------------------
// Strict deep comparison
// ---------------------------------------------------------------------------------------

function classOf(v: object): string {
  if (v instanceof Uint8Array) return 'bytes';
  if (Array.isArray(v)) return 'array';
  if (v instanceof Map) return 'Map';
  if (v instanceof TaggedValue) return 'TaggedValue';
  if (v instanceof SimpleValue) return 'SimpleValue';
  if (v instanceof EntriesMap) return 'EntriesMap';
  if (v instanceof JsonPackExtension) return 'JsonPackExtension';
  if (v instanceof JsonPackValue) return 'JsonPackValue';
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null ? 'object' : `other ${String(proto?.constructor?.name)}`;
}

function show(v: unknown): string {
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === null || typeof v !== 'object') return String(v);
  return classOf(v);
}

/**
 * The first difference between two values as `path: a vs b`, or null when they are equal:
 * numbers by Object.is (NaN equals NaN, -0 differs from 0), bigints by value, objects by
 * own enumerable keys (an own `__proto__` or `constructor` key is just a key; vitest's
 * toStrictEqual compares `a.constructor` and so cannot handle the latter), Maps by entries
 * in any order, and every other class by its fields.
 */
export function valueDiff(a: unknown, b: unknown, path = '$'): string | null {
  const differ = () => `${path}: ${show(a)} vs ${show(b)}`;
  if (typeof a !== typeof b) return differ();
  if (typeof a === 'number') return Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b)) ? null : differ();
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b ? null : differ();
  const ca = classOf(a);
  if (ca !== classOf(b)) return differ();
  switch (ca) {
    case 'bytes': {
      const x = a as Uint8Array;
      const y = b as Uint8Array;
      return x.length === y.length && x.every((byte, i) => byte === y[i])
        ? null
        : `${path}: h'${toHex(x)}' vs h'${toHex(y)}'`;
    }
    case 'array': {
      const x = a as unknown[];
      const y = b as unknown[];
      if (x.length !== y.length) return `${path}: length ${x.length} vs ${y.length}`;
      for (let i = 0; i < x.length; i++) {
        const d = valueDiff(x[i], y[i], `${path}[${i}]`);
        if (d) return d;
      }
      return null;
    }
    case 'Map': {
      const x = a as Map<unknown, unknown>;
      const y = b as Map<unknown, unknown>;
      if (x.size !== y.size) return `${path}: Map size ${x.size} vs ${y.size}`;
      const unmatched = [...y];
      for (const [k, v] of x) {
        const i = unmatched.findIndex(([k2]) => valueDiff(k, k2) === null);
        if (i < 0) return `${path}: key ${show(k)} missing`;
        const d = valueDiff(v, unmatched[i][1], `${path}.get(${show(k)})`);
        if (d) return d;
        unmatched.splice(i, 1);
      }
      return null;
    }
    case 'EntriesMap':
      return valueDiff((a as EntriesMap).entries, (b as EntriesMap).entries, `${path}.entries`);
    default: {
      const x = a as Record<string, unknown>;
      const y = b as Record<string, unknown>;
      const kx = Object.keys(x).sort();
      const ky = Object.keys(y).sort();
      if (kx.join('\u0000') !== ky.join('\u0000'))
        return `${path}: keys ${JSON.stringify(kx)} vs ${JSON.stringify(ky)}`;
      for (const k of kx) {
        const d = valueDiff(x[k], y[k], `${path}[${JSON.stringify(k)}]`);
        if (d) return d;
      }
      return null;
    }
  }
}
