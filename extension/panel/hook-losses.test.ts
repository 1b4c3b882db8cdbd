/**
 * Losses as rows, from the page hook on: a frame the hook drops (over its
 * 64 MiB limit of bytes waiting, an unreadable Blob, a batch it could not post) reaches the
 * panel as a placeholder row with its time, direction, size and why; hook batches the relay
 * lost are counted in frames, once, through the background and the panel.
 */
import { describe, expect, it } from 'vitest';
import type { HostMessage } from '../../inspector-app/src/protocol/messages.js';
import { FRAME_BINARY, FRAME_RECEIVED, type RelayBatch } from '../shared/messages.js';
import { plainFrame, type PlainEvent, relayBatch } from '../shared/test/plain-capture.js';
import { isRelayBatch } from '../background/validate.js';
import { TabBuffers } from '../background/tab-buffers.js';
import { HOOK_LOSS_REASON, PanelConverter } from './convert.js';

const frame = (size: number, time: number): PlainEvent =>
  plainFrame(1, new Uint8Array(size), { direction: 'received', time });
const batch = (seq: number, events: PlainEvent[], over: Partial<RelayBatch> = {}): RelayBatch =>
  relayBatch(seq, events, { framesBefore: 0, ...over });
const through = (batches: RelayBatch[]): HostMessage[] => {
  const buffers = new TabBuffers({ bufferId: 'h' });
  for (const b of batches) {
    expect(isRelayBatch(b)).toBe(true);
    buffers.ingest(1, b);
  }
  return new PanelConverter().convert(buffers.backlog(1).flatMap((b) => b.items));
};

describe("the hook's losses in the panel", () => {
  it('each dropped frame is a placeholder row that says why', () => {
    const out = through([
      batch(1, [frame(10, 1)]),
      batch(2, [frame(10, 4)], {
        framesBefore: 1,
        droppedFrames: 3,
        lostFrames: [
          { socketId: 1, flags: FRAME_RECEIVED | FRAME_BINARY, time: 2, length: 70 << 20, why: 'hook-limit' },
          { socketId: 1, flags: FRAME_BINARY, time: 3, length: 12, why: 'unreadable' },
          { socketId: 1, flags: 0, time: 3.5, length: 5, why: 'unsent' },
        ],
      }),
    ]);
    const rows = out.flatMap((m) => (m.type === 'lost-frames' ? [...m.frames] : []));
    expect(rows.map((r) => [r.direction, r.opcode, r.size, r.time])).toEqual([
      ['received', 'binary', 70 << 20, 2],
      ['sent', 'binary', 12, 3],
      ['sent', 'text', 5, 3.5],
    ]);
    expect(rows[0].reason).toMatch(/limit/);
    expect(rows[1].reason).toMatch(/could not read/);
    expect(rows[2].reason).toMatch(/could not hand/);
  });

  it('hook batches lost on the way are counted in frames, once', () => {
    const out = through([
      batch(1, [frame(10, 1)]),
      batch(2, [], { framesBefore: 1, lostBatches: 1, lostHookFrames: 3 }), // a refusal, reported at once
      batch(3, [frame(10, 5)], { framesBefore: 1, lostBatches: 2, lostHookFrames: 9 }), // a gap the next batch showed: 6 more
    ]);
    const hookLosses = out.filter(
      (m): m is Extract<HostMessage, { type: 'dropped' }> =>
        m.type === 'dropped' && m.reason.startsWith(HOOK_LOSS_REASON),
    );
    expect(hookLosses.map((m) => m.count)).toEqual([3, 6]);
    expect(hookLosses.every((m) => !/batch/.test(m.reason.slice(HOOK_LOSS_REASON.length)))).toBe(true);
  });
});
