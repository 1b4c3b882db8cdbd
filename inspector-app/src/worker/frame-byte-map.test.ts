import { describe, expect, it } from 'vitest';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { decodeFrame } from '../../../codecs/index.js';
import { frameByteMap } from './frame-byte-map.js';

describe('the Bytes tab treemap in the worker', () => {
  const records = Array.from({ length: 5000 }, (_, i) => ({ id: i, name: `n${i}`, tags: [i, i + 1, i + 2] }));
  const bytes = new CborEncoder().encode(records);

  it('by node reads only the containers it draws open: records under the area threshold stay unread', () => {
    // The list row recorded one level, as the worker keeps it.
    const index = decodeFrame(bytes, { format: 'cbor', depth: 1 }).index!;
    const map = frameByteMap(index, { by: 'node', width: 640, height: 400 })!;
    expect(map.rects.find((r) => r.role === 'more')?.count).toBe(5000);
    // The root and its 5,000 records; none of their fields or tags.
    expect(index.store.size).toBeLessThanOrEqual(5001);
  });

  it('by field reads every occurrence', () => {
    const index = decodeFrame(bytes, { format: 'cbor', depth: 1 }).index!;
    const map = frameByteMap(index, { by: 'field', width: 640, height: 400 })!;
    const tags = map.rects.find((r) => r.path === '$[*].tags');
    expect(tags?.count).toBe(5000);
  });
});
