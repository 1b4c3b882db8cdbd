import { describe, expect, it } from 'vitest';
import { WorkerHandlers } from './handlers.js';
import { hex } from '../../../codecs/test/helpers/hex.js';

function rows(bytes: string) {
  const h = new WorkerHandlers();
  h.store.add({ frameId: 1, connectionId: 'c', direction: 'received', time: 0, opcode: 'binary', data: hex(bytes) });
  const root = h.methods.decode({ frameId: 1, format: 'auto' })!.root!;
  return h.methods.children({ frameId: 1, format: 'auto', nodeId: root.id }).nodes;
}

describe('malformed frames in the tree', () => {
  it('the map entry whose value failed is present, with its key and why', () => {
    const nodes = rows('a2 61 61 01 61 62 ff');
    expect(nodes.map((n) => n.path)).toEqual(['$.a', '$.b']);
    const b = nodes[1];
    expect(b).toMatchObject({ label: 'b', keyStart: 4, keyEnd: 6, incomplete: true });
    expect(b.preview).toMatch(/value failed: .* at byte 6\)$/);
  });

  it('a MessagePack map missing its last value says where once', () => {
    const nodes = rows('82 a1 61 01 a1 62');
    const b = nodes[1]!;
    expect(b).toMatchObject({ label: 'b', kind: 'missing' });
    expect(b.preview).toMatch(/byte 6/);
    expect(b.preview.match(/\bbyte \d+\b/g)).toEqual(['byte 6']);
  });

  it('a truncated string shows the bytes that arrived', () => {
    const b = rows('a2 61 61 01 61 62 65 68 65')[1];
    expect(b.preview).toBe('"he…" (2 of 5 bytes arrived)');
  });
});
