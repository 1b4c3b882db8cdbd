import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { Packr, pack } from 'msgpackr';
import { Flag, kindName } from '../core/kinds.js';
import { SpanIndex } from '../core/span-index.js';
import { SpanStore } from '../core/span-store.js';
import { indexMsgpack, msgpackWalker } from './index.js';
import { shapeValues } from '../bench/shapes.js';
import { hex } from '../test/helpers/hex.js';

/**
 * Runs of items with the same format byte (the floats of a vertex buffer, byte-sized
 * integers, colours) are recorded by a loop of their own, and a full index is sized from a
 * count of the frame's heads. Checked against a small recursive reference reader written
 * here (not the walker): every node's kind, span, head, arg, key flag, parent and children,
 * for long arrays of every fixed-size format, with the store growing mid-run, and for
 * frames cut inside a run.
 */

function rows(ix: SpanIndex): string[] {
  const s = ix.store;
  const out: string[] = [];
  for (let id = 0; id < s.size; id++) {
    const p = s.parent[id];
    const children: number[] = [];
    for (let c = s.firstChild[id]; c >= 0; c = s.nextSibling[c]) children.push(s.start[c]);
    out.push(
      row(
        kindName(s.kind[id]),
        s.start[id],
        s.end[id],
        s.head[id],
        s.arg[id],
        (s.flags[id] & Flag.key) !== 0,
        p < 0 ? -1 : s.start[p],
        children,
      ),
    );
  }
  return out.sort();
}

function row(
  kind: string,
  start: number,
  end: number,
  head: number,
  arg: number,
  key: boolean,
  parentStart: number,
  children: number[],
): string {
  return [kind, start, end, head, arg, key ? 'key' : '', parentStart, children.join('/')].join(',');
}

/**
 * The reference: reads the item at `pos` recursively (small test frames only) and appends
 * its row and its descendants'; returns where it ends, or -1 when the frame is cut.
 */
function reference(bytes: Uint8Array, pos: number, parentStart: number, key: boolean, out: string[]): number {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const b = bytes[pos];
  const leaf = (kind: string, head: number, payload: number, arg: number) => {
    if (pos + head + payload > bytes.length) return -1;
    out.push(row(kind, pos, pos + head + payload, head, arg, key, parentStart, []));
    return pos + head + payload;
  };
  const container = (kind: string, head: number, count: number) => {
    if (pos + head > bytes.length) return -1;
    const items = kind === 'map' ? count * 2 : count;
    const children: number[] = [];
    const mine: string[] = [];
    let p = pos + head;
    for (let i = 0; i < items; i++) {
      if (p >= bytes.length) return -1;
      children.push(p);
      p = reference(bytes, p, pos, kind === 'map' && i % 2 === 0, mine);
      if (p < 0) return -1;
    }
    out.push(row(kind, pos, p, head, count, key, parentStart, children), ...mine);
    return p;
  };
  if (b < 0x80) return leaf('uint', 1, 0, b);
  if (b >= 0xe0) return leaf('nint', 1, 0, b - 256);
  if (b < 0x90) return container('map', 1, b & 15);
  if (b < 0xa0) return container('array', 1, b & 15);
  if (b < 0xc0) return leaf('text', 1, b & 31, b & 31);
  const need = (n: number) => pos + 1 + n <= bytes.length;
  switch (b) {
    case 0xc0:
      return leaf('null', 1, 0, 0);
    case 0xc2:
      return leaf('false', 1, 0, 0);
    case 0xc3:
      return leaf('true', 1, 0, 0);
    case 0xca:
      return leaf('float32', 1, 4, 0);
    case 0xcb:
      return leaf('float64', 1, 8, 0);
    case 0xcc:
      return need(1) ? leaf('uint', 1, 1, dv.getUint8(pos + 1)) : -1;
    case 0xcd:
      return need(2) ? leaf('uint', 1, 2, dv.getUint16(pos + 1)) : -1;
    case 0xce:
      return need(4) ? leaf('uint', 1, 4, dv.getUint32(pos + 1)) : -1;
    case 0xd0:
    case 0xd1:
    case 0xd2: {
      const n = 1 << (b - 0xd0);
      if (!need(n)) return -1;
      const v = n === 1 ? dv.getInt8(pos + 1) : n === 2 ? dv.getInt16(pos + 1) : dv.getInt32(pos + 1);
      return leaf(v < 0 ? 'nint' : 'uint', 1, n, v);
    }
    case 0xd9:
      return need(1) ? leaf('text', 2, bytes[pos + 1], bytes[pos + 1]) : -1;
    case 0xda:
      return need(2) ? leaf('text', 3, dv.getUint16(pos + 1), dv.getUint16(pos + 1)) : -1;
    case 0xc4:
      return need(1) ? leaf('bytes', 2, bytes[pos + 1], bytes[pos + 1]) : -1;
    case 0xdc:
      return need(2) ? container('array', 3, dv.getUint16(pos + 1)) : -1;
    case 0xdd:
      return need(4) ? container('array', 5, dv.getUint32(pos + 1)) : -1;
    case 0xde:
      return need(2) ? container('map', 3, dv.getUint16(pos + 1)) : -1;
    default:
      throw new Error(`reference: format byte 0x${b.toString(16)} not covered by this test`);
  }
}

function expectedRows(bytes: Uint8Array): string[] {
  const out: string[] = [];
  expect(reference(bytes, 0, -1, false, out)).toBe(bytes.length);
  return out.sort();
}

/** [start, end) of each item of the root, as recorded. */
function rootItems(ix: SpanIndex): string[] {
  const s = ix.store;
  const out: string[] = [];
  if (s.size > 0) for (let c = s.firstChild[0]; c >= 0; c = s.nextSibling[c]) out.push(`${s.start[c]}-${s.end[c]}`);
  return out;
}

/** The walker with a fixed first store size (the store then grows while the walk runs). */
const withCapacity = (capacity: number) => ({ ...msgpackWalker, capacityHint: () => capacity });

const float32 = new Packr({ useFloat32: 1 /* ALWAYS */ });
const ints = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));

/** Long arrays of one fixed-size format, runs broken by other formats, runs at the end of arrays. */
const frames: Record<string, Uint8Array> = {
  float64: pack(ints(300, (i) => i / 7 - 20)),
  float32: float32.pack(ints(300, (i) => i + 0.5)),
  'fixint zeros': pack(ints(300, () => 0)),
  'negative fixints': pack(ints(300, () => -3)),
  'uint 8': pack(ints(300, (i) => 128 + (i % 128))),
  'uint 16': pack(ints(300, (i) => 256 + i * 211)),
  'uint 32': pack(ints(300, (i) => 70_000 + i * 1_000_003)),
  'int 8, both signs': Uint8Array.from([0xdc, 0x01, 0x2c, ...ints(300, (i) => [0xd0, (i * 37) & 0xff]).flat()]),
  'int 16, both signs': Uint8Array.from([
    0xdc,
    0x01,
    0x2c,
    ...ints(300, (i) => [0xd1, (i * 37) & 0xff, (i * 101) & 0xff]).flat(),
  ]),
  'int 32, both signs': Uint8Array.from([
    0xdc,
    0x01,
    0x2c,
    ...ints(300, (i) => [0xd2, (i * 37) & 0xff, 0, 0, (i * 101) & 0xff]).flat(),
  ]),
  'nil, false, true': pack(ints(300, (i) => [null, false, true][Math.floor(i / 50) % 3])),
  'mixed widths (runs of 1-9)': pack(
    ints(400, (i) => (i % 17 < 9 ? i % 120 : i % 17 < 13 ? 200 + i : i % 17 < 15 ? 70_000 + i : i / 3)),
  ),
  'runs inside records and pairs': pack({
    a: ints(40, (i) => i / 3),
    b: [[0, 0, 0, 0], ints(20, () => 255)],
    c: ints(40, (i) => 300 + i),
    d: 0,
    e: 0,
  }),
  'mesh 8 KB': pack(shapeValues(13).find((v) => v.shape.id === 'mesh' && v.target === 8 << 10)!.value),
};

describe('msgpack walker: runs of one format byte', () => {
  for (const [name, bytes] of Object.entries(frames)) {
    it(`${name}: every node as the reference reads it, with the store sized or growing mid-run`, () => {
      const expected = expectedRows(bytes);
      const full = indexMsgpack(bytes);
      expect(full.error).toBeNull();
      expect(rows(full)).toEqual(expected);
      for (const capacity of [1, 7, 13, 64]) {
        const ix = new SpanIndex(bytes, withCapacity(capacity));
        expect(ix.error, `capacity ${capacity}`).toBeNull();
        expect(rows(ix), `capacity ${capacity}`).toEqual(expected);
      }
      const shallow = indexMsgpack(bytes, { depth: 1 });
      shallow.expandAll(0);
      expect(rows(shallow)).toEqual(expected);
    });
  }

  it('a frame cut inside a run fails where the bytes end, its recorded nodes inside their parents', () => {
    for (const name of ['float64', 'uint 16', 'int 32, both signs', 'mixed widths (runs of 1-9)']) {
      const whole = frames[name];
      for (const cut of [whole.length - 1, whole.length - 3, Math.floor(whole.length / 2)]) {
        const bytes = whole.slice(0, cut);
        for (const capacity of [0, 7]) {
          const ix = capacity ? new SpanIndex(bytes, withCapacity(capacity)) : indexMsgpack(bytes);
          expect(ix.error?.code, `${name} cut at ${cut}`).toBe('truncated');
          expect(ix.error?.offset).toBe(cut);
          const s = ix.store;
          for (let id = 1; id < s.size; id++) {
            expect(s.start[id]).toBeGreaterThanOrEqual(s.start[s.parent[id]]);
            expect(s.end[id]).toBeLessThanOrEqual(Math.min(s.end[s.parent[id]], cut));
          }
          expect(s.flags[0] & Flag.incomplete).toBe(Flag.incomplete);
        }
      }
    }
  });

  it('skipped below the recorded depth, a run ends where the full index ends it, with the same error', () => {
    const cutFrames = Object.values(frames).flatMap((whole) => [
      whole,
      whole.slice(0, whole.length - 2),
      whole.slice(0, Math.floor(whole.length / 2)),
    ]);
    // fixext runs, the last one's data cut off; a run followed by the wrong count
    cutFrames.push(
      hex('91 dc 0003 d4 01 05 d4 01 06 d4 01'),
      hex('91 dc 0004 cb 3ff0000000000000 cb 4000000000000000'),
      hex('91 93 ca 3fc00000 ca 3fc00000 ca 3fc000'),
    );
    for (const bytes of cutFrames) {
      const full = indexMsgpack(bytes);
      for (const depth of [0, 1]) {
        const ix = indexMsgpack(bytes, { depth });
        expect(ix.error?.code, `depth ${depth}`).toBe(full.error?.code);
        expect(ix.error?.offset, `depth ${depth}`).toBe(full.error?.offset);
        expect(ix.store.end[0], `depth ${depth}`).toBe(full.store.end[0]);
        if (depth === 1) expect(rootItems(ix), "the root's items").toEqual(rootItems(full));
      }
    }
  });

  it("a run ends at its array's count: the next array starts after it", () => {
    const bytes = hex(
      '92 93 cb 3ff0000000000000 cb 4000000000000000 cb 4008000000000000 92 cb 4010000000000000 cb 4014000000000000',
    );
    expect(rows(indexMsgpack(bytes))).toEqual(expectedRows(bytes));
    const flat = hex('92 dc 0003 cc 01 cc 02 cc 03 cc 04');
    expect(rows(indexMsgpack(flat))).toEqual(expectedRows(flat));
  });
});

describe('msgpack full index: the store is sized from a count of the heads', () => {
  afterEach(() => vi.restoreAllMocks());

  function expectSized(bytes: Uint8Array, what: string): void {
    const grow = vi.spyOn(SpanStore.prototype, 'grow');
    const index = indexMsgpack(bytes);
    expect(grow, what).not.toHaveBeenCalled();
    grow.mockRestore();
    expect(index.error, what).toBeNull();
    expect(index.store.capacity, what).toBeLessThanOrEqual(Math.max(index.store.size + 1, 4));
  }

  it('the benchmark shapes, 100 B to 64 KB (a mesh is denser after its first floats)', () => {
    for (const { shape, target, value } of shapeValues(13, undefined, [8 << 10, 64 << 10]))
      expectSized(pack(value), `${shape.id} ${target}`);
  });

  it('arbitrary JSON values, binary, ext', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => expectSized(pack(value), JSON.stringify(value))),
      { numRuns: 300, seed: 13 },
    );
    for (const frame of [
      '93 c4 02 0102 d6 ff 00000001 c7 03 05 010203',
      '92 da 0003 616263 c5 0001 00',
      '91 c9 00000001 07 00',
    ])
      expectSized(hex(frame), frame);
  });

  it('a malformed or cut frame still indexes (the count stops where the heads stop making sense)', () => {
    for (const [frame, code] of [
      ['93 01 c1 02', 'invalid-byte'],
      ['92 01 db 00 01 00 00', 'length-exceeds-input'],
      ['dc 00 05 01 02', 'truncated'],
      ['dd ff ff ff ff 01', 'truncated'],
    ] as const) {
      const index = indexMsgpack(hex(frame));
      expect(index.error?.code, frame).toBe(code);
      expect(index.store.capacity, frame).toBeLessThanOrEqual(16);
    }
  });
});
