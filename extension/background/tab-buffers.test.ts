import { describe, expect, it } from 'vitest';
import { wireFrameCount } from '../shared/frame-table.js';
import type { PanelBatch, PanelItem, RelayBatch } from '../shared/messages.js';
import { plainFrame, wireCapture, type PlainEvent, relayBatch } from '../shared/test/plain-capture.js';
import { RESTART_REASON, TabBuffers, TRANSIT_REASON, wireByteLength } from './tab-buffers.js';

const frame = (socketId: number, size: number, time = 1): PlainEvent =>
  plainFrame(socketId, new Uint8Array(size), { direction: 'received', time });

const batch = (
  seq: number,
  events: PlainEvent[],
  over: Partial<RelayBatch> = {},
  as: 'base64' | 'bytes' = 'bytes',
): RelayBatch => relayBatch(seq, events, { documentId: 'doc-a', ...over }, as);
const empty = wireCapture([]);

const items = (batches: PanelBatch[]): PanelItem[] => batches.flatMap((b) => b.items);
const frameCount = (list: PanelItem[]): number =>
  list.reduce((n, i) => n + (i.type === 'events' ? wireFrameCount(i.frameTable) : 0), 0);

describe('TabBuffers', () => {
  it('keeps what relays sent per tab and hands a late panel the backlog in order', () => {
    const b = new TabBuffers({ bufferId: 'life-1' });
    b.ingest(1, batch(1, [{ type: 'opening', socketId: 1, url: 'wss://x', time: 0 }, frame(1, 10)]));
    b.ingest(1, batch(2, [frame(1, 20)]));
    b.ingest(2, batch(1, [frame(7, 5)], { documentId: 'doc-b' }));
    const backlog = b.backlog(1);
    expect(backlog).toHaveLength(1);
    expect(backlog[0]).toMatchObject({ type: 'panel-batch', bufferId: 'life-1', cursor: 2, framesThrough: 2 });
    expect(items(backlog).map((i) => i.type === 'events' && i.seq)).toEqual([1, 2]);
    expect(frameCount(items(b.backlog(2)))).toBe(1);
    expect(b.backlog(3)).toEqual([{ type: 'panel-batch', bufferId: 'life-1', cursor: 0, framesThrough: 0, items: [] }]);
  });

  it('returns each new batch for live panels with the cursor after it', () => {
    const b = new TabBuffers({ bufferId: 'life-1' });
    const first = b.ingest(1, batch(1, [frame(1, 10)]));
    expect(first).toMatchObject({ cursor: 1, framesThrough: 1, items: [{ type: 'events', seq: 1 }] });
    const second = b.ingest(1, batch(2, [frame(1, 10), frame(1, 10)]));
    expect(second).toMatchObject({ cursor: 2, framesThrough: 3 });
    expect(b.ingest(1, batch(2, [frame(1, 10)]))).toBeNull(); // a replayed seq adds nothing
  });

  it('resumes a panel after its cursor, and starts over for a cursor of another lifetime', () => {
    const b = new TabBuffers({ bufferId: 'life-1' });
    for (let s = 1; s <= 3; s++) b.ingest(1, batch(s, [frame(1, 1)]));
    expect(
      items(b.backlog(1, { bufferId: 'life-1', cursor: 2, framesThrough: 2 })).map((i) => i.type === 'events' && i.seq),
    ).toEqual([3]);
    expect(items(b.backlog(1, { bufferId: 'life-1', cursor: 3, framesThrough: 3 }))).toEqual([]);
    expect(items(b.backlog(1, { bufferId: 'life-0', cursor: 3, framesThrough: 3 }))).toHaveLength(3);
  });

  it('drops the oldest items over the byte cap and counts the frames a panel missed', () => {
    // No room for husks (what eviction leaves: hostile.test.ts): evicted frames are only counted.
    const b = new TabBuffers({ bufferId: 'l', limits: { maxBytes: 250, maxHuskBytes: 0 } });
    for (let s = 1; s <= 5; s++) b.ingest(1, batch(s, [frame(1, 30), frame(1, 10)]));
    // 5 × (40 frame bytes + 2 table rows of 32); the cap keeps 2 batches (208 bytes): 6 frames were dropped.
    expect(b.stats(1)).toMatchObject({ items: 2, bytes: 208, evictedFrames: 6 });
    const fresh = items(b.backlog(1));
    expect(fresh[0]).toMatchObject({ type: 'dropped', count: 6 });
    expect(fresh[0]!.type === 'dropped' && fresh[0]!.reason).toMatch(/buffer for this tab was full/);
    expect(frameCount(fresh)).toBe(4);
    // A panel that had seen through batch 2 (4 frames) missed batch 3 only: 2 frames.
    const resumed = items(b.backlog(1, { bufferId: 'l', cursor: 2, framesThrough: 4 }));
    expect(resumed[0]).toMatchObject({ type: 'dropped', count: 2 });
    expect(frameCount(resumed)).toBe(4);
    // A panel that saw everything missed nothing.
    expect(items(b.backlog(1, { bufferId: 'l', cursor: 5, framesThrough: 10 }))).toEqual([]);
  });

  it('caps the number of events too', () => {
    const b = new TabBuffers({ bufferId: 'l', limits: { maxEvents: 3, maxHuskBytes: 0 } });
    for (let s = 1; s <= 4; s++) b.ingest(1, batch(s, [frame(1, 1), frame(1, 1)]));
    expect(b.stats(1)).toMatchObject({ items: 1, events: 2, evictedFrames: 6 });
  });

  it('splits a large backlog into messages of bounded size', () => {
    const b = new TabBuffers({ bufferId: 'l', limits: { maxBatchBytes: 100 } });
    for (let s = 1; s <= 5; s++) b.ingest(1, batch(s, [frame(1, 60)]));
    const backlog = b.backlog(1);
    expect(backlog).toHaveLength(5);
    expect(backlog.map((m) => [m.cursor, m.framesThrough])).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 4],
      [5, 5],
    ]);
  });

  it('reports a document first seen at seq > 1 as a restart gap (the service worker was stopped)', () => {
    const b = new TabBuffers({ bufferId: 'life-2' });
    const out = b.ingest(1, batch(7, [frame(1, 1)]));
    expect(out?.items[0]).toEqual({ type: 'gap', documentId: 'doc-a', seq: 7, missing: 6, reason: RESTART_REASON });
    expect(out?.items[1]).toMatchObject({ type: 'events', seq: 7 });
    expect(
      b.ingest(1, batch(1, [frame(2, 1)], { documentId: 'doc-new', isTopFrame: false }))?.items.map((i) => i.type),
    ).toEqual(['events']);
  });

  it("carries the relay's framesBefore into gaps and events, for exact frame counts", () => {
    const b = new TabBuffers({ bufferId: 'l' });
    const out = b.ingest(1, batch(3, [frame(1, 1)], { framesBefore: 12 }));
    expect(out?.items).toMatchObject([
      { type: 'gap', seq: 3, missing: 2, framesBefore: 12 },
      { type: 'events', seq: 3, framesBefore: 12 },
    ]);
  });

  it('reports missing batches of a known document as lost in transit', () => {
    const b = new TabBuffers({ bufferId: 'l' });
    b.ingest(1, batch(1, [frame(1, 1)]));
    expect(b.ingest(1, batch(4, [frame(1, 1)]))?.items[0]).toEqual({
      type: 'gap',
      documentId: 'doc-a',
      seq: 4,
      missing: 2,
      reason: TRANSIT_REASON,
    });
  });

  it('passes on hook losses the relay counted, even in a batch without events', () => {
    const b = new TabBuffers({ bufferId: 'l' });
    b.ingest(1, batch(1, [frame(1, 1)]));
    expect(b.ingest(1, batch(2, [], { lostBatches: 2 }))?.items).toEqual([
      { type: 'events', documentId: 'doc-a', seq: 2, lostBatches: 2, ...empty },
    ]);
    expect(b.ingest(1, batch(3, [], { lostBatches: 2 }))).toBeNull();
  });

  it('passes on frames the hook or relay dropped (optional droppedFrames), only when it grows', () => {
    const b = new TabBuffers({ bufferId: 'l' });
    const withDrops = (seq: number, n: number) => batch(seq, [], { droppedFrames: n });
    expect(b.ingest(1, withDrops(1, 3))?.items).toEqual([
      { type: 'events', documentId: 'doc-a', seq: 1, lostBatches: 0, droppedFrames: 3, ...empty },
    ]);
    expect(b.ingest(1, withDrops(2, 3))).toBeNull();
  });

  it('reports a navigation when a new document appears in the top frame, not for frames or the first document', () => {
    const b = new TabBuffers({ bufferId: 'l', now: () => 42 });
    expect(b.ingest(1, batch(1, [frame(1, 1)]))?.items.map((i) => i.type)).toEqual(['events']);
    expect(
      b.ingest(1, batch(1, [frame(1, 1)], { documentId: 'iframe', isTopFrame: false }))?.items.map((i) => i.type),
    ).toEqual(['events']);
    const nav = b.ingest(1, batch(1, [], { documentId: 'doc-b', documentUrl: 'https://b.test/' }));
    expect(nav?.items).toEqual([{ type: 'navigated', url: 'https://b.test/', time: 42, documents: ['doc-b'] }]);
    // A late batch from the previous top document is not a navigation back.
    expect(b.ingest(1, batch(2, [frame(1, 1)]))?.items.map((i) => i.type)).toEqual(['events']);
    // The navigation stays in the backlog, between the two documents' frames.
    expect(items(b.backlog(1)).map((i) => i.type)).toEqual(['events', 'events', 'navigated', 'events']);
  });

  it('names the new page\u2019s frames that reported before its top document as staying, by when each started', () => {
    const b = new TabBuffers({ bufferId: 'l', now: () => 42 });
    const at = (documentId: string, documentStart: number, isTopFrame: boolean) =>
      batch(1, [frame(1, 1)], { documentId, documentStart, isTopFrame });
    b.ingest(1, at('old-top', 1000, true));
    b.ingest(1, at('old-frame', 1200, false));
    // The new page's frame (started after the new top document) reports first.
    b.ingest(1, at('new-frame', 5300, false));
    const nav = b.ingest(1, at('new-top', 5000, true))?.items[0];
    expect(nav).toMatchObject({ type: 'navigated', documents: ['new-top', 'new-frame'] });
    // A frame without a start time (an older relay) is taken for the page that was left.
    const c = new TabBuffers({ bufferId: 'l', now: () => 42 });
    c.ingest(1, at('old-top', 1000, true));
    c.ingest(1, batch(1, [frame(1, 1)], { documentId: 'unknown-frame', isTopFrame: false }));
    expect(c.ingest(1, at('new-top', 5000, true))?.items[0]).toMatchObject({ documents: ['new-top'] });
  });

  it('forgets a closed tab', () => {
    const b = new TabBuffers({ bufferId: 'l' });
    b.ingest(1, batch(1, [frame(1, 1)]));
    b.removeTab(1);
    expect(b.stats(1).items).toBe(0);
    expect(b.ingest(1, batch(2, [frame(1, 1)]))?.items[0]?.type).toBe('gap');
  });

  it('measures base64 frames by their decoded size', () => {
    expect(wireByteLength({ b64: 'AAEC' })).toBe(3);
    expect(wireByteLength({ b64: 'AAE=' })).toBe(2);
    expect(wireByteLength({ b64: 'AA==' })).toBe(1);
    expect(wireByteLength({ bytes: new Uint8Array(9) })).toBe(9);
  });

  it('counts frames by table rows and bytes by decoded size, base64 or bytes alike', () => {
    for (const as of ['base64', 'bytes'] as const) {
      const b = new TabBuffers({ bufferId: 'l' });
      const opening: PlainEvent = { type: 'opening', socketId: 1, url: 'wss://x', time: 0 };
      const out = b.ingest(1, batch(1, [opening, frame(1, 0), frame(1, 7), frame(2, 100)], {}, as));
      expect(out).toMatchObject({ framesThrough: 3 });
      // 107 frame bytes, 3 table rows (96), the opening event (64 + 2 × 7 characters).
      expect(b.stats(1)).toMatchObject({ items: 1, bytes: 107 + 96 + 78, events: 4 });
    }
  });

  it('splits a backlog by frame bytes plus tables', () => {
    const b = new TabBuffers({ bufferId: 'l', limits: { maxBatchBytes: 200 } });
    // 40 frames of 0 bytes: no frame bytes, but 40 rows of 32 bytes each.
    for (let s = 1; s <= 3; s++)
      b.ingest(
        1,
        batch(
          s,
          Array.from({ length: 40 }, () => frame(1, 0)),
        ),
      );
    expect(b.backlog(1).map((m) => m.items.length)).toEqual([1, 1, 1]);
  });
});
