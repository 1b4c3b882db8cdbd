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
    const s = summarize({ frameId: 1, connectionId: 'c', direction: 'received', time: 0, opcode: 'binary', data: ledger() });
    expect(s.preview).not.toContain("55799");
    expect(s.preview.startsWith('{type: "ledger.entry", memo: undefined, postedAt: date 2026-01-01T00:00:00Z')).toBe(true);
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
