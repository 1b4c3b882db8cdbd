import { describe, expect, it } from 'vitest';
import { indexCbor } from '../cbor/index.js';
import { frameAttribution, heaviestPaths, mapCost, nodeCost } from './attribution.js';
import { pathOf, formatPointer, pathSegments } from './path.js';
import { SpanIndex } from './span-index.js';
import { cborWalker } from '../cbor/walker.js';
import { hex } from '../test/helpers/hex.js';

// {"name": "Alice", "tags": ["x", "yy"], "n": 1000}
const frame = hex('a3 64 6e616d65 65 416c696365 64 74616773 82 61 78 62 7979 61 6e 19 03e8');

describe('byte attribution', () => {
  const index = indexCbor(frame);
  const [name, tags, n] = index.children(0);

  it('charges a map value its own span and its key', () => {
    expect(nodeCost(index, name)).toMatchObject({ total: 6, head: 1, key: 5 });
    expect(nodeCost(index, name).share).toBeCloseTo(11 / frame.length);
    // 19 03e8: the initial byte is the head, the argument is the value (header-bytes.test.ts).
    expect(nodeCost(index, n)).toMatchObject({ total: 3, head: 1, key: 2 });
  });

  it('splits a map into key bytes, value bytes and its own header', () => {
    expect(mapCost(index, 0)).toEqual({ keyBytes: 12, valueBytes: 15, overheadBytes: 1, entries: 3 });
  });

  it('frame totals add up to the frame', () => {
    const a = frameAttribution(index);
    expect(a.bytes).toBe(frame.length);
    expect(a.keyBytes).toBe(12);
    // Headers: the map (1), "Alice" (1), the array (1), "x" (1), "yy" (1), 1000's initial byte (1).
    expect(a.headerBytes).toBe(6);
    expect(a.stringPayloadBytes).toBe(5 + 1 + 2);
    expect(a.scalarPayloadBytes).toBe(2);
    expect(a.unindexedBytes).toBe(0);
    expect(a.headerBytes + a.keyBytes + a.stringPayloadBytes + a.scalarPayloadBytes + a.otherBytes).toBe(frame.length);
  });

  it('a shallow index attributes unexpanded containers as a whole', () => {
    const shallow = indexCbor(frame, { depth: 1 });
    const a = frameAttribution(shallow);
    expect(a.unindexedBytes).toBe(5); // the payload of ["x", "yy"]
    expect(
      a.headerBytes + a.keyBytes + a.stringPayloadBytes + a.scalarPayloadBytes + a.unindexedBytes + a.otherBytes,
    ).toBe(frame.length);
    expect(heaviestPaths(shallow, 1, { leavesOnly: true })[0]).toMatchObject({ path: '$.name', bytes: 11 });
    expect(heaviestPaths(shallow, 3, { leavesOnly: true }).map((h) => h.path)).toContain('$.tags');
  });

  it('lists the heaviest fields with their paths', () => {
    const top = heaviestPaths(index, 2, { leavesOnly: true });
    expect(top.map((h) => [h.path, h.bytes])).toEqual([
      ['$.name', 11],
      ['$.n', 5],
    ]);
    // Containers count too without leavesOnly; equal weights keep frame order.
    expect(heaviestPaths(index, 2).map((h) => [h.path, h.bytes])).toEqual([
      ['$.name', 11],
      ['$.tags', 11],
    ]);
  });

  it('paths and JSON Pointers', () => {
    const [, yy] = index.children(tags);
    expect(pathOf(index, yy)).toBe('$.tags[1]');
    expect(formatPointer(pathSegments(index, yy))).toBe('/tags/1');
  });
});

describe('regressions', () => {
  it('byte-string values of a Buffer input are copies, not views of the frame', () => {
    const buf = Buffer.from('43010203', 'hex');
    const index = new SpanIndex(buf, cborWalker);
    const value = index.value(0) as Uint8Array;
    buf[1] = 0xff;
    expect([...value]).toEqual([1, 2, 3]);
    expect(value.constructor).toBe(Uint8Array);
  });

  it('nodeAt on a 100,000-deep chain indexed at depth 0 walks O(log n) times, not once per level', () => {
    const depth = 100_000;
    const bytes = new Uint8Array(depth + 1).fill(0x81);
    bytes[depth] = 0x00;
    let walks = 0;
    const counting = {
      ...cborWalker,
      walk: (...args: Parameters<typeof cborWalker.walk>) => (walks++, cborWalker.walk(...args)),
    };
    const index = new SpanIndex(bytes, counting, { depth: 0 });
    const leaf = index.nodeAt(depth);
    expect(index.kind(leaf)).toBe('uint');
    expect(index.store.start[leaf]).toBe(depth);
    expect(walks).toBeLessThan(200);
  });
});

describe('duplicate keys', () => {
  it('are reported in small and in large maps, once per repeat, with the offset of the repeat', () => {
    for (const size of [3, 16, 17, 40]) {
      // {"k0": 0, "k1": 1, ..., "k0": size - 1}: the last key repeats the first.
      const parts: number[] = [0xb8, size];
      for (let i = 0; i < size; i++) {
        const key = i === size - 1 ? 'k0' : `k${i}`;
        parts.push(0x60 + key.length, ...Buffer.from(key), ...(i < 24 ? [i] : [0x18, i]));
      }
      const index = indexCbor(Uint8Array.from(parts));
      expect(index.error, `size ${size}`).toBeNull();
      expect(
        index.warnings.map((w) => w.code),
        `size ${size}`,
      ).toEqual(['duplicate-key']);
      const lastKey = index.keyOf(index.children(0).pop()!);
      expect(index.warnings[0].offset).toBe(index.store.start[lastKey]);
    }
  });
});
