import { describe, expect, it } from 'vitest';
import { WorkerHandlers } from '../inspector-app/src/worker/handlers.js';
import type { TreeNode } from '../inspector-app/src/worker/api.js';
import { createNestedTraffic } from './streams/nested.js';

/** `/demo/nested` through the worker, in order: every frame reads as its kind, nested and compressed values show. */
describe('demo nested traffic', () => {
  it('base64 CBOR in JSON, MessagePack in a CBOR byte string, gzip of CBOR and a zlib stream all decode', () => {
    const traffic = createNestedTraffic({ seed: 4 });
    const h = new WorkerHandlers();
    const rows = [];
    for (let frameId = 1; frameId <= 12; frameId++) {
      const m = traffic.next();
      const data = typeof m.data === 'string' ? new TextEncoder().encode(m.data) : m.data;
      h.store.add({ frameId, connectionId: 'nested', direction: 'received', time: 0, opcode: m.opcode, data });
      rows.push({
        m,
        summary: h.summarize({
          frameId,
          connectionId: 'nested',
          direction: 'received',
          time: 0,
          opcode: m.opcode,
          data,
        }),
      });
    }
    for (const { m, summary } of rows) {
      expect(summary.verdict, m.label).toBe('decoded');
      expect(summary.format, m.label).toBe(m.kind);
    }
    expect(rows.map((r) => r.summary.compression?.split(' → ')[0] ?? '')).toEqual([
      '',
      '',
      'gzip',
      'zlib stream',
      '',
      '',
      'gzip',
      'zlib stream',
      '',
      '',
      'gzip',
      'zlib stream',
    ]);
    const children = (frameId: number, n: TreeNode) =>
      h.methods.children({ frameId, format: 'auto', nodeId: n.id }).nodes;
    const root1 = h.methods.decode({ frameId: 1, format: 'auto' })!.root!;
    const payload = children(1, root1).find((n) => n.label === 'payload')!;
    expect(children(1, payload)[0].label).toBe('decoded as cbor (from base64)');
    const root2 = h.methods.decode({ frameId: 2, format: 'auto' })!.root!;
    const body = children(2, root2).find((n) => n.label === 'body')!;
    expect(children(2, body)[0]).toMatchObject({ label: 'decoded as msgpack', kind: 'map' });
  });
});
