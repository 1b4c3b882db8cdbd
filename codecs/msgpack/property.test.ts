import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { pack, Unpackr } from 'msgpackr';
import { encode, decode as msgpackDecode, ExtData } from '@msgpack/msgpack';
import { MsgPackDecoder } from '@jsonjoy.com/json-pack/lib/msgpack/MsgPackDecoder.js';
import { JsonPackExtension } from '@jsonjoy.com/json-pack/lib/JsonPackExtension.js';
import type { SpanIndex } from '../core/span-index.js';
import { Flag, Kind } from '../core/kinds.js';
import { EntriesMap, ExtValue } from '../core/values.js';
import { indexMsgpack } from './index.js';

// ---------------------------------------------------------------------------------------
// Values

const key = fc.string({ unit: 'grapheme', maxLength: 12 }).filter((k) => k !== '__proto__');

const scalar = fc.oneof(
  { arbitrary: fc.constant(null), weight: 20 },
  { arbitrary: fc.boolean(), weight: 20 },
  { arbitrary: fc.integer({ min: -40, max: 300 }), weight: 60 },
  { arbitrary: fc.integer(), weight: 40 },
  { arbitrary: fc.maxSafeInteger(), weight: 40 },
  { arbitrary: fc.double(), weight: 40 },
  { arbitrary: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n - 1n }), weight: 40 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }), weight: 60 },
  { arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 200, maxLength: 400 }), weight: 20 },
  { arbitrary: fc.nat({ max: 3 }).map((n) => 'w'.repeat(65_536 + n)), weight: 1 },
  { arbitrary: fc.uint8Array({ maxLength: 40 }), weight: 40 },
  { arbitrary: fc.uint8Array({ minLength: 250, maxLength: 400 }), weight: 10 },
  { arbitrary: fc.date({ noInvalidDate: true }), weight: 20 },
);

/** JSON-like values plus Uint8Array, bigint, Date; `withMaps` adds Maps with non-string keys. */
function values(withMaps: boolean): fc.Arbitrary<unknown> {
  const mapKey = fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.boolean(), fc.constant(null), key);
  return fc.letrec<{ value: unknown; array: unknown[]; object: Record<string, unknown>; map: Map<unknown, unknown> }>(
    (tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        { arbitrary: scalar, weight: 4 },
        { arbitrary: tie('array'), weight: 1 },
        { arbitrary: tie('object'), weight: 1 },
        { arbitrary: withMaps ? tie('map') : tie('array'), weight: withMaps ? 1 : 0 },
      ),
      array: fc.oneof(
        fc.array(tie('value'), { maxLength: 6 }),
        fc.array(tie('value'), { minLength: 16, maxLength: 20 }),
      ),
      object: fc.oneof(
        fc.dictionary(key, tie('value'), { maxKeys: 6 }),
        fc.dictionary(key, tie('value'), { minKeys: 16, maxKeys: 20 }),
      ),
      map: fc.array(fc.tuple(mapKey, tie('value')), { maxLength: 6 }).map((entries) => new Map(entries)),
    }),
  ).value;
}

/** Runs per property; raise it for a soak run: MSGPACK_PROPERTY_RUNS=5000 npx vitest run codecs/msgpack/property. */
const RUNS = Number(process.env.MSGPACK_PROPERTY_RUNS) || 0;

const msgpackrUnpackr = new Unpackr({ useRecords: false, mapsAsObjects: false });
const jsonPack = new MsgPackDecoder();

const encoders = {
  msgpackr: (v: unknown) => pack(v) as Uint8Array,
  '@msgpack/msgpack': (v: unknown) => encode(v, { useBigInt64: true }),
};

// ---------------------------------------------------------------------------------------
// Canonical forms: how the libraries' value models and ours are compared

interface Mode {
  /** Timestamps as dates (msgpackr, @msgpack/msgpack) or as raw extensions (json-pack). */
  dates: boolean;
  /** Integers beyond 2^53 as the nearest float (json-pack reads 64-bit ints as floats). */
  lossy64: boolean;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function canon(v: unknown, mode: Mode): unknown {
  if (v === null || typeof v === 'boolean' || typeof v === 'string' || typeof v === 'number' || v === undefined)
    return v;
  if (typeof v === 'bigint') return (v >= -MAX_SAFE && v <= MAX_SAFE) || mode.lossy64 ? Number(v) : v;
  if (v instanceof Uint8Array) return { $bin: Array.from(v) };
  if (Array.isArray(v)) return v.map((x) => canon(x, mode));
  if (v instanceof Date) return { $date: dateMs(v.getTime()) };
  if (v instanceof ExtValue) {
    if (mode.dates && v.timestamp) {
      // The libraries' arithmetic: seconds * 1000 + nanoseconds / 1e6, truncated by Date.
      const ts = v.timestamp;
      const libMs = new Date(Number(ts.seconds) * 1000 + ts.nanoseconds / 1e6).getTime();
      // Ours: the millisecond that contains the instant.
      if (ts.date) expect(Math.abs(ts.date.getTime() - libMs)).toBeLessThanOrEqual(1);
      return { $date: dateMs(libMs) };
    }
    return { $ext: v.type, data: Array.from(v.data) };
  }
  if (v instanceof JsonPackExtension) return { $ext: (v.tag << 24) >> 24, data: Array.from(v.val as Uint8Array) };
  if (v instanceof ExtData) return { $ext: v.type, data: Array.from(v.data as Uint8Array) };
  let entries: [unknown, unknown][];
  if (v instanceof EntriesMap) {
    // Duplicate keys: what a Map or an object would keep (first position, last value).
    const m = new Map<unknown, unknown>();
    for (const [k, x] of v.entries) m.set(k, x);
    entries = [...m];
  } else if (v instanceof Map) entries = [...v];
  else if (Object.getPrototypeOf(v) === Object.prototype)
    entries = Object.keys(v).map((k) => [k, (v as Record<string, unknown>)[k]]);
  else return { $other: Object.prototype.toString.call(v), text: String(v) };
  const out = entries.map(([k, x]) => [canon(k, mode), canon(x, mode)] as const);
  // Objects reorder integer-like keys: compare maps as sorted entry lists.
  const sortKey = (k: unknown) =>
    `${typeof k}:${JSON.stringify(k, (_, y) => (typeof y === 'bigint' ? `${y}n` : Number.isNaN(y) ? 'NaN' : y))}`;
  out.sort((a, b) => (sortKey(a[0]) < sortKey(b[0]) ? -1 : sortKey(a[0]) > sortKey(b[0]) ? 1 : 0));
  return { $map: out };
}

function dateMs(ms: number): number | null {
  return Number.isNaN(ms) ? null : ms;
}

/** Whether any recorded str is marked as not UTF-8. */
function hasInvalidText(ix: SpanIndex): boolean {
  for (let id = 0; id < ix.store.size; id++) if (ix.store.flags[id] & Flag.invalidUtf8) return true;
  return false;
}

/** What our value contains that some libraries cannot represent. */
function features(
  v: unknown,
  f = { nonTimestampExt: false, invalidTimestamp: false, wideTimestamp: false, nonStringKey: false, protoKey: false },
) {
  const stack = [v];
  while (stack.length) {
    const x = stack.pop();
    if (x instanceof ExtValue) {
      if (!x.timestamp) f.nonTimestampExt = true;
      if (x.type === -1 && !x.timestamp) f.invalidTimestamp = true;
      const seconds = x.timestamp?.seconds ?? 0;
      if (seconds >= 2 ** 47 || seconds < -(2 ** 47)) f.wideTimestamp = true;
    } else if (Array.isArray(x)) stack.push(...x);
    else if (x instanceof Map || x instanceof EntriesMap) {
      for (const [k, y] of x instanceof Map ? x : x.entries) {
        if (typeof k !== 'string') f.nonStringKey = true;
        if (k === '__proto__') f.protoKey = true;
        stack.push(k, y);
      }
    } else if (x && typeof x === 'object' && Object.getPrototypeOf(x) === Object.prototype) {
      for (const k of Object.keys(x)) {
        if (k === '__proto__') f.protoKey = true;
        stack.push((x as Record<string, unknown>)[k]);
      }
    }
  }
  return f;
}

type Decoded = { ok: true; value: unknown } | { ok: false };

function tryDecode(f: () => unknown): Decoded {
  try {
    return { ok: true, value: f() };
  } catch {
    return { ok: false };
  }
}

const libraries = {
  msgpackr: (bytes: Uint8Array) => tryDecode(() => msgpackrUnpackr.unpack(bytes)),
  '@msgpack/msgpack': (bytes: Uint8Array) => tryDecode(() => msgpackDecode(bytes, { useBigInt64: true })),
  'json-pack': (bytes: Uint8Array) =>
    tryDecode(() => {
      const v = jsonPack.decode(bytes);
      // json-pack neither bounds-checks nor rejects trailing bytes.
      if (jsonPack.reader.x !== bytes.length) throw new Error('json-pack did not consume exactly the input');
      return v;
    }),
};

// ---------------------------------------------------------------------------------------
// Structural checks

/** The bytes a leaf's payload must have, from its format byte; -1 when given by `arg`. */
function fixedPayload(b: number): number {
  if (b < 0xc0 || b >= 0xe0 || b === 0xc0 || b === 0xc2 || b === 0xc3) return b >= 0xa0 && b < 0xc0 ? b & 31 : 0;
  if (b >= 0xcc && b <= 0xcf) return 1 << (b - 0xcc);
  if (b >= 0xd0 && b <= 0xd3) return 1 << (b - 0xd0);
  if (b >= 0xd4 && b <= 0xd8) return 1 << (b - 0xd4);
  if (b === 0xca) return 4;
  if (b === 0xcb) return 8;
  return -1;
}

/** The first violation of (b): children tile their container's payload exactly. */
function tilingViolation(ix: SpanIndex): string | null {
  const s = ix.store;
  const bytes = ix.bytes;
  if (s.start[0] !== 0 || s.end[0] !== bytes.length)
    return `root spans [${s.start[0]}, ${s.end[0]}) of ${bytes.length}`;
  for (let id = 0; id < s.size; id++) {
    if (s.flags[id] & Flag.incomplete) return `node ${id} incomplete`;
    const start = s.start[id];
    const end = s.end[id];
    const head = s.head[id];
    const k = s.kind[id];
    if (k === Kind.array || k === Kind.map) {
      let at = start + head;
      let n = 0;
      for (let c = s.firstChild[id]; c >= 0; c = s.nextSibling[c]) {
        if (s.start[c] !== at) return `child ${c} of ${id} starts at ${s.start[c]}, expected ${at}`;
        if (k === Kind.map && ((s.flags[c] & Flag.key) !== 0) !== (n % 2 === 0))
          return `child ${c} of map ${id}: key flag`;
        at = s.end[c];
        n++;
      }
      if (at !== end) return `children of ${id} end at ${at}, the container at ${end}`;
      if (n !== (k === Kind.map ? 2 * s.arg[id] : s.arg[id])) return `node ${id}: ${n} children for arg ${s.arg[id]}`;
    } else {
      const fixed = fixedPayload(bytes[start]);
      const payload = fixed >= 0 ? fixed : k === Kind.ext ? end - start - head : s.arg[id];
      if (end - start - head !== payload) return `leaf ${id}: payload ${end - start - head}, expected ${payload}`;
      if (s.firstChild[id] !== -1) return `leaf ${id} has children`;
    }
  }
  return null;
}

/** The first violation of the structure every index has, complete or not. */
function invariantViolation(ix: SpanIndex): string | null {
  const s = ix.store;
  for (let id = 0; id < s.size; id++) {
    if (s.start[id] + s.head[id] > s.end[id] || s.end[id] > ix.bytes.length) return `node ${id}: bad span`;
    let prev = s.start[id] + s.head[id];
    for (let c = s.firstChild[id]; c >= 0; c = s.nextSibling[c]) {
      if (s.parent[c] !== id || s.start[c] !== prev || s.end[c] > s.end[id]) return `node ${c}: not inside ${id}`;
      prev = s.end[c];
    }
  }
  return null;
}

/** Every recorded node as a comparable row, ids aside. */
function nodeRows(ix: SpanIndex): string[] {
  const s = ix.store;
  const rows: string[] = [];
  for (let id = 0; id < s.size; id++) {
    const p = s.parent[id];
    rows.push(
      [
        s.start[id],
        s.end[id],
        s.kind[id],
        s.head[id],
        s.arg[id],
        s.flags[id] & ~Flag.expanded,
        p < 0 ? -1 : s.start[p],
      ].join(','),
    );
  }
  return rows.sort();
}

/** Everything that must hold for any input; returns the problems found. */
function checkAnyInput(bytes: Uint8Array): { full: SpanIndex; problems: string[] } {
  const problems: string[] = [];
  const t0 = performance.now();
  const full = indexMsgpack(bytes);
  const shallow = indexMsgpack(bytes, { depth: 1 });
  const flat = indexMsgpack(bytes, { depth: 0 });
  full.value(0);
  shallow.expandAll(0);
  const elapsed = performance.now() - t0;
  if (elapsed > 2000) problems.push(`took ${elapsed} ms`);
  for (const [name, ix] of [
    ['full', full],
    ['depth 1', shallow],
    ['depth 0', flat],
  ] as const) {
    const bad = invariantViolation(ix);
    if (bad) problems.push(`${name}: ${bad}`);
    if (ix.error?.code !== full.error?.code || ix.error?.offset !== full.error?.offset)
      problems.push(
        `${name}: error ${ix.error?.code}@${ix.error?.offset}, full walk ${full.error?.code}@${full.error?.offset}`,
      );
  }
  if (full.ok && full.root < 0) problems.push('ok without a root');
  // A shallow index expanded everywhere has recorded exactly what the full walk recorded.
  const a = nodeRows(full).join('\n');
  const b = nodeRows(shallow).join('\n');
  if (a !== b) problems.push('expandAll of a depth-1 index differs from the full index');
  const wa = full.warnings.map((w) => `${w.code}@${w.offset}`).sort();
  const wb = shallow.warnings.map((w) => `${w.code}@${w.offset}`).sort();
  if (wa.join() !== wb.join()) problems.push(`warnings differ: ${wa} / ${wb}`);
  return { full, problems };
}

// ---------------------------------------------------------------------------------------

describe('msgpack walker: properties', () => {
  for (const [libName, encodeWith] of Object.entries(encoders)) {
    const withMaps = libName === 'msgpackr';
    it(`${libName}: valid encodings index without error, tile exactly, and decode to the library's value`, () => {
      fc.assert(
        fc.property(values(withMaps), (value) => {
          const bytes = encodeWith(value);
          const { full: ix, problems } = checkAnyInput(bytes);
          expect(problems).toEqual([]);
          expect(ix.error).toBeNull();
          expect(ix.warnings).toEqual([]);
          expect(tilingViolation(ix)).toBeNull();
          const theirs = libraries[libName as keyof typeof encoders](bytes);
          expect(theirs.ok).toBe(true);
          const mode = { dates: true, lossy64: false };
          expect(canon(ix.value(0), mode)).toEqual(canon((theirs as { value: unknown }).value, mode));
        }),
        { numRuns: RUNS || 200 },
      );
    });
  }

  const edit = fc.record({
    kind: fc.constantFrom('set', 'set', 'insert', 'delete'),
    at: fc.nat(),
    byte: fc.oneof(
      fc.integer({ min: 0, max: 255 }),
      fc.constantFrom(
        0xc1,
        0xd4,
        0xd5,
        0xd6,
        0xd7,
        0xd8,
        0xc7,
        0xc8,
        0xc9,
        0xd9,
        0xda,
        0xdb,
        0xdc,
        0xdd,
        0xde,
        0xdf,
        0xff,
        0x00,
        0x81,
        0x91,
        0xa1,
        0xcf,
        0xd3,
      ),
    ),
  });

  it('mutated and truncated encodings never throw or hang, and decode like the libraries when valid', () => {
    const stats = { ok: 0, compared: 0, errors: 0 };
    fc.assert(
      fc.property(
        values(true),
        fc.constantFrom(...(Object.keys(encoders) as (keyof typeof encoders)[])),
        fc.array(edit, { minLength: 1, maxLength: 4 }),
        fc.option(fc.nat(), { freq: 3 }),
        (value, lib, edits, cut) => {
          let bytes: Uint8Array;
          try {
            bytes = encoders[lib](value);
          } catch {
            return; // @msgpack/msgpack does not encode Maps with non-string keys
          }
          const mutated = Array.from(bytes);
          for (const e of edits) {
            const at = e.at % (mutated.length + 1);
            if (e.kind === 'set') mutated[Math.min(at, mutated.length - 1)] = e.byte;
            else if (e.kind === 'insert') mutated.splice(at, 0, e.byte);
            else mutated.splice(at, 1);
          }
          const input = Uint8Array.from(cut === null ? mutated : mutated.slice(0, cut % (mutated.length + 1)));

          let result: ReturnType<typeof checkAnyInput>;
          expect(() => (result = checkAnyInput(input))).not.toThrow();
          const { full: ix, problems } = result!;
          if (input.length === 0) expect(ix.error?.code).toBe('empty-input');

          if (!ix.ok) {
            stats.errors++;
            // The strictest library accepts nothing we reject (invalid UTF-8 is no error to
            // either). (Not json-pack: it reads past the end of invalid input, e.g. pushing
            // 2^32 undefineds.)
            if (libraries['@msgpack/msgpack'](input).ok)
              problems.push(`@msgpack/msgpack accepts what we reject with ${ix.error!.code}@${ix.error!.offset}`);
            expect(problems).toEqual([]);
            return;
          }
          stats.ok++;
          const tiling = tilingViolation(ix);
          if (tiling) problems.push(tiling);
          const ours = ix.value(0);
          const f = features(ours);
          // A str that is not UTF-8 is its bytes to us (the spec's "original byte array"),
          // replacement characters to the libraries: no value comparison then.
          if (hasInvalidText(ix)) {
            expect(problems).toEqual([]);
            return;
          }
          const comparisons: Record<string, { applies: boolean; mode: Mode }> = {
            // msgpackr throws on, or gives its own objects for, extension types it does not know,
            // and reads only the low 48 bits (and the sign) of a timestamp 96's seconds.
            msgpackr: { applies: !f.nonTimestampExt && !f.wideTimestamp, mode: { dates: true, lossy64: false } },
            // @msgpack/msgpack: string or number keys (as object properties), no __proto__.
            '@msgpack/msgpack': {
              applies: !f.nonStringKey && !f.protoKey && !f.invalidTimestamp,
              mode: { dates: true, lossy64: false },
            },
            // json-pack reads every key as a string, throws on __proto__, reads 64-bit ints as floats.
            'json-pack': { applies: !f.nonStringKey && !f.protoKey, mode: { dates: false, lossy64: true } },
          };
          for (const [name, { applies, mode }] of Object.entries(comparisons)) {
            if (!applies) continue;
            const theirs = libraries[name as keyof typeof libraries](input);
            if (!theirs.ok) continue;
            stats.compared++;
            expect(canon(ours, mode), `${name} on ${Buffer.from(input).toString('hex')}`).toEqual(
              canon(theirs.value, mode),
            );
          }
          expect(problems).toEqual([]);
        },
      ),
      { numRuns: RUNS || 300 },
    );
    if (RUNS) console.log('mutation stats', stats);
    // The property must exercise both sides.
    expect(stats.ok).toBeGreaterThan(10);
    expect(stats.errors).toBeGreaterThan(10);
    expect(stats.compared).toBeGreaterThan(10);
  });
});
