/**
 * Losses as rows: a frame dropped for size or evicted by the background's cap
 * leaves a placeholder (time, direction, size, why) besides the count, and a connection
 * keeps its URL, protocol and open/close events when its frames are evicted.
 */
import { describe, expect, it } from 'vitest';
import type { HostMessage, LostFrame } from '../../inspector-app/src/protocol/messages.js';
import { FRAME_BINARY, FRAME_RECEIVED, type RelayBatch } from '../shared/messages.js';
import { plainFrame, wireCapture, type PlainEvent, relayBatch } from '../shared/test/plain-capture.js';
import { TabBuffers } from '../background/tab-buffers.js';
import { PanelConverter } from './convert.js';
import { framesOf } from '../shared/test/frames-of.js';

const frame = (socketId: number, size: number, time: number, direction: 'sent' | 'received' = 'received'): PlainEvent =>
  plainFrame(socketId, new Uint8Array(size), { direction, time });
const batch = (seq: number, events: PlainEvent[], over: Partial<RelayBatch> = {}): RelayBatch =>
  relayBatch(seq, events, { framesBefore: 0, ...over });
const lostRows = (out: HostMessage[]): LostFrame[] =>
  out.flatMap((m) => (m.type === 'lost-frames' ? [...m.frames] : []));
const droppedCount = (out: HostMessage[]): number => out.reduce((n, m) => n + (m.type === 'dropped' ? m.count : 0), 0);

describe('losses shown as rows', () => {
  it('evicted frames become placeholder rows, in order, and the connection keeps its URL, protocol and close', () => {
    const buffers = new TabBuffers({ bufferId: 'l', limits: { maxBytes: 100_000 } });
    buffers.ingest(
      1,
      batch(1, [
        { type: 'opening', socketId: 1, url: 'wss://a.test/feed', time: 1 },
        { type: 'open', socketId: 1, url: 'wss://a.test/feed', protocol: 'v2', extensions: '', time: 2 },
        frame(1, 60_000, 3),
        frame(1, 10, 4, 'sent'),
      ]),
    );
    buffers.ingest(
      1,
      batch(
        2,
        [frame(1, 70_000, 5), { type: 'close', socketId: 1, code: 1000, reason: 'bye', wasClean: true, time: 9 }],
        { framesBefore: 2 },
      ),
    );
    const out = new PanelConverter().convert(buffers.backlog(1).flatMap((b) => b.items));
    expect(out.map((m) => m.type)).toEqual([
      'dropped',
      'connection-opening',
      'connection-opened',
      'lost-frames',
      'frames-packed',
      'connection-closed',
    ]);
    expect(out[2]).toMatchObject({ url: 'wss://a.test/feed', protocol: 'v2' });
    expect(lostRows(out)).toEqual([
      {
        connectionId: 'doc:1',
        direction: 'received',
        opcode: 'binary',
        time: 3,
        size: 60_000,
        reason: expect.stringMatching(/evicted/),
      },
      {
        connectionId: 'doc:1',
        direction: 'sent',
        opcode: 'binary',
        time: 4,
        size: 10,
        reason: expect.stringMatching(/evicted/),
      },
    ]);
    expect(droppedCount(out)).toBe(2);
    expect(framesOf(out).map((f) => f.data.length)).toEqual([70_000]);
  });

  it('a frame dropped for size leaves a placeholder row with its time, direction and size, reported with the batch that says so', () => {
    const out = new PanelConverter().convert([
      {
        type: 'events',
        documentId: 'doc',
        seq: 1,
        lostBatches: 0,
        droppedFrames: 2,
        lostFrames: [
          { socketId: 3, flags: FRAME_RECEIVED | FRAME_BINARY, time: 10, length: 70 << 20, why: 'too-large' },
          { socketId: 3, flags: 0, time: 11, length: 50 << 20, why: 'hook-limit' },
        ],
        ...wireCapture([]),
      },
    ]);
    expect(droppedCount(out)).toBe(2);
    const rows = lostRows(out);
    expect(rows.map(({ reason: _r, ...r }) => r)).toEqual([
      { connectionId: 'doc:3', direction: 'received', opcode: 'binary', time: 10, size: 70 << 20 },
      { connectionId: 'doc:3', direction: 'sent', opcode: 'text', time: 11, size: 50 << 20 },
    ]);
    expect(rows[0]!.reason).toMatch(/too large/);
    expect(rows[1]!.reason).toMatch(/hook/);
  });

  it('a replayed husk adds nothing twice', () => {
    const buffers = new TabBuffers({ bufferId: 'l', limits: { maxBytes: 1000 } });
    buffers.ingest(1, batch(1, [frame(1, 900, 1)]));
    buffers.ingest(1, batch(2, [frame(1, 900, 2)], { framesBefore: 1 }));
    const items = buffers.backlog(1).flatMap((b) => b.items);
    const converter = new PanelConverter();
    expect(lostRows(converter.convert(items))).toHaveLength(1);
    expect(converter.convert(items)).toEqual([]);
  });
});
