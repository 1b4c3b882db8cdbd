/**
 * The background against a hostile page: whatever a relay passes (a page's own
 * sockets with huge URLs, floods of events, a compromised content script) stays bounded per
 * tab and across tabs, and other tabs keep their frames.
 */
import { describe, expect, it } from 'vitest';
import { wireFrameCount } from '../shared/frame-table.js';
import type { BatchEvent, PanelBatch, PanelItem, RelayBatch } from '../shared/messages.js';
import { plainFrame, type PlainEvent, relayBatch } from '../shared/test/plain-capture.js';
import { MAX_EVENT_STRING } from './event-strings.js';
import { TabBuffers } from './tab-buffers.js';

const frame = (socketId: number, size: number): PlainEvent =>
  plainFrame(socketId, new Uint8Array(size), { direction: 'received', time: 5 });
const batch = (seq: number, events: PlainEvent[], over: Partial<RelayBatch> = {}): RelayBatch =>
  relayBatch(seq, events, { documentId: 'doc-a', ...over });
const items = (batches: PanelBatch[]): PanelItem[] => batches.flatMap((b) => b.items);
const eventsOf = (list: readonly PanelItem[]): BatchEvent[] =>
  list.flatMap((i) => (i.type === 'events' || i.type === 'evicted' ? [...i.events] : []));
const stringChars = (list: readonly PanelItem[]): number => JSON.stringify(list).length;

describe('TabBuffers against a hostile page', () => {
  it('caps every string in a socket event (URL, protocol, extensions, close reason) and marks the cut', () => {
    const b = new TabBuffers({ bufferId: 'l' });
    const huge = `wss://evil.test/?${'x'.repeat(25_000_000)}`;
    const live = b.ingest(
      1,
      batch(1, [
        { type: 'opening', socketId: 1, url: huge, time: 1 },
        {
          type: 'open',
          socketId: 1,
          url: huge,
          protocol: 'p'.repeat(100_000),
          extensions: 'e'.repeat(100_000),
          time: 2,
        },
        { type: 'close', socketId: 1, code: 1000, reason: 'r'.repeat(100_000), wasClean: true, time: 3 },
      ]),
    )!;
    for (const list of [live.items, items(b.backlog(1))]) {
      const [opening, open, close] = eventsOf(list);
      expect(opening!.type === 'opening' && opening!.url.length).toBeLessThan(MAX_EVENT_STRING + 100);
      expect(opening!.type === 'opening' && opening!.url).toMatch(
        /^wss:\/\/evil\.test\/\?x+… \[wirescope: truncated, 25000017 characters in all\]$/,
      );
      expect(
        open!.type === 'open' &&
          [open!.url.length, open!.protocol.length, open!.extensions.length].every((n) => n < MAX_EVENT_STRING + 100),
      ).toBe(true);
      expect(close!.type === 'close' && close!.reason).toMatch(/truncated, 100000 characters/);
      expect(stringChars(list)).toBeLessThan(6 * (MAX_EVENT_STRING + 100));
    }
    expect(b.stats(1).bytes).toBeLessThan(64 * 1024);
  });

  it("counts every event's bytes against the tab's cap (events without frames are not free)", () => {
    const b = new TabBuffers({ bufferId: 'l', limits: { maxBytes: 1024 * 1024, maxHuskBytes: 256 * 1024 } });
    for (let s = 1; s <= 2000; s++) {
      b.ingest(
        1,
        batch(s, [
          { type: 'close', socketId: s, code: 1000, reason: 'r'.repeat(MAX_EVENT_STRING), wasClean: true, time: s },
        ]),
      );
    }
    const { bytes, huskBytes } = b.stats(1);
    expect(bytes).toBeGreaterThan(512 * 1024); // the events are counted …
    expect(bytes).toBeLessThanOrEqual(1024 * 1024); // … and capped
    expect(huskBytes).toBeLessThanOrEqual(256 * 1024);
    // What a late panel gets is bounded by the same caps.
    expect(stringChars(items(b.backlog(1)))).toBeLessThan(1.5 * 1024 * 1024);
  });

  it('a global cap across tabs sheds from the tab holding the most; the other tabs keep their frames', () => {
    const b = new TabBuffers({ bufferId: 'l', limits: { maxBytes: 1_000_000, maxTotalBytes: 1_500_000 } });
    for (let s = 1; s <= 3; s++) b.ingest(2, batch(s, [frame(1, 100_000)], { documentId: 'quiet' }));
    b.ingest(3, batch(1, [frame(1, 50_000)], { documentId: 'other' }));
    for (let s = 1; s <= 50; s++) b.ingest(1, batch(s, [frame(1, 100_000)], { documentId: 'flood' }));
    expect(b.totalBytes()).toBeLessThanOrEqual(1_500_000);
    const keptFrames = (tab: number) =>
      items(b.backlog(tab)).reduce((n, i) => n + (i.type === 'events' ? wireFrameCount(i.frameTable) : 0), 0);
    expect(keptFrames(2), 'the quiet tab keeps every frame').toBe(3);
    expect(keptFrames(3)).toBe(1);
    expect(keptFrames(1)).toBeGreaterThan(0);
    expect(keptFrames(1)).toBeLessThan(10);
  });

  it('splits the backlog by what the items hold (events too), not by frame bytes only', () => {
    const b = new TabBuffers({ bufferId: 'l', limits: { maxBatchBytes: 64 * 1024 } });
    for (let s = 1; s <= 200; s++) {
      b.ingest(
        1,
        batch(s, [{ type: 'opening', socketId: s, url: `wss://a.test/${'u'.repeat(MAX_EVENT_STRING)}`, time: s }]),
      );
    }
    const backlog = b.backlog(1);
    expect(backlog.length).toBeGreaterThan(10);
    for (const message of backlog) expect(stringChars([...message.items])).toBeLessThan(2 * 64 * 1024 + 16 * 1024);
    expect(eventsOf(items(backlog))).toHaveLength(200);
  });

  it('bounds the events per backlog message, so a flood of small events is bounded work per message', () => {
    const b = new TabBuffers({ bufferId: 'l', limits: { maxBatchEvents: 1000 } });
    for (let s = 1; s <= 10; s++) {
      const events: PlainEvent[] = [];
      for (let k = 0; k < 900; k++) events.push({ type: 'error', socketId: s * 1000 + k, time: k });
      b.ingest(1, batch(s, events));
    }
    const backlog = b.backlog(1);
    expect(backlog).toHaveLength(10);
    expect(eventsOf(items(backlog))).toHaveLength(9000);
  });
});

describe('TabBuffers: what eviction leaves', () => {
  it('an evicted item keeps its socket events and frame rows (placeholders), without the frame bytes', () => {
    const b = new TabBuffers({ bufferId: 'l', limits: { maxBytes: 100_000 } });
    b.ingest(
      1,
      batch(1, [
        { type: 'opening', socketId: 1, url: 'wss://a.test/feed', time: 1 },
        { type: 'open', socketId: 1, url: 'wss://a.test/feed', protocol: 'v2', extensions: '', time: 2 },
        frame(1, 60_000),
        frame(1, 10),
      ]),
    );
    b.ingest(
      1,
      batch(2, [frame(1, 70_000), { type: 'close', socketId: 1, code: 1000, reason: 'bye', wasClean: true, time: 9 }]),
    );
    const list = items(b.backlog(1));
    expect(list.map((i) => i.type)).toEqual(['evicted', 'events']);
    const husk = list[0]!;
    if (husk.type !== 'evicted') throw new Error('expected a husk');
    expect(husk.events.map((e) => e.type)).toEqual(['opening', 'open']);
    expect(husk.events[1]).toMatchObject({ url: 'wss://a.test/feed', protocol: 'v2' });
    expect(wireFrameCount(husk.frameTable)).toBe(2);
    expect(husk.frameBytesLength).toBe(60_010);
    expect(husk.reason).toMatch(/evicted/);
    expect('frameBytes' in husk).toBe(false);
    expect(b.stats(1)).toMatchObject({ items: 1, husks: 1, evictedFrames: 0 });
  });

  it('husks have their own cap; past it the oldest go and their frames are counted', () => {
    const b = new TabBuffers({ bufferId: 'l', limits: { maxBytes: 10_000, maxHuskBytes: 2_000 } });
    for (let s = 1; s <= 100; s++) b.ingest(1, batch(s, [frame(1, 5_000)]));
    const { huskBytes, evictedFrames } = b.stats(1);
    expect(huskBytes).toBeLessThanOrEqual(2_000);
    expect(evictedFrames).toBeGreaterThan(50);
    const list = items(b.backlog(1));
    expect(list[0]).toMatchObject({ type: 'dropped', count: evictedFrames });
    const rows = list.reduce(
      (n, i) => n + (i.type === 'events' || i.type === 'evicted' ? wireFrameCount(i.frameTable) : 0),
      0,
    );
    expect(evictedFrames + rows).toBe(100);
  });
});

describe('isRelayBatch against a compromised relay', () => {
  it('refuses a huge document id and malformed lost-frame rows; accepts well-formed ones', async () => {
    const { isRelayBatch } = await import('./validate.js');
    expect(isRelayBatch(batch(1, []))).toBe(true);
    expect(isRelayBatch(batch(1, [], { documentId: 'd'.repeat(1_000_000) }))).toBe(false);
    const row = { socketId: 1, flags: 1, time: 5, length: 70 << 20, why: 'too-large' } as const;
    expect(isRelayBatch(batch(1, [], { lostFrames: [row] }))).toBe(true);
    expect(isRelayBatch(batch(1, [], { lostFrames: [{ ...row, why: 'x'.repeat(9) as 'too-large' }] }))).toBe(false);
    expect(isRelayBatch(batch(1, [], { lostFrames: Array(5000).fill(row) }))).toBe(false);
  });
});

describe('TabBuffers and the capture options', () => {
  it('a refused batch stores nothing; its frames are reported as not captured, never as a restart gap', () => {
    const b = new TabBuffers({ bufferId: 'l' });
    b.refuse(
      1,
      batch(1, [{ type: 'opening', socketId: 1, url: 'wss://a.test/', time: 1 }, frame(1, 10), frame(1, 10)]),
      'not captured: options',
    );
    b.refuse(1, batch(2, [frame(1, 10)]), 'not captured: options');
    expect(b.stats(1)).toMatchObject({ items: 0, bytes: 0 });
    const live = b.ingest(1, batch(3, [frame(1, 7)], { framesBefore: 3 }))!;
    expect(live.items.map((i) => i.type)).toEqual(['dropped', 'events']);
    expect(live.items[0]).toEqual({ type: 'dropped', count: 3, reason: 'not captured: options' });
    expect(items(b.backlog(1)).map((i) => i.type)).toEqual(['dropped', 'events']);
  });

  it('a panel connecting while capture is off learns the count at once (flushRefused)', () => {
    const b = new TabBuffers({ bufferId: 'l' });
    b.refuse(1, batch(1, [frame(1, 10)]), 'off');
    expect(b.flushRefused(1)?.items).toEqual([{ type: 'dropped', count: 1, reason: 'off' }]);
    expect(b.flushRefused(1)).toBeNull();
    expect(items(b.backlog(1))).toEqual([{ type: 'dropped', count: 1, reason: 'off' }]);
  });

  it('clearTab lets go of a tab’s capture without reporting it as lost, and remembers its documents', () => {
    const b = new TabBuffers({ bufferId: 'l' });
    b.ingest(1, batch(1, [frame(1, 1000)]));
    b.clearTab(1);
    expect(b.totalBytes()).toBe(0);
    expect(items(b.backlog(1))).toEqual([]);
    expect(b.ingest(1, batch(2, [frame(1, 1)]))!.items.map((i) => i.type)).toEqual(['events']);
  });
});
