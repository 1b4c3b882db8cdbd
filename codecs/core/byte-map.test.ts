import { describe, expect, it } from 'vitest';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { nodeByteMap, type ByteMap } from './byte-map.js';
import { decodeFrame } from '../index.js';

/** What a picture shows, without the node ids (which depend on the order the index was expanded in). */
const drawn = (map: ByteMap) =>
  map.rects.map(({ nodeId: _id, ...r }) => ({ ...r, x: r.x.toFixed(3), y: r.y.toFixed(3), w: r.w.toFixed(3) }));

describe('the treemap by node on a lazily expanded index', () => {
  const users = Array.from({ length: 30 }, (_, i) => ({
    id: i,
    name: `user ${i}`,
    avatarHash: 'ab'.repeat(20 + (i % 7)),
    tags: ['a', 'bb', 'ccc'].slice(0, 1 + (i % 3)),
  }));
  const bytes = new CborEncoder().encode({ type: 'users.page', cursor: { next: 'x'.repeat(30) }, users });

  it('draws the same picture from the one level a list row recorded as from the whole index', () => {
    const whole = decodeFrame(bytes, { format: 'cbor' }).index!;
    whole.expandAll(whole.root);
    const oneLevel = decodeFrame(bytes, { format: 'cbor', depth: 1 }).index!;
    expect(oneLevel.store.size).toBeLessThan(whole.store.size);
    const size = { width: 800, height: 500, minArea: 1 };
    const expected = drawn(nodeByteMap(whole, size));
    expect(expected.filter((r) => r.path.startsWith('$.users[3].')).length).toBeGreaterThan(2);
    expect(drawn(nodeByteMap(oneLevel, size))).toEqual(expected);
  });
});
