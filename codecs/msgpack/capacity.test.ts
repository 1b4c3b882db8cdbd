import { describe, expect, it } from 'vitest';
import { pack } from 'msgpackr';
import { indexMsgpack } from './index.js';

/**
 * Growing the store copies every node so far; the walker sizes it from a count of the
 * frame's heads instead (a full index; msgpack-runs.test.ts checks it never grows) or from
 * the root's count (depth 1). Bounded counts, not times: the store ends within half again
 * the nodes it holds, and a frame whose start is unlike the rest still indexes whole.
 */
describe('msgpack: the store is sized from the frame', () => {
  const rand = (() => {
    let s = 7;
    return () => (s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32;
  })();
  const shapes: Record<string, unknown> = {
    'small integers': Array.from({ length: 80_000 }, () => Math.floor(rand() * 200)),
    floats: Array.from({ length: 20_000 }, () => rand() * 1000),
    'coordinate pairs': Array.from({ length: 10_000 }, () => [rand() * 360 - 180, rand() * 180 - 90]),
    records: Array.from({ length: 3000 }, (_, i) => ({ id: i, name: `n${i}`, ok: i % 2 === 0, at: [i, i + 1] })),
  };
  for (const [name, value] of Object.entries(shapes)) {
    it(`${name}: full index`, () => {
      const ix = indexMsgpack(pack(value));
      expect(ix.error).toBeNull();
      expect(ix.store.capacity).toBeGreaterThanOrEqual(ix.store.size);
      expect(ix.store.capacity).toBeLessThanOrEqual(Math.ceil(ix.store.size * 1.5) + 64);
    });
  }

  it('depth 1: the root and its items', () => {
    const bytes = pack(shapes['small integers']);
    const ix = indexMsgpack(bytes, { depth: 1 });
    expect(ix.store.size).toBe(80_001);
    expect(ix.store.capacity).toBeLessThanOrEqual(80_001 + 64);
    // A count larger than the bytes that remain is not taken at its word.
    const lying = indexMsgpack(Uint8Array.from([0xdd, 0xff, 0xff, 0xff, 0xff, 0x01]), { depth: 1 });
    expect(lying.error?.code).toBe('truncated');
    expect(lying.store.capacity).toBeLessThan(1000);
  });

  it('a frame unlike its sample still indexes whole', () => {
    const value = ['x'.repeat(20_000), ...Array.from({ length: 30_000 }, (_, i) => i % 100)];
    const ix = indexMsgpack(pack(value));
    expect(ix.error).toBeNull();
    expect(ix.store.size).toBe(30_002);
    expect((ix.value(0) as unknown[]).length).toBe(30_001);
  });
});
