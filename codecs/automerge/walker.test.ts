import { describe, expect, test } from 'vitest';
import * as A from '@automerge/automerge';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { SpanIndex } from '../core/span-index.js';
import { decodeFrame } from '../index.js';
import { nestedValue } from '../nested/nested-value.js';
import { spanTilingProblem } from '../yjs/test-support.js';
import { automergeFrame, automergeWalker } from './walker.js';

const hex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

function twoPeers() {
  let d1 = A.from<{ text: string; n: number[] }>({ text: 'hello', n: [1, 2] });
  d1 = A.change(d1, { message: 'push 3' }, (d) => {
    d.n.push(3);
  });
  let s1 = A.initSyncState();
  let s2 = A.initSyncState();
  let d2 = A.init<{ text: string; n: number[] }>();
  const messages: Uint8Array[] = [];
  for (let round = 0; round < 6; round++) {
    const [a, m1] = A.generateSyncMessage(d1, s1);
    s1 = a;
    if (m1) {
      messages.push(m1);
      [d2, s2] = A.receiveSyncMessage(d2, s2, m1);
    }
    const [b, m2] = A.generateSyncMessage(d2, s2);
    s2 = b;
    if (m2) {
      messages.push(m2);
      [d1, s1] = A.receiveSyncMessage(d1, s1, m2);
    }
    if (!m1 && !m2) break;
  }
  return { d1, messages };
}

describe('Automerge sync messages and chunks', () => {
  test('save() is a document chunk: magic, checksum, type, length, actors and heads named, every byte a node', () => {
    const { d1 } = twoPeers();
    const saved = A.save(d1);
    const d = decodeFrame(saved, { isText: false });
    expect(d.format).toBe('automerge');
    expect(d.verdict).toBe('decoded');
    const f = automergeFrame(d.index!)!;
    expect(f.chunks).toHaveLength(1);
    expect(f.chunks[0]).toMatchObject({ type: 'document', checksum: hex(saved.subarray(4, 8)) });
    expect(f.chunks[0].heads).toEqual(A.getHeads(d1));
    expect(spanTilingProblem(new SpanIndex(saved, automergeWalker))).toBeNull();
  });

  test('changes are change chunks with their deps, actor, seq and message', () => {
    const { d1 } = twoPeers();
    const changes = A.getAllChanges(d1);
    for (const change of changes) {
      const index = new SpanIndex(change, automergeWalker);
      expect(index.error).toBeNull();
      const decoded = A.decodeChange(change);
      expect(automergeFrame(index)!.chunks[0]).toMatchObject({
        type: 'change',
        heads: decoded.deps,
        actor: decoded.actor,
        seq: decoded.seq,
        message: decoded.message ?? '',
      });
      expect(spanTilingProblem(index)).toBeNull();
    }
    // Incremental saves are chunks one after another.
    const index = new SpanIndex(Uint8Array.from([...changes[0], ...changes[1]]), automergeWalker);
    expect(automergeFrame(index)!.chunks.map((c) => c.type)).toEqual(['change', 'change']);
  });

  test('every sync message of a session reads whole, with heads and need equal to decodeSyncMessage', () => {
    const { messages } = twoPeers();
    expect(messages.length).toBeGreaterThan(2);
    for (const m of messages) {
      const index = new SpanIndex(m, automergeWalker);
      expect(index.error).toBeNull();
      expect(spanTilingProblem(index)).toBeNull();
      const reference = A.decodeSyncMessage(m);
      const f = automergeFrame(index)!;
      expect(f.kind).toBe('sync message');
      expect(f.heads).toEqual(reference.heads);
      expect(f.need).toEqual(reference.need);
      expect(f.chunks.length).toBe(reference.changes.length);
    }
  });

  test("automerge-repo's CBOR sync message opens its data as an Automerge sync message", () => {
    const { messages } = twoPeers();
    const cbor = new CborEncoder().encode({
      type: 'sync',
      senderId: 'peer-a',
      targetId: 'peer-b',
      documentId: '3hRfNgYQv6oa7vq1tWA3ZV7yfCLm',
      data: messages[0],
    });
    const d = decodeFrame(cbor, { isText: false });
    expect(d.format).toBe('cbor');
    const index = d.index!;
    index.expandAll(index.root);
    const data = index
      .children(index.root)
      .find((c) => index.kind(c) === 'bytes' && index.store.end[c] - index.store.start[c] > 40)!;
    const nested = nestedValue(index, data)!;
    expect(nested.format).toBe('automerge');
    expect(automergeFrame(nested.index)!.kind).toBe('sync message');
  });

  test('a broken chunk stops at the offending byte with the chunk read so far', () => {
    const { d1 } = twoPeers();
    const saved = A.save(d1).slice();
    saved[8] = 7;
    const index = new SpanIndex(saved, automergeWalker);
    expect(index.error).toMatchObject({ code: 'invalid-byte', offset: 8 });
    expect(index.value(0)).toMatchObject([{ magic: Uint8Array.from([0x85, 0x6f, 0x4a, 0x83]) }]);
    const { messages } = twoPeers();
    const flagged = messages[0].slice();
    flagged[flagged.length - 1] = 0x05;
    expect(new SpanIndex(flagged, automergeWalker).error).toMatchObject({
      code: 'invalid-byte',
      offset: flagged.length - 1,
    });
    const cut = A.save(d1).subarray(0, 40);
    expect(new SpanIndex(cut, automergeWalker).error?.code).toBe('length-exceeds-input');
  });
});
