import { encode as cborEncode } from 'cbor-x';
import { pack as msgpackEncode } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { WorkerHandlers } from './handlers.js';
import type { TreeNode } from './api.js';

/** Strings holding values open as nested trees whose rows carry frame offsets. */
function open(frame: Uint8Array, opcode: 'text' | 'binary') {
  const h = new WorkerHandlers();
  h.store.add({ frameId: 1, connectionId: 'c', direction: 'received', time: 0, opcode, data: frame });
  const root = h.methods.decode({ frameId: 1, format: 'auto' })!.root!;
  const children = (n: TreeNode) => h.methods.children({ frameId: 1, format: 'auto', nodeId: n.id }).nodes;
  return { root, children };
}

describe('nested values in the tree', () => {
  it('base64 of CBOR in a JSON string: a "decoded as cbor (from base64)" child whose fields map to the base64 characters', () => {
    const inner = new Uint8Array(cborEncode({ user: 'ann', n: 7 }));
    const b64 = Buffer.from(inner).toString('base64');
    const frame = new TextEncoder().encode(JSON.stringify({ kind: 'x', payload: b64 }));
    const { root, children } = open(frame, 'text');
    const payload = children(root).find((n) => n.label === 'payload')!;
    expect(payload).toMatchObject({ kind: 'text', isContainer: true, childCount: 1 });
    const [value] = children(payload);
    expect(value).toMatchObject({
      label: 'decoded as cbor (from base64)',
      kind: 'map',
      parent: payload.id,
      depth: payload.depth + 1,
      path: '$.payload<cbor>',
    });
    // The value covers the string's characters between the quotes.
    expect([value.start, value.end]).toEqual([payload.start + 1, payload.end - 1]);
    const user = children(value).find((n) => n.label === 'user')!;
    expect(user.path).toBe('$.payload<cbor>.user');
    // "ann" is CBOR bytes 63 61 6e 6e at inner offsets 6..10: base64 characters [8, 14).
    const at = inner.indexOf(0x63);
    expect([user.start, user.end]).toEqual([
      payload.start + 1 + Math.ceil((4 * at) / 3),
      payload.start + 1 + Math.ceil((4 * (at + 4)) / 3),
    ]);
    // Asked again, the same rows get the same ids.
    expect(children(value).find((n) => n.label === 'user')!.id).toBe(user.id);
  });

  it('a click on a base64 character selects the nested node its byte belongs to', () => {
    const inner = new Uint8Array(cborEncode({ user: 'ann', n: 7, list: Array.from({ length: 1500 }, (_, i) => i) }));
    const frame = new TextEncoder().encode(JSON.stringify({ payload: Buffer.from(inner).toString('base64') }));
    const h = new WorkerHandlers();
    h.store.add({ frameId: 1, connectionId: 'c', direction: 'received', time: 0, opcode: 'text', data: frame });
    const root = h.methods.decode({ frameId: 1, format: 'auto' })!.root!;
    const kids = (id: number, around?: number) =>
      h.methods.children({ frameId: 1, format: 'auto', nodeId: id, around }).nodes;
    const payload = kids(root.id)[0];
    // Deep in a long array, beyond the first page of children: item 1234.
    const path = h.methods.nodeAt({ frameId: 1, format: 'auto', offset: 0 });
    expect(path).toEqual([root.id]);
    const [value] = kids(payload.id);
    const list = kids(value.id).find((n) => n.label === 'list')!;
    const page = kids(list.id, undefined);
    expect(page.length).toBe(1000);
    // Find item 1234's characters by asking around a later window, then click its first character.
    const item = h.methods
      .children({ frameId: 1, format: 'auto', nodeId: list.id, offset: 1200 })
      .nodes.find((n) => n.label === '[1234]')!;
    const clicked = h.methods.nodeAt({ frameId: 1, format: 'auto', offset: item.start });
    expect(clicked.slice(0, 2)).toEqual([root.id, payload.id]);
    expect(clicked.slice(2)).toEqual([value.id, list.id, item.id]);
    // The tree reveals it: the window around the item holds it.
    expect(kids(list.id, item.id).some((n) => n.id === item.id)).toBe(true);
  });

  it('a MessagePack bin holding CBOR that holds hex of MessagePack: nested twice, offsets shift then map through the hex', () => {
    const deepest = new Uint8Array(msgpackEncode({ deep: [1, 2, 3] }));
    const middle = new Uint8Array(cborEncode({ hexed: Buffer.from(deepest).toString('hex'), k: 1 }));
    const frame = new Uint8Array(msgpackEncode({ blob: Buffer.from(middle) }));
    const { root, children } = open(frame, 'binary');
    const blob = children(root)[0];
    const [mid] = children(blob);
    expect(mid).toMatchObject({
      label: 'decoded as cbor',
      kind: 'map',
      start: blob.start + blob.headerLength,
      end: blob.end,
    });
    const hexed = children(mid).find((n) => n.label === 'hexed')!;
    expect(hexed.isContainer).toBe(true);
    const [deep] = children(hexed);
    expect(deep).toMatchObject({
      label: 'decoded as msgpack (from hex)',
      kind: 'map',
      path: '$.blob<cbor>.hexed<msgpack>',
    });
    expect([deep.start, deep.end]).toEqual([hexed.start + hexed.headerLength, hexed.end]);
    const arr = children(deep)[0];
    const items = children(arr);
    // Each item is one MessagePack byte: two hex characters in the frame, "01", "02", "03".
    expect(items.map((n) => new TextDecoder().decode(frame.subarray(n.start, n.end)))).toEqual(['01', '02', '03']);
  });

  it('a plain string stays a leaf', () => {
    const { root, children } = open(
      new TextEncoder().encode(JSON.stringify({ name: 'hello world', id: 'deadbeef' })),
      'text',
    );
    expect(children(root).every((n) => !n.isContainer)).toBe(true);
  });

  it('a frame that is one byte string of MessagePack opens at its root', () => {
    const inner = new Uint8Array(msgpackEncode({ event: 'tick', n: [1, 2] }));
    const frame = new Uint8Array([0x40 + inner.length, ...inner]);
    const { root, children } = open(frame, 'binary');
    expect(root).toMatchObject({ kind: 'bytes', isContainer: true, childCount: 1 });
    expect(children(root)[0]).toMatchObject({ label: 'decoded as msgpack', start: 1, end: frame.length });
  });
});
