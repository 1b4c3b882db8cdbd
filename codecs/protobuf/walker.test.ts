import { describe, expect, it } from 'vitest';
import protobuf from 'protobufjs';
import fc from 'fast-check';
import { decodeFrame, SpanIndex, protobufWalker, Kind, previewValue, describeHead } from '../index.js';
import { lenReadings } from './readings.js';
import { protobufData } from './walker.js';
import { hex } from '../test/helpers/hex.js';

/**
 * The schema-less Protobuf walker: spans for every tag, length and payload,
 * the readings of length-delimited fields, groups, packed fields, and errors with offsets.
 */
const index = (bytes: Uint8Array, depth?: number) =>
  new SpanIndex(bytes, protobufWalker, depth === undefined ? {} : { depth });

const root = protobuf.Root.fromJSON({
  nested: {
    Inner: {
      fields: { id: { type: 'uint32', id: 1 }, label: { type: 'string', id: 2 }, score: { type: 'double', id: 3 } },
    },
    Outer: {
      fields: {
        name: { type: 'string', id: 1 },
        count: { type: 'int64', id: 2 },
        delta: { type: 'sint32', id: 3 },
        ratio: { type: 'float', id: 4 },
        blob: { type: 'bytes', id: 5 },
        inner: { type: 'Inner', id: 6 },
        items: { rule: 'repeated', type: 'Inner', id: 7 },
        codes: { rule: 'repeated', type: 'uint32', id: 8 },
        big: { type: 'fixed64', id: 9 },
        flag: { type: 'bool', id: 15 },
        far: { type: 'uint32', id: 100000 },
      },
    },
  },
});
const Outer = root.lookupType('Outer');

/** Leaves and container heads tile the frame: every byte is in exactly one of them. */
function assertTiles(ix: SpanIndex): void {
  const { store } = ix;
  const covered = new Uint8Array(ix.bytes.length);
  for (let id = 0; id < store.size; id++) {
    const container = ix.isContainer(id) && (store.flags[id] & 8) !== 0;
    const [from, to] = container
      ? [store.start[id], store.start[id] + store.head[id]]
      : [store.start[id], store.end[id]];
    for (let i = from; i < to; i++) covered[i]++;
    const parent = store.parent[id];
    if (parent >= 0) {
      expect(store.start[id]).toBeGreaterThanOrEqual(store.start[parent]);
      expect(store.end[id]).toBeLessThanOrEqual(store.end[parent]);
    }
  }
  // A group's end tag belongs to the group but to no child: count it.
  const data = protobufData(ix);
  for (const [g, at] of data.groupEnd) for (let i = at; i < store.end[g]; i++) covered[i]++;
  expect([...covered].every((c) => c === 1)).toBe(true);
}

describe('Protobuf without a schema', () => {
  it('reads every field of a protobufjs message with spans that tile the frame', () => {
    const msg = {
      name: 'order ☕',
      count: -5,
      delta: -3,
      ratio: 1.5,
      blob: Uint8Array.of(0, 255, 7),
      inner: { id: 7, label: 'x', score: 2.25 },
      items: [{ id: 1 }, { id: 2, label: 'two' }],
      codes: [1, 2, 300],
      big: '1152921504606846976',
      flag: true,
      far: 9,
    };
    const bytes = Outer.encode(Outer.fromObject(msg)).finish();
    const ix = index(bytes);
    expect(ix.error).toBeNull();
    assertTiles(ix);
    const v = ix.value(0) as Map<number, unknown> | { entries: [unknown, unknown][] };
    const pairs: [unknown, unknown][] = v instanceof Map ? [...v] : (v as { entries: [unknown, unknown][] }).entries;
    const get = (f: number) => pairs.filter(([k]) => k === f).map(([, x]) => x);
    expect(get(1)).toEqual(['order ☕']);
    expect(get(2)).toEqual([2n ** 64n - 5n]); // int64 -5 on the wire: ten bytes, two's complement
    expect(get(3)).toEqual([5]); // sint32 -3 zigzagged
    expect(get(15)).toEqual([1]);
    expect(get(100000)).toEqual([9]);
    expect(get(9)).toEqual([2n ** 60n]);
    expect(get(7)).toHaveLength(2);
    // The packed field reads as packed varints.
    expect(get(8)).toEqual([[1, 2, 300]]);
  });

  it('shows varints with their zigzag reading and fixed fields with their float reading', () => {
    const bytes = Outer.encode(Outer.create({ delta: -3, ratio: 1.5 })).finish();
    const ix = index(bytes);
    const values = ix.children(0);
    expect(previewValue(ix, values[0])).toBe('5 (sint -3)');
    expect(previewValue(ix, values[1])).toContain('float 1.5');
    expect(describeHead(ix, ix.keyOf(values[0]))).toBe('field 3 VARINT');
  });

  it('offers the readings of a length-delimited field, best first', () => {
    const text = Outer.encode(Outer.create({ name: 'hello' })).finish();
    expect(lenReadings(text, 2, text.length).readings[0]).toBe('text');
    const nested = Outer.encode(Outer.create({ inner: { id: 7, label: 'x' } })).finish();
    const r = lenReadings(nested, 2, nested.length);
    expect(r.readings[0]).toBe('message');
    expect(r.readings).toContain('bytes');
    const ix = index(nested);
    const inner = ix.children(0)[0];
    expect(ix.store.kind[inner]).toBe(Kind.map);
    expect(protobufData(ix).readings.get(inner)?.[0]).toBe('message');
  });

  it('reads groups and flags them as deprecated', () => {
    // field 1 start-group, field 2 varint 1, field 1 end-group, field 3 varint 2
    const ix = index(hex('0b 10 01 0c 18 02'));
    expect(ix.error).toBeNull();
    expect(ix.warnings.map((w) => w.code)).toEqual(['deprecated-group']);
    const group = ix.children(0)[0];
    expect(ix.value(group)).toEqual(new Map([[2, 1]]));
    expect(ix.store.kind[group]).toBe(Kind.pb_group);
    expect([ix.store.start[group], ix.store.end[group]]).toEqual([1, 4]);
    assertTiles(ix);
  });

  it('errors carry the offset and keep the fields before them', () => {
    const cases: [string, string, number][] = [
      ['08 01 00 01', 'invalid-tag', 2],
      ['08 01 0e 01', 'invalid-wire-type', 2],
      ['08 01 0f 01', 'invalid-wire-type', 2],
      ['08 01 10 ff', 'truncated', 4],
      ['08 01 12 05 61 62', 'length-exceeds-input', 3],
      ['08 01 0c', 'unmatched-end-group', 2],
      ['08 ff ff ff ff ff ff ff ff ff 7f', 'invalid-varint', 1],
      ['0b 10 01', 'truncated', 3],
    ];
    for (const [h, code, offset] of cases) {
      const ix = index(hex(h));
      expect(ix.error, h).toMatchObject({ code, offset });
      expect(ix.store.size, h).toBeGreaterThanOrEqual(2);
    }
  });

  it('records only the requested depth and expands on demand', () => {
    const bytes = Outer.encode(Outer.create({ inner: { id: 7, label: 'x' }, items: [{ id: 1 }] })).finish();
    const shallow = index(bytes, 1);
    const full = index(bytes);
    const inner = shallow.children(0)[0];
    expect(shallow.isExpanded(inner)).toBe(false);
    shallow.expand(inner);
    expect(shallow.children(inner).length).toBe(2);
    expect(shallow.value(0)).toEqual(full.value(0));
  });

  it('is detected when nothing self-describing reads the frame', () => {
    const bytes = Outer.encode(Outer.create({ name: 'news:sport', count: 3, inner: { id: 1 } })).finish();
    expect(decodeFrame(bytes)).toMatchObject({ format: 'protobuf', verdict: 'decoded' });
  });

  it('random protobufjs messages: spans tile, values match; mutations and truncations never throw', () => {
    const arb = fc.record({
      name: fc.string(),
      count: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
      delta: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
      blob: fc.uint8Array({ maxLength: 40 }),
      inner: fc.option(fc.record({ id: fc.nat(), label: fc.string() }), { nil: undefined }),
      codes: fc.array(fc.nat(), { maxLength: 10 }),
    });
    fc.assert(
      fc.property(arb, fc.nat(), fc.nat(), (obj, cut, flip) => {
        const bytes = Outer.encode(Outer.fromObject({ ...obj, count: obj.count.toString() })).finish();
        const ix = index(bytes);
        expect(ix.error).toBeNull();
        assertTiles(ix);
        const decoded = Outer.toObject(Outer.decode(bytes), { longs: String, bytes: Array, defaults: false }) as Record<
          string,
          unknown
        >;
        const fieldNumbers = ix.children(0).map((id) => ix.value(ix.keyOf(id)));
        if (decoded.name) expect(fieldNumbers).toContain(1);
        const valueOf = (field: number) =>
          ix
            .children(0)
            .filter((id) => ix.value(ix.keyOf(id)) === field)
            .map((id) => ix.value(id));
        // A printable name reads as text; one with control characters may read otherwise.
        // biome-ignore lint/suspicious/noControlCharactersInRegex: names with control characters are skipped on purpose
        if (decoded.name && /^[^\x00-\x1f\x7f]*$/.test(obj.name)) expect(valueOf(1)).toEqual([obj.name]);
        // Packed varints can also parse as a message: the packed reading is offered either way.
        if (obj.codes.length) {
          const node = ix.children(0).find((id) => ix.value(ix.keyOf(id)) === 8)!;
          const readings = protobufData(ix).readings.get(node)!;
          expect(readings).toContain('packed');
          if (readings[0] === 'packed') expect(ix.value(node)).toEqual(obj.codes);
        }
        expect(valueOf(3)).toEqual(obj.delta ? [obj.delta >= 0 ? obj.delta * 2 : -obj.delta * 2 - 1] : []);
        if (bytes.length) {
          const truncated = bytes.subarray(0, cut % bytes.length);
          expect(() => index(truncated).value(0)).not.toThrow();
          const mutated = bytes.slice();
          mutated[flip % bytes.length] ^= 0x5a;
          expect(() => {
            const m = index(mutated);
            m.value(0);
            for (let id = 0; id < m.store.size; id++) previewValue(m, id);
          }).not.toThrow();
        }
      }),
      { numRuns: 300, seed: 15 },
    );
  });

  it('walks 20,000 nested messages on its own stack, and the next frame reads as before', () => {
    // Field 1 holding the next level; the innermost holds field 1 = 5.
    let body = Uint8Array.of(0x08, 0x05);
    for (let i = 0; i < 20000; i++) {
      const head = [0x0a];
      for (let n = body.length; ; n = Math.floor(n / 128)) {
        if (n < 0x80) {
          head.push(n);
          break;
        }
        head.push((n & 0x7f) | 0x80);
      }
      const next = new Uint8Array(head.length + body.length);
      next.set(head);
      next.set(body, head.length);
      body = next;
    }
    const small = hex('08 01 12 03 61 62 63 1a 02 08 07');
    const before = index(small);
    const deep = index(body);
    expect(deep.error).toBeNull();
    let levels = 0;
    for (let id = deep.store.size - 1; id > 0; id = deep.store.parent[id]) levels++;
    expect(levels).toBe(20001);
    expect(deep.value(deep.store.size - 1)).toBe(5);
    const after = index(small);
    expect(after.value(0)).toEqual(before.value(0));
    expect([...after.store.end.subarray(0, after.store.size)]).toEqual([
      ...before.store.end.subarray(0, before.store.size),
    ]);
  });
});
