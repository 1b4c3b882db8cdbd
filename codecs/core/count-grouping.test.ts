import { describe, expect, it } from 'vitest';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { JsonPackExtension } from '@jsonjoy.com/json-pack/lib/JsonPackExtension.js';
import { decodeFrame } from '../index.js';
import { annotatedHex } from './annotate.js';
import { describeHead, previewValue } from './describe.js';

const indexOf = (value: unknown) => {
  const { index } = decodeFrame(new CborEncoder().encode(value), { format: 'cbor' });
  index!.expandAll(index!.root);
  return index!;
};

describe('counts and offsets read with thousands separators', () => {
  it('an array of 1,888 items: its head and preview', () => {
    const index = indexOf(Array.from({ length: 1888 }, (_, i) => i % 10));
    expect(describeHead(index, index.root)).toBe('array(1,888)');
    expect(previewValue(index, index.root, 60)).toBe('[1,888 items]');
  });

  it('a map of 44,478 entries and a 12,345-byte string', () => {
    const map = indexOf(Object.fromEntries(Array.from({ length: 44478 }, (_, i) => [`k${i}`, 0])));
    expect(describeHead(map, map.root)).toBe('map(44,478)');
    expect(previewValue(map, map.root, 60)).toBe('{44,478 entries}');
    const text = indexOf('x'.repeat(12345));
    expect(describeHead(text, text.root)).toBe('text(12,345)');
  });

  it('a tag number is a name, never grouped: tag(55799)', () => {
    const index = indexOf(new JsonPackExtension(55799, [1]));
    expect(describeHead(index, index.root)).toBe('tag(55799)');
  });

  it('the annotated hex groups offsets and sizes past 999', () => {
    const index = indexOf(Array.from({ length: 600 }, () => 1000));
    const lines = annotatedHex(index).split('\n');
    // 99 0258 (3 bytes) then 600 × 19 03e8 (3 bytes each): 1,803 bytes, the last item at 1,800.
    expect(lines[1]).toMatch(/^\s*0\s+1,803\s+990258\s/);
    expect(lines.at(-1)).toMatch(/^\s*1,800\s+3\s+1903e8\s/);
  });
});
