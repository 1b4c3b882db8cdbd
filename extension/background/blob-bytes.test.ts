/**
 * Frame bytes as one Blob per relay batch (Chrome's structured-clone messaging carries Blobs:
 * relay/README.md): the background takes them by shape, counts their size against every cap
 * as it counts bytes, and keeps the size in an evicted item's husk.
 */
import { describe, expect, it } from 'vitest';
import type { RelayBatch, WireCapture } from '../shared/messages.js';
import { blobBytes, plainFrame, wireCapture, type PlainEvent } from '../shared/test/plain-capture.js';
import { TabBuffers } from './tab-buffers.js';
import { isRelayBatch } from './validate.js';

const frame = (size: number): PlainEvent => plainFrame(1, new Uint8Array(size).fill(size), { direction: 'received' });

/** `wireCapture` with the frame bytes as a Blob. */
function blobCapture(events: PlainEvent[]): WireCapture {
  const c = wireCapture(events);
  const bytes = 'bytes' in c.frameBytes ? c.frameBytes.bytes : new Uint8Array(0);
  return { ...c, frameBytes: { blob: new Blob([bytes as Uint8Array<ArrayBuffer>]) } };
}
const batch = (seq: number, capture: WireCapture): RelayBatch => ({
  type: 'relay-batch',
  documentId: 'doc-a',
  documentUrl: 'https://a.test/',
  isTopFrame: true,
  seq,
  ...capture,
  lostBatches: 0,
});

describe('frame bytes as a Blob', () => {
  it('is a relay batch; a Blob-shaped object, or a Blob as the frame table, is not', () => {
    const good = batch(1, blobCapture([frame(3)]));
    expect(isRelayBatch(good)).toBe(true);
    expect(isRelayBatch({ ...good, frameBytes: { blob: { size: 3, type: '' } } })).toBe(false);
    expect(isRelayBatch({ ...good, frameTable: { blob: new Blob([new Uint8Array(32)]) } })).toBe(false);
  });

  it('counts the Blob size against the tab cap, evicts it as bytes, and keeps its size in the husk', async () => {
    const b = new TabBuffers({ bufferId: 'l', limits: { maxBytes: 250 } });
    const live = b.ingest(1, batch(1, blobCapture([frame(30), frame(10)])))!;
    const item = live.items.find((i) => i.type === 'events')!;
    const blob = item.type === 'events' && 'blob' in item.frameBytes ? item.frameBytes.blob : null;
    expect(Array.from(await blobBytes(blob!))).toEqual([...new Array(30).fill(30), ...new Array(10).fill(10)]);
    for (let s = 2; s <= 5; s++) b.ingest(1, batch(s, blobCapture([frame(30), frame(10)])));
    // As with bytes (tab-buffers.test.ts): 5 × (40 frame bytes + 2 table rows of 32), the cap keeps 2.
    expect(b.stats(1)).toMatchObject({ items: 2, bytes: 208 });
    const husk = b
      .backlog(1)
      .flatMap((m) => m.items)
      .find((i) => i.type === 'evicted');
    expect(husk).toMatchObject({ type: 'evicted', seq: 1, frameBytesLength: 40 });
  });
});
