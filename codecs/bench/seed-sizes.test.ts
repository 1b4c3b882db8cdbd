import { describe, expect, it } from 'vitest';
import { seedPayloads } from '../crdt/corpus.js';
import { measureSizes, sizeColumns, sizeOf, sizesMarkdown } from './seed-sizes.js';

describe('seed payload sizes', () => {
  const payloads = seedPayloads();

  it('are the same on every measurement, random session and actor ids notwithstanding', () => {
    expect(measureSizes(payloads)).toStrictEqual(measureSizes(payloads));
  });

  it('give JSON its UTF-8 length and every format a size for every payload', () => {
    const sizes = measureSizes(payloads);
    for (const [i, p] of payloads.entries()) {
      expect(sizeOf(sizes[i], 'JSON')).toBe(new TextEncoder().encode(JSON.stringify(p.data)).length);
      expect(sizes[i].bytes).toHaveLength(sizeColumns.length);
      for (const bytes of sizes[i].bytes) expect(bytes).toBeGreaterThan(0);
    }
    const table = sizesMarkdown(sizes).split('\n');
    expect(table).toHaveLength(payloads.length + 2);
    expect(table[0]).toContain('| Yjs update v1 | Yjs update v2 | Automerge save() |');
  });
});
