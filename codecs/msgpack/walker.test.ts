import { describe, expect, it } from 'vitest';
import { pack } from 'msgpackr';
import { encode } from '@msgpack/msgpack';
import { SpanIndex } from '../core/span-index.js';
import { Flag, kindName } from '../core/kinds.js';
import { EntriesMap, ExtValue } from '../core/values.js';
import { indexMsgpack, msgpackWalker, msgpackLeafValue } from './index.js';
import { hex } from '../test/helpers/hex.js';

const cat = (...parts: (Uint8Array | number[])[]) => Uint8Array.from(parts.flatMap((p) => Array.from(p)));
const repeat = (byte: number, n: number) => new Uint8Array(n).fill(byte);

interface NodeInfo {
  kind: string;
  start: number;
  end: number;
  head: number;
  arg: number;
}

function info(ix: SpanIndex, id: number): NodeInfo {
  const s = ix.store;
  return { kind: kindName(s.kind[id]), start: s.start[id], end: s.end[id], head: s.head[id], arg: s.arg[id] };
}

/** Structural invariants every index must satisfy, complete or not: the first violation, or null. */
function invariantViolation(ix: SpanIndex): string | null {
  const s = ix.store;
  const len = ix.bytes.length;
  for (let id = 0; id < s.size; id++) {
    if (s.start[id] + s.head[id] > s.end[id]) return `node ${id}: head beyond end`;
    if (s.end[id] > len) return `node ${id}: end beyond input`;
    let prevEnd = s.start[id] + s.head[id];
    for (let c = s.firstChild[id]; c >= 0; c = s.nextSibling[c]) {
      if (s.parent[c] !== id) return `node ${c}: wrong parent`;
      if (s.start[c] !== prevEnd) return `node ${c}: starts at ${s.start[c]}, expected ${prevEnd}`;
      if (s.end[c] > s.end[id]) return `node ${c}: ends after its parent`;
      prevEnd = s.end[c];
    }
  }
  return null;
}

function checkInvariants(ix: SpanIndex): void {
  expect(invariantViolation(ix)).toBeNull();
}

/** A single-value frame: checks the root node and returns its value. */
function leaf(h: string | Uint8Array, kind: string, head: number, arg?: number): unknown {
  const bytes = typeof h === 'string' ? hex(h) : h;
  const ix = indexMsgpack(bytes);
  expect(ix.error).toBeNull();
  expect(ix.store.size).toBe(1);
  const n = info(ix, 0);
  expect(n.kind).toBe(kind);
  expect(n.start).toBe(0);
  expect(n.end).toBe(bytes.length);
  expect(n.head).toBe(head);
  if (arg !== undefined) expect(n.arg).toBe(arg);
  expect(ix.isContainer(0)).toBe(false);
  return ix.value(0);
}

describe('msgpack walker: format families', () => {
  it('exports a FormatWalker for msgpack', () => {
    expect(msgpackWalker.format).toBe('msgpack');
    expect(msgpackWalker.leafValue).toBe(msgpackLeafValue);
    expect(new SpanIndex(hex('01'), msgpackWalker).value(0)).toBe(1);
  });

  it('positive and negative fixint', () => {
    expect(leaf('00', 'uint', 1, 0)).toBe(0);
    expect(leaf('7f', 'uint', 1, 127)).toBe(127);
    expect(leaf('e0', 'nint', 1, -32)).toBe(-32);
    expect(leaf('ff', 'nint', 1, -1)).toBe(-1);
  });

  it('nil, false, true', () => {
    expect(leaf('c0', 'null', 1)).toBeNull();
    expect(leaf('c2', 'false', 1)).toBe(false);
    expect(leaf('c3', 'true', 1)).toBe(true);
  });

  it('uint 8/16/32/64: head is the format byte, the value bytes are payload', () => {
    expect(leaf('cc ff', 'uint', 1, 255)).toBe(255);
    expect(leaf('cd 0100', 'uint', 1, 256)).toBe(256);
    expect(leaf('cd ffff', 'uint', 1, 65535)).toBe(65535);
    expect(leaf('ce ffffffff', 'uint', 1, 4294967295)).toBe(4294967295);
    expect(leaf('cf 0000000000000000', 'uint', 1, 0)).toBe(0);
    expect(leaf('cf 001fffffffffffff', 'uint', 1)).toBe(Number.MAX_SAFE_INTEGER);
    expect(leaf('cf 0020000000000000', 'uint', 1)).toBe(2n ** 53n);
    expect(leaf('cf ffffffffffffffff', 'uint', 1)).toBe(2n ** 64n - 1n);
  });

  it('int 8/16/32/64: kind follows the sign', () => {
    expect(leaf('d0 80', 'nint', 1, -128)).toBe(-128);
    expect(leaf('d0 7f', 'uint', 1, 127)).toBe(127);
    expect(leaf('d0 ff', 'nint', 1, -1)).toBe(-1);
    expect(leaf('d1 8000', 'nint', 1, -32768)).toBe(-32768);
    expect(leaf('d1 7fff', 'uint', 1, 32767)).toBe(32767);
    expect(leaf('d2 80000000', 'nint', 1, -2147483648)).toBe(-2147483648);
    expect(leaf('d2 7fffffff', 'uint', 1, 2147483647)).toBe(2147483647);
    expect(leaf('d2 ffffffff', 'nint', 1, -1)).toBe(-1);
    expect(leaf('d3 0000000000000001', 'uint', 1, 1)).toBe(1);
    expect(leaf('d3 ffffffffffffffff', 'nint', 1, -1)).toBe(-1);
    expect(leaf('d3 ffe0000000000001', 'nint', 1)).toBe(Number.MIN_SAFE_INTEGER);
    expect(leaf('d3 ffe0000000000000', 'nint', 1)).toBe(-(2n ** 53n));
    expect(leaf('d3 8000000000000000', 'nint', 1)).toBe(-(2n ** 63n));
    expect(leaf('d3 7fffffffffffffff', 'uint', 1)).toBe(2n ** 63n - 1n);
  });

  it('float 32 / float 64', () => {
    expect(leaf('ca 3fc00000', 'float32', 1)).toBe(1.5);
    expect(leaf('ca 7fc00000', 'float32', 1)).toBeNaN();
    expect(leaf('ca ff800000', 'float32', 1)).toBe(-Infinity);
    expect(leaf('cb 3ff8000000000000', 'float64', 1)).toBe(1.5);
    expect(Object.is(leaf('cb 8000000000000000', 'float64', 1), -0)).toBe(true);
    expect(leaf('cb 3fb999999999999a', 'float64', 1)).toBe(0.1);
  });

  it('fixstr, str 8/16/32', () => {
    expect(leaf('a0', 'text', 1, 0)).toBe('');
    expect(leaf('a3 616263', 'text', 1, 3)).toBe('abc');
    expect(leaf('d9 03 616263', 'text', 2, 3)).toBe('abc');
    expect(leaf('da 0003 616263', 'text', 3, 3)).toBe('abc');
    expect(leaf('db 00000003 616263', 'text', 5, 3)).toBe('abc');
    const s = 'é€😀'.repeat(3);
    const utf8 = Buffer.from(s, 'utf8');
    expect(leaf(cat([0xd9, utf8.length], utf8), 'text', 2, utf8.length)).toBe(s);
    const long = 'x'.repeat(70000);
    expect(leaf(cat([0xdb, 0, 1, 0x11, 0x70], Buffer.from(long)), 'text', 5, 70000)).toBe(long);
    const medium = 'y'.repeat(300);
    expect(leaf(cat([0xda, 1, 0x2c], Buffer.from(medium)), 'text', 3, 300)).toBe(medium);
  });

  it('bin 8/16/32 decode to a copy', () => {
    expect(leaf('c4 00', 'bytes', 2, 0)).toEqual(new Uint8Array(0));
    expect(leaf('c4 03 010203', 'bytes', 2, 3)).toEqual(Uint8Array.from([1, 2, 3]));
    expect(leaf('c5 0003 010203', 'bytes', 3, 3)).toEqual(Uint8Array.from([1, 2, 3]));
    expect(leaf('c6 00000003 010203', 'bytes', 5, 3)).toEqual(Uint8Array.from([1, 2, 3]));
    // a copy, and a plain Uint8Array even when the frame is a Node Buffer (whose slice is a view)
    for (const bytes of [hex('c4 02 0a0b'), Buffer.from('c4020a0b', 'hex'), hex('d5 01 0a0b')]) {
      const v = indexMsgpack(bytes).value(0);
      const data = v instanceof ExtValue ? v.data : (v as Uint8Array);
      expect(Object.getPrototypeOf(data)).toBe(Uint8Array.prototype);
      data[0] = 0xff;
      expect(bytes[2]).toBe(0x0a);
    }
  });

  it('fixext 1/2/4/8/16 are leaves with a signed type and head 2', () => {
    const cases: [string, number, number][] = [
      ['d4 05 aa', 5, 1],
      ['d5 fe aabb', -2, 2],
      ['d6 80 01020304', -128, 4],
      ['d7 7f 0102030405060708', 127, 8],
      ['d8 9c 000102030405060708090a0b0c0d0e0f', -100, 16],
    ];
    for (const [h, type, n] of cases) {
      const v = leaf(h, 'ext', 2, type) as ExtValue;
      expect(v).toBeInstanceOf(ExtValue);
      expect(v.type).toBe(type);
      expect(v.data).toEqual(hex(h).subarray(2));
      expect(v.data.length).toBe(n);
      expect(v.timestamp).toBeNull();
    }
  });

  it('ext 8/16/32 are leaves: head includes the length and type bytes', () => {
    let v = leaf('c7 00 01', 'ext', 3, 1) as ExtValue;
    expect(v.type).toBe(1);
    expect(v.data).toEqual(new Uint8Array(0));
    v = leaf('c7 03 ff 010203', 'ext', 3, -1) as ExtValue;
    expect(v.type).toBe(-1);
    expect(v.data).toEqual(Uint8Array.from([1, 2, 3]));
    expect(v.timestamp).toBeNull(); // type -1 with a length other than 4/8/12
    v = leaf('c8 0002 9c aabb', 'ext', 4, -100) as ExtValue;
    expect(v.type).toBe(-100);
    expect(v.data).toEqual(Uint8Array.from([0xaa, 0xbb]));
    v = leaf('c9 00000001 81 cc', 'ext', 6, -127) as ExtValue;
    expect(v.type).toBe(-127);
    expect(v.data).toEqual(Uint8Array.from([0xcc]));
    const ix = indexMsgpack(hex('92 c8 0002 05 aabb c0'));
    expect(ix.error).toBeNull();
    expect(info(ix, 1)).toEqual({ kind: 'ext', start: 1, end: 7, head: 4, arg: 5 });
    expect(ix.isContainer(1)).toBe(false);
    expect(ix.store.firstChild[1]).toBe(-1);
  });

  it('timestamp 32/64/96', () => {
    let v = leaf('d6 ff 00000001', 'ext', 2, -1) as ExtValue;
    expect(v.timestamp).toEqual({ seconds: 1, nanoseconds: 0, date: new Date(1000) });

    // timestamp 64: nanoseconds 123456789 (30 bits), seconds 2^32 + 5 (34 bits)
    const word = (123456789 * 4 + 1) >>> 0;
    const ts64 = cat([0xd7, 0xff, word >>> 24, (word >> 16) & 255, (word >> 8) & 255, word & 255], [0, 0, 0, 5]);
    v = leaf(ts64, 'ext', 2, -1) as ExtValue;
    expect(v.timestamp!.seconds).toBe(2 ** 32 + 5);
    expect(v.timestamp!.nanoseconds).toBe(123456789);
    expect(v.timestamp!.date!.getTime()).toBe((2 ** 32 + 5) * 1000 + 123);

    // timestamp 96: 500000000 ns, seconds -2 → -1.5 s
    v = leaf('c7 0c ff 1dcd6500 fffffffffffffffe', 'ext', 3, -1) as ExtValue;
    expect(v.timestamp).toEqual({ seconds: -2, nanoseconds: 500000000, date: new Date(-1500) });

    // timestamp 96 before 1970 with sub-millisecond nanoseconds: the millisecond containing the instant
    v = leaf('c7 0c ff 3b9ac9ff ffffffffffffffff', 'ext', 3, -1) as ExtValue;
    expect(v.timestamp).toEqual({ seconds: -1, nanoseconds: 999999999, date: new Date(-1) });

    // timestamp 96 beyond Date's range and beyond 2^53 seconds: bigint seconds, no Date
    v = leaf('c7 0c ff 00000000 4000000000000000', 'ext', 3, -1) as ExtValue;
    expect(v.timestamp).toEqual({ seconds: 2n ** 62n, nanoseconds: 0, date: null });
    v = leaf('c7 0c ff 00000000 8000000000000000', 'ext', 3, -1) as ExtValue;
    expect(v.timestamp).toEqual({ seconds: -(2n ** 63n), nanoseconds: 0, date: null });
    // beyond Date's range but a safe integer
    v = leaf('c7 0c ff 00000000 0000100000000000', 'ext', 3, -1) as ExtValue;
    expect(v.timestamp).toEqual({ seconds: 2 ** 44, nanoseconds: 0, date: null });

    // nanoseconds above 999999999: not a valid timestamp, still an ExtValue
    v = leaf('c7 0c ff 3b9aca00 0000000000000000', 'ext', 3, -1) as ExtValue;
    expect(v.type).toBe(-1);
    expect(v.timestamp).toBeNull();

    // what the libraries write for Dates
    for (const ms of [0, 1000, 1e12, -1500, 2 ** 34 * 1000 + 5, -62135596800000, 8.64e15]) {
      for (const bytes of [encode(new Date(ms)), pack(new Date(ms))]) {
        const ts = (indexMsgpack(bytes).value(0) as ExtValue).timestamp!;
        expect(ts.date!.getTime()).toBe(ms);
      }
    }
  });

  it('arrays: fixarray, array 16/32', () => {
    let ix = indexMsgpack(hex('90'));
    expect(info(ix, 0)).toEqual({ kind: 'array', start: 0, end: 1, head: 1, arg: 0 });
    expect(ix.value(0)).toEqual([]);
    ix = indexMsgpack(hex('92 01 a161'));
    expect(info(ix, 0)).toEqual({ kind: 'array', start: 0, end: 4, head: 1, arg: 2 });
    expect(info(ix, 1)).toEqual({ kind: 'uint', start: 1, end: 2, head: 1, arg: 1 });
    expect(info(ix, 2)).toEqual({ kind: 'text', start: 2, end: 4, head: 1, arg: 1 });
    expect(ix.value(0)).toEqual([1, 'a']);
    ix = indexMsgpack(hex('dc 0002 01 02'));
    expect(info(ix, 0)).toEqual({ kind: 'array', start: 0, end: 5, head: 3, arg: 2 });
    expect(ix.value(0)).toEqual([1, 2]);
    ix = indexMsgpack(hex('dd 00000002 01 02'));
    expect(info(ix, 0)).toEqual({ kind: 'array', start: 0, end: 7, head: 5, arg: 2 });
    expect(ix.value(0)).toEqual([1, 2]);
    const big = Array.from({ length: 70000 }, (_, i) => i & 127);
    ix = indexMsgpack(pack(big));
    expect(info(ix, 0)).toMatchObject({ kind: 'array', head: 5, arg: 70000 });
    expect(ix.value(0)).toEqual(big);
    checkInvariants(ix);
  });

  it('maps: fixmap, map 16/32; keys flagged and alternating', () => {
    let ix = indexMsgpack(hex('80'));
    expect(info(ix, 0)).toEqual({ kind: 'map', start: 0, end: 1, head: 1, arg: 0 });
    expect(ix.value(0)).toEqual({});
    ix = indexMsgpack(hex('82 a161 01 a162 92 02 03'));
    expect(ix.error).toBeNull();
    expect(info(ix, 0)).toEqual({ kind: 'map', start: 0, end: 9, head: 1, arg: 2 });
    const s = ix.store;
    const kids: number[] = [];
    for (let c = s.firstChild[0]; c >= 0; c = s.nextSibling[c]) kids.push(c);
    expect(kids.map((c) => [info(ix, c).start, info(ix, c).end, (s.flags[c] & Flag.key) !== 0])).toEqual([
      [1, 3, true],
      [3, 4, false],
      [4, 6, true],
      [6, 9, false],
    ]);
    expect(ix.children(0)).toEqual([kids[1], kids[3]]);
    expect(ix.keyOf(kids[3])).toBe(kids[2]);
    expect(ix.value(0)).toEqual({ a: 1, b: [2, 3] });
    ix = indexMsgpack(hex('de 0001 a161 01'));
    expect(info(ix, 0)).toEqual({ kind: 'map', start: 0, end: 6, head: 3, arg: 1 });
    expect(ix.value(0)).toEqual({ a: 1 });
    ix = indexMsgpack(hex('df 00000001 a161 01'));
    expect(info(ix, 0)).toEqual({ kind: 'map', start: 0, end: 8, head: 5, arg: 1 });
    expect(ix.value(0)).toEqual({ a: 1 });
  });

  it('nested spans tile their parents', () => {
    const value = { a: [1, 2, { b: 'x', c: new Uint8Array([1, 2]) }], d: -300, e: 1.25, f: 2n ** 60n };
    for (const bytes of [pack(value), encode(value, { useBigInt64: true })]) {
      const ix = indexMsgpack(bytes);
      expect(ix.error).toBeNull();
      checkInvariants(ix);
      expect(ix.store.end[0]).toBe(bytes.length);
      const v = ix.value(0) as Record<string, unknown>;
      expect(v.f).toBe(2n ** 60n);
      expect(v.d).toBe(-300);
      expect(v.a).toEqual([1, 2, { b: 'x', c: Uint8Array.from([1, 2]) }]);
    }
  });
});

describe('msgpack walker: errors', () => {
  const expectError = (ix: SpanIndex, code: string, offset: number) => {
    expect(ix.error).not.toBeNull();
    expect(ix.ok).toBe(false);
    expect({ code: ix.error!.code, offset: ix.error!.offset }).toEqual({ code, offset });
  };

  it('empty input', () => {
    const ix = indexMsgpack(new Uint8Array(0));
    expectError(ix, 'empty-input', 0);
    expect(ix.root).toBe(-1);
    expect(ix.value(0)).toBeUndefined();
  });

  it('trailing bytes after the root', () => {
    const ix = indexMsgpack(hex('92 01 02 c0 c0'));
    expectError(ix, 'trailing-bytes', 3);
    expect(ix.store.end[0]).toBe(3);
    expect(ix.isIncomplete(0)).toBe(false);
  });

  it('truncation at every prefix length never yields ok', () => {
    const encodings = [
      hex('82 a161 01 a162 92 02 03'),
      hex('dc 0003 cd 0102 d9 03 616263 c7 02 05 aabb'),
      hex('df 00000002 c4 02 0102 cb 3ff8000000000000 d3 8000000000000000 91 d8 01 000102030405060708090a0b0c0d0e0f'),
      hex('93 ce 01020304 d2 ffffffff ca 3fc00000'),
      hex('c9 00000003 7f 010203'),
      hex('db 00000004 e282ac21'),
      pack({
        a: [1, 2, { b: 'x'.repeat(40), c: new Uint8Array(300) }],
        d: -300,
        e: 1.25,
        f: 2n ** 60n,
        g: new Date(1e12),
      }),
      encode({ list: Array.from({ length: 20 }, (_, i) => ({ i, s: 'é'.repeat(i) })) }),
    ];
    const problems: string[] = [];
    let checked = 0;
    for (const full of encodings) {
      expect(indexMsgpack(full).error).toBeNull();
      for (let k = 0; k < full.length; k++) {
        const bytes = full.subarray(0, k);
        const fullError = indexMsgpack(bytes).error;
        for (const depth of [Infinity, 0, 1, 2]) {
          const where = `${Buffer.from(full).toString('hex').slice(0, 40)}… cut at ${k}, depth ${depth}`;
          let ix: SpanIndex;
          try {
            ix = indexMsgpack(bytes, { depth });
            ix.value(0);
            ix.expandAll(0);
          } catch (e) {
            problems.push(`${where}: threw ${e}`);
            continue;
          }
          checked++;
          const err = ix.error;
          if (ix.ok || !err) problems.push(`${where}: ok`);
          else if (
            k === 0
              ? err.code !== 'empty-input'
              : err.code === 'truncated'
                ? err.offset !== k
                : err.code !== 'length-exceeds-input' || err.offset >= k
          )
            problems.push(`${where}: ${err.code} at ${err.offset}`);
          else if (ix.root >= 0 && !ix.isIncomplete(0)) problems.push(`${where}: root not incomplete`);
          else if (err.code !== fullError?.code || err.offset !== fullError.offset)
            problems.push(`${where}: error differs from the full walk's`);
          const bad = invariantViolation(ix);
          if (bad) problems.push(`${where}: ${bad}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(1000);
  });

  it('a truncated header is truncated at the input length; a short payload is length-exceeds-input at the item', () => {
    expectError(indexMsgpack(hex('ce 0102')), 'truncated', 3);
    expect(indexMsgpack(hex('ce 0102')).store.size).toBe(0);
    expectError(indexMsgpack(hex('d9')), 'truncated', 1);
    expectError(indexMsgpack(hex('c7 05')), 'truncated', 2);
    expectError(indexMsgpack(hex('d7')), 'truncated', 1);
    let ix = indexMsgpack(hex('92 01 d9 05 6162'));
    expectError(ix, 'length-exceeds-input', 2);
    expect(info(ix, 2)).toEqual({ kind: 'text', start: 2, end: 6, head: 2, arg: 5 });
    expect(ix.isIncomplete(2)).toBe(true);
    // the open array contains its incomplete child
    expect(ix.isIncomplete(0)).toBe(true);
    expect(ix.store.end[0]).toBe(6);
    expect(ix.value(0)).toEqual([1, undefined]); // an incomplete leaf has no value
    ix = indexMsgpack(hex('d7 01 aabb'));
    expectError(ix, 'length-exceeds-input', 0);
    expect(info(ix, 0)).toEqual({ kind: 'ext', start: 0, end: 4, head: 2, arg: 1 });
    expect(ix.isIncomplete(0)).toBe(true);
    expect(ix.value(0)).toBeUndefined();
  });

  it('arrays and maps that declare more items than bytes run out: truncated, partial children kept', () => {
    let ix = indexMsgpack(hex('dd ffffffff 01 02'));
    expectError(ix, 'truncated', 7);
    expect(ix.store.size).toBe(3);
    expect(ix.value(0)).toEqual([1, 2]);
    ix = indexMsgpack(hex('df ffffffff a161 01 a162'));
    expectError(ix, 'truncated', 10);
    expect(ix.isIncomplete(0)).toBe(true);
    expect(ix.store.end[0]).toBe(10);
    ix = indexMsgpack(hex('df ffffffff'), { depth: 0 });
    expectError(ix, 'truncated', 5);
  });

  it('0xc1 is invalid-byte at its offset', () => {
    expectError(indexMsgpack(hex('c1')), 'invalid-byte', 0);
    for (const depth of [Infinity, 0, 1]) {
      const ix = indexMsgpack(hex('93 01 91 c1 02'), { depth });
      expectError(ix, 'invalid-byte', 3);
      expect(ix.isIncomplete(0)).toBe(true);
      expect(ix.value(0)).toEqual([1, []]);
      checkInvariants(ix);
    }
    // as a map key
    expectError(indexMsgpack(hex('81 c1 01')), 'invalid-byte', 1);
  });

  it('invalid UTF-8 in a str is a warning at the bad byte, not an error (msgpack-edges.test.ts has the rest)', () => {
    for (const depth of [Infinity, 0]) {
      const ix = indexMsgpack(hex('92 a1 61 d9 03 61 ff 62'), { depth });
      expect(ix.error).toBeNull();
      ix.expandAll(0);
      expect(ix.warnings.map((w) => `${w.code}@${w.offset}`)).toEqual(['invalid-utf8@6']);
      checkInvariants(ix);
    }
    // bin is not validated
    const ix = indexMsgpack(hex('c4 02 c328'));
    expect(ix.error).toBeNull();
    expect(ix.warnings).toEqual([]);
  });

  it('a str 32 length bomb fails before any allocation', () => {
    for (const bytes of [hex('db ffffffff'), hex('c6 ffffffff'), hex('c9 ffffffff 01'), hex('91 db ffffffff')]) {
      for (const depth of [Infinity, 0]) {
        const t = performance.now();
        const ix = indexMsgpack(bytes, { depth });
        expect(ix.value(0)).toEqual(bytes[0] === 0x91 ? [undefined] : undefined);
        expect(performance.now() - t).toBeLessThan(50);
        expect(ix.error!.code).toBe('length-exceeds-input');
        expect(ix.error!.offset).toBe(bytes[0] === 0x91 ? 1 : 0);
        expect(ix.store.size).toBeLessThanOrEqual(2);
      }
    }
    const ix = indexMsgpack(hex('db ffffffff'));
    expect(info(ix, 0)).toEqual({ kind: 'text', start: 0, end: 5, head: 5, arg: 4294967295 });
    expect(ix.isIncomplete(0)).toBe(true);
  });

  it('100,000 nested fixarrays: no crash', () => {
    const open = repeat(0x91, 100_000);
    for (const depth of [Infinity, 0, 3]) {
      const ix = indexMsgpack(open, { depth });
      expectError(ix, 'truncated', 100_000);
      expect(ix.isIncomplete(0)).toBe(true);
      expect(ix.store.end[0]).toBe(100_000);
      expect(ix.store.size).toBe(depth === Infinity ? 100_000 : depth + 1);
    }
    const ix = indexMsgpack(open);
    expect(() => ix.value(0)).not.toThrow();
    const closed = cat(open, [0xc0]);
    const full = indexMsgpack(closed);
    expect(full.error).toBeNull();
    expect(full.store.size).toBe(100_001);
    expect(full.store.end[0]).toBe(100_001);
    expect(full.store.end[99_999]).toBe(100_001); // the innermost array holds the nil
    expect(full.store.start[100_000]).toBe(100_000);
    let v = full.value(0);
    let levels = 0;
    let wrongLength = 0;
    while (Array.isArray(v)) {
      if (v.length !== 1) wrongLength++;
      v = v[0];
      levels++;
    }
    expect(wrongLength).toBe(0);
    expect(levels).toBe(100_000);
    expect(v).toBeNull();
    for (const depth of [0, 1, 10]) {
      const shallow = indexMsgpack(closed, { depth });
      expect(shallow.error).toBeNull();
      expect(shallow.store.size).toBe(depth + 1);
      expect(shallow.store.end[depth]).toBe(100_001);
    }
  });

  it('value() and expandAll of a shallow index over 100,000 levels', () => {
    const ix = indexMsgpack(cat(repeat(0x91, 100_000), [0xc0]), { depth: 0 });
    let v: unknown;
    expect(() => (v = ix.value(0))).not.toThrow();
    expect(ix.store.size).toBe(100_001);
    let levels = 0;
    while (Array.isArray(v)) {
      v = v[0];
      levels++;
    }
    expect(levels).toBe(100_000);
    const open = indexMsgpack(repeat(0x91, 100_000), { depth: 2 });
    expect(() => open.expandAll(0)).not.toThrow();
    expect(open.store.size).toBe(100_000);
    expect(open.isIncomplete(99_999)).toBe(true);
  });

  it('__proto__ and constructor keys become own properties', () => {
    const key = (s: string) => cat([0xa0 + s.length], Buffer.from(s));
    const bytes = cat(
      [0x83],
      key('__proto__'),
      [0x81],
      key('polluted'),
      [0xc3],
      key('constructor'),
      [0x02],
      key('toString'),
      [0x03],
    );
    const ix = indexMsgpack(bytes);
    expect(ix.error).toBeNull();
    const v = ix.value(0) as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(v, '__proto__')?.value).toEqual({ polluted: true });
    expect(Object.getOwnPropertyDescriptor(v, 'constructor')?.value).toBe(2);
    expect(Object.getOwnPropertyDescriptor(v, 'toString')?.value).toBe(3);
    expect(Object.keys(v)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
    // the walker itself has no opinion on key names
    expect(ix.warnings).toEqual([]);
  });

  it('duplicate keys are reported and kept', () => {
    const ix = indexMsgpack(hex('83 a161 01 a162 02 a161 03'));
    expect(ix.error).toBeNull();
    expect(ix.warnings).toHaveLength(1);
    expect(ix.warnings[0]).toMatchObject({ code: 'duplicate-key', offset: 7, node: 5 });
    expect(ix.store.flags[5] & Flag.duplicateKey).toBeTruthy();
    const v = ix.value(0);
    expect(v).toBeInstanceOf(EntriesMap);
    expect((v as EntriesMap).entries).toEqual([
      ['a', 1],
      ['b', 2],
      ['a', 3],
    ]);
    // nested maps too, and non-string keys compare by bytes
    const nested = indexMsgpack(hex('91 82 01 c0 01 c3'));
    expect(nested.warnings.map((w) => w.offset)).toEqual([4]);
    // a shallow index reports a map's duplicates when the map is expanded
    const shallow = indexMsgpack(hex('91 82 01 c0 01 c3'), { depth: 1 });
    expect(shallow.warnings).toEqual([]);
    shallow.expand(1);
    expect(shallow.warnings.map((w) => w.offset)).toEqual([4]);
  });

  it('non-string keys give a Map', () => {
    const ix = indexMsgpack(hex('83 01 a161 c3 02 92 01 02 c0'));
    expect(ix.error).toBeNull();
    const v = ix.value(0) as Map<unknown, unknown>;
    expect(v).toBeInstanceOf(Map);
    expect([...v.entries()]).toEqual([
      [1, 'a'],
      [true, 2],
      [[1, 2], null],
    ]);
    expect(
      indexMsgpack(
        pack(
          new Map<unknown, unknown>([
            [-5, 'x'],
            [null, 1],
          ]),
        ),
      ).value(0),
    ).toEqual(
      new Map<unknown, unknown>([
        [-5, 'x'],
        [null, 1],
      ]),
    );
  });
});

describe('msgpack walker: shallow indexes', () => {
  // {a: [1, 2, {b: 'x'}], c: 'yy'}
  const bytes = hex('82 a161 93 01 02 81 a162 a178 a163 a27979');
  //                0  1    3  4  5  6  7    9    11   13
  it('depth 1 records the root children with their spans only', () => {
    const ix = indexMsgpack(bytes, { depth: 1 });
    expect(ix.error).toBeNull();
    expect(ix.store.size).toBe(5);
    expect(ix.isExpanded(0)).toBe(true);
    expect([1, 2, 3, 4].map((id) => info(ix, id))).toEqual([
      { kind: 'text', start: 1, end: 3, head: 1, arg: 1 },
      { kind: 'array', start: 3, end: 11, head: 1, arg: 3 },
      { kind: 'text', start: 11, end: 13, head: 1, arg: 1 },
      { kind: 'text', start: 13, end: 16, head: 1, arg: 2 },
    ]);
    expect(ix.isExpanded(2)).toBe(false);
    expect(ix.store.firstChild[2]).toBe(-1);

    ix.expand(2);
    expect(ix.isExpanded(2)).toBe(true);
    expect(ix.store.size).toBe(8);
    expect([5, 6, 7].map((id) => info(ix, id))).toEqual([
      { kind: 'uint', start: 4, end: 5, head: 1, arg: 1 },
      { kind: 'uint', start: 5, end: 6, head: 1, arg: 2 },
      { kind: 'map', start: 6, end: 11, head: 1, arg: 1 },
    ]);
    expect(ix.isExpanded(7)).toBe(false);
    ix.expand(2); // already expanded: nothing new
    expect(ix.store.size).toBe(8);
    expect(ix.value(0)).toEqual({ a: [1, 2, { b: 'x' }], c: 'yy' });
  });

  it('depth 0 records only the root', () => {
    const ix = indexMsgpack(bytes, { depth: 0 });
    expect(ix.error).toBeNull();
    expect(ix.store.size).toBe(1);
    expect(info(ix, 0)).toEqual({ kind: 'map', start: 0, end: 16, head: 1, arg: 2 });
    expect(ix.isExpanded(0)).toBe(false);
    expect(ix.children(0).length).toBe(2);
    expect(ix.store.size).toBe(5);
  });

  it('nodeAt finds the deepest node, expanding lazily', () => {
    const ix = indexMsgpack(bytes, { depth: 1 });
    const x = ix.nodeAt(10);
    expect(info(ix, x)).toEqual({ kind: 'text', start: 9, end: 11, head: 1, arg: 1 });
    expect(ix.value(x)).toBe('x');
    expect(ix.kind(ix.nodeAt(7))).toBe('text'); // key 'b'
    expect(ix.nodeAt(6)).toBe(ix.store.parent[x]);
    expect(ix.nodeAt(0)).toBe(0);
    expect(ix.nodeAt(16)).toBe(-1);
    expect(ix.store.size).toBe(10); // only the path to 'x' was expanded
  });

  it('expandAll of a shallow index records what a full index records', () => {
    const big = pack({ rows: Array.from({ length: 50 }, (_, i) => ({ i, tags: ['a', 'b'], m: new Map([[i, i]]) })) });
    const full = indexMsgpack(big);
    const shallow = indexMsgpack(big, { depth: 1 });
    expect(shallow.store.size).toBe(3);
    shallow.expandAll(0);
    expect(shallow.store.size).toBe(full.store.size);
    expect(shallow.value(0)).toEqual(full.value(0));
  });
});
