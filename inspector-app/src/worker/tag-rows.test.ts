import { describe, expect, it } from 'vitest';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { JsonPackExtension } from '@jsonjoy.com/json-pack/lib/JsonPackExtension.js';
import { decodeFrame } from '../../../codecs/index.js';
import { summarize } from './handlers.js';
import { childNodes } from './tree-nodes.js';

const cbor = (v: unknown) => new CborEncoder().encode(v);
const ledger = () =>
  cbor(
    new JsonPackExtension(55799, {
      type: 'ledger.entry',
      memo: undefined,
      postedAt: new JsonPackExtension(1, 1_767_225_600),
      account: new JsonPackExtension(37, new Uint8Array(16).fill(0xab)),
    }),
  );

describe('known tags in list rows and tree rows', () => {
  it('the list preview sees through self-describe (55799) to the content', () => {
    const s = summarize({
      frameId: 1,
      connectionId: 'c',
      direction: 'received',
      time: 0,
      opcode: 'binary',
      data: ledger(),
    });
    expect(s.preview).not.toContain('55799');
    expect(s.preview.startsWith('{type: "ledger.entry", memo: undefined, postedAt: date 2026-01-01T00:00:00Z')).toBe(
      true,
    );
  });

  it("labels a tag's child by what it is, not [0]", () => {
    const index = decodeFrame(ledger(), { format: 'cbor' }).index!;
    const [map] = childNodes(index, index.root).nodes;
    expect(map.label).toBe('self-described');
    const fields = childNodes(index, map.id).nodes;
    const postedAt = fields.find((n) => n.label === 'postedAt')!;
    expect(postedAt.preview).toBe('date 2026-01-01T00:00:00Z (1767225600)');
    expect(childNodes(index, postedAt.id).nodes[0].label).toBe('epoch seconds');
    const account = fields.find((n) => n.label === 'account')!;
    expect(account.preview).toBe('UUID abababab-abab-abab-abab-abababababab');
    expect(childNodes(index, account.id).nodes[0].label).toBe('UUID bytes');
  });
});

describe('tag 24: the embedded item as a nested tree', () => {
  // {"wrapped": 24(<<{"a": [1, "xy"]}>>)}
  const inner = cbor({ a: [1, 'xy'] });
  const frame = cbor({ wrapped: new JsonPackExtension(24, inner) });

  it('opens the byte string into the embedded item, with the frame offsets of its bytes', async () => {
    const { WorkerHandlers } = await import('./handlers.js');
    const h = new WorkerHandlers();
    h.store.add({ frameId: 1, connectionId: 'c', direction: 'received', time: 0, opcode: 'binary', data: frame });
    const root = h.methods.decode({ frameId: 1, format: 'auto' })!.root!;
    const [tag] = h.methods.children({ frameId: 1, format: 'auto', nodeId: root.id }).nodes;
    expect(tag.preview).toMatch(/^embedded CBOR \(\d+ B\): \{1 entry\}$/);
    const [bytes] = h.methods.children({ frameId: 1, format: 'auto', nodeId: tag.id }).nodes;
    expect(bytes).toMatchObject({ label: 'embedded CBOR', kind: 'bytes', isContainer: true, childCount: 1 });
    const [item] = h.methods.children({ frameId: 1, format: 'auto', nodeId: bytes.id }).nodes;
    const payload = bytes.start + bytes.headerLength;
    expect(item).toMatchObject({
      label: 'embedded item',
      kind: 'map',
      parent: bytes.id,
      depth: bytes.depth + 1,
      start: payload,
      end: bytes.end,
      path: '$.wrapped<tag 24><embedded>',
    });
    const [a] = h.methods.children({ frameId: 1, format: 'auto', nodeId: item.id }).nodes;
    expect(a).toMatchObject({ label: 'a', kind: 'array', path: '$.wrapped<tag 24><embedded>.a', parent: item.id });
    expect(Array.from(frame.subarray(a.keyStart, a.keyEnd))).toEqual(Array.from(inner.subarray(1, 3)));
    const items = h.methods.children({ frameId: 1, format: 'auto', nodeId: a.id }).nodes;
    expect(items.map((n) => n.preview)).toEqual(['1', '"xy"']);
    expect(frame[items[0].start]).toBe(0x01);
    // Asked again, the same rows get the same ids.
    expect(h.methods.children({ frameId: 1, format: 'auto', nodeId: item.id }).nodes[0].id).toBe(a.id);
  });

  it('leaves a tag 24 over bytes that are not CBOR a plain byte string', async () => {
    const { WorkerHandlers } = await import('./handlers.js');
    const h = new WorkerHandlers();
    h.store.add({
      frameId: 1,
      connectionId: 'c',
      direction: 'received',
      time: 0,
      opcode: 'binary',
      data: cbor(new JsonPackExtension(24, new Uint8Array([0x82, 0x01]))),
    });
    const root = h.methods.decode({ frameId: 1, format: 'auto' })!.root!;
    const [bytes] = h.methods.children({ frameId: 1, format: 'auto', nodeId: root.id }).nodes;
    expect(bytes.isContainer).toBe(false);
    expect(root.preview).toMatch(/^embedded CBOR \(2 B, not well-formed/);
  });
});
