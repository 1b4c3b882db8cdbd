import { describe, expect, it } from 'vitest';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { handlersWithFrame } from './test/ingest-frames.js';

describe('sort by size', () => {
  it('sorts the whole container in the worker, then pages: the largest item of 3,000 comes first', () => {
    // Item 2,727 is the largest, far beyond the first page of 1,000.
    const users = Array.from({ length: 3000 }, (_, i) => ({ name: i === 2727 ? 'x'.repeat(200) : `u${i}`, n: i }));
    const h = handlersWithFrame(new CborEncoder().encode({ users }));
    const root = h.methods.decode({ frameId: 1, format: 'auto' })!.root!;
    const usersNode = h.methods.children({ frameId: 1, format: 'auto', nodeId: root.id }).nodes[0];
    const page = h.methods.children({
      frameId: 1,
      format: 'auto',
      nodeId: usersNode.id,
      limit: 1000,
      sortBySize: true,
    });
    expect(page.total).toBe(3000);
    expect(page.nodes[0].label).toBe('[2727]');
    expect(page.nodes[0].path).toBe('$.users[2727]');
    const sizes = page.nodes.map((n) => n.end - n.start);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    // The next page continues in the same order.
    const next = h.methods.children({
      frameId: 1,
      format: 'auto',
      nodeId: usersNode.id,
      offset: 1000,
      limit: 1000,
      sortBySize: true,
    });
    expect(next.nodes[0].end - next.nodes[0].start).toBeLessThanOrEqual(sizes[sizes.length - 1]);
  });
});
