import { describe, expect, it } from 'vitest';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { handlersWithFrame } from './test/ingest-frames.js';

const handlersWith = (value: unknown) => handlersWithFrame(new CborEncoder().encode(value));

describe('search inside a frame (worker)', () => {
  it('finds keys and leaf values case-insensitively, in byte order, as root-to-node paths', () => {
    const h = handlersWith({ users: [{ name: 'Ann' }, { name: 'bob', nick: 'annie' }] });
    const r = h.methods.search({ frameId: 1, format: 'auto', text: 'ANN', limit: 10 });
    expect(r.total).toBe(2);
    expect(r.complete).toBe(true);
    const root = h.methods.decode({ frameId: 1, format: 'auto' })!.root!;
    const pathOf = (ids: readonly number[]) => {
      let nodes = [root];
      let path = '$';
      for (const id of ids.slice(1)) {
        const n = h.methods
          .children({ frameId: 1, format: 'auto', nodeId: nodes[nodes.length - 1].id })
          .nodes.find((c) => c.id === id)!;
        nodes = [...nodes, n];
        path = n.path;
      }
      return path;
    };
    expect(r.paths.map((p) => pathOf(p))).toEqual(['$.users[0].name', '$.users[1].nick']);
  });

  it('caps the listed paths but counts every match; an empty query matches nothing', () => {
    const h = handlersWith(Array.from({ length: 50 }, (_, i) => `item ${i}`));
    const r = h.methods.search({ frameId: 1, format: 'auto', text: 'item', limit: 5 });
    expect(r.paths).toHaveLength(5);
    expect(r.total).toBe(50);
    expect(h.methods.search({ frameId: 1, format: 'auto', text: '  ', limit: 5 }).total).toBe(0);
    expect(h.methods.search({ frameId: 99, format: 'auto', text: 'x', limit: 5 }).total).toBe(0);
  });
});

describe('annotated hex (worker)', () => {
  it('one line per head and payload, with offset and size, for the whole frame', () => {
    const h = handlersWith({ a: [1, 'hi'] });
    const r = h.methods.annotate({ frameId: 1, format: 'auto' });
    expect(r.complete).toBe(true);
    expect(r.lines[0]).toMatch(/^\s*offset\s+size\s+bytes\s+comment/);
    const cols = r.lines.slice(1).map((l) => l.trim().split(/\s+/));
    // a1 | 61 61 | 82 01 62 68 69
    expect(cols.map((c) => c[0]).filter((c) => /^\d+$/.test(c))).toEqual(
      expect.arrayContaining(['0', '1', '3', '4', '5']),
    );
    expect(cols.find((c) => c[0] === '3')?.slice(0, 3)).toEqual(['3', '5', '82']);
  });

  it('a malformed frame annotates what decoded, and an unknown frame gives no lines', () => {
    const h = handlersWithFrame(Uint8Array.from([0x83, 0x01, 0x02]));
    const r = h.methods.annotate({ frameId: 1, format: 'cbor' });
    expect(r.lines.join('\n')).toContain('incomplete');
    expect(h.methods.annotate({ frameId: 7, format: 'auto' }).lines).toEqual([]);
  });
});
