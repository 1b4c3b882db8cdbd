// @vitest-environment jsdom
/**
 * Losses as rows: every frame the hook drops leaves a row (socket, direction,
 * time, size, why) in the next batch, so the panel shows a placeholder where it was, and
 * every batch counts the frames before it (framesBefore), so a lost batch is counted in frames.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { FRAME_BINARY, FRAME_RECEIVED } from '../../shared/messages.js';
import { setup, type Harness, type Win } from './harness.js';
import type { FakeSocket } from './fake-websocket.js';

let h: Harness;
afterEach(() => h.cleanup());

const open = (): FakeSocket => {
  const ws = new h.WS('ws://example.test/b');
  ws.open();
  return ws;
};

describe('frames the hook drops leave rows', () => {
  test('a frame over the bytes-waiting cap: its row (socket, flags, time, size, why) goes with the next batch', () => {
    h = setup({ maxPendingBytes: 1000, maxBatchBytes: 1 << 30 });
    const ws = open();
    ws.send(new Uint8Array(600));
    ws.send(new Uint8Array(700)); // 1300 > 1000: dropped
    ws.deliver(new Uint8Array(800).buffer); // dropped too
    h.hook.flush();
    const rows = h.posts[0].batch.lostFrames;
    expect(rows).toHaveLength(2);
    expect(rows![0]).toMatchObject({ socketId: 1, flags: FRAME_BINARY, length: 700, why: 'hook-limit' });
    expect(rows![1]).toMatchObject({
      socketId: 1,
      flags: FRAME_BINARY | FRAME_RECEIVED,
      length: 800,
      why: 'hook-limit',
    });
    expect(typeof rows![0].time).toBe('number');
    ws.send('later');
    h.hook.flush();
    expect(h.posts[1].batch.lostFrames).toBeUndefined(); // each row is sent once
    expect(h.posts[1].batch.droppedFrames).toBe(2); // the count stays cumulative
  });

  test("a batch whose post failed: a row for each of its frames ('unsent'), and later batches count its frames in framesBefore", () => {
    h = setup();
    const ws = open();
    ws.send('a');
    h.hook.flush();
    expect(h.posts[0].batch.framesBefore).toBe(0);
    ws.send('bb');
    ws.send(new Uint8Array(3));
    h.failPosts(1);
    h.hook.flush();
    ws.send('c');
    h.hook.flush();
    const next = h.posts[1].batch;
    expect(next.framesBefore).toBe(3); // a, bb and the 3 bytes: sent or not
    expect(next.lostFrames?.map((r) => [r.length, r.flags, r.why])).toEqual([
      [2, 0, 'unsent'],
      [3, FRAME_BINARY, 'unsent'],
    ]);
  });

  test("an unreadable Blob: its row ('unreadable', its size) goes with the next batch", async () => {
    const proto = (window as Win).Blob.prototype;
    const had = Object.getOwnPropertyDescriptor(proto, 'arrayBuffer');
    Object.defineProperty(proto, 'arrayBuffer', {
      configurable: true,
      writable: true,
      value: () => Promise.reject(new Error('unreadable')),
    });
    try {
      h = setup(); // the hook captures that reader
      const ws = open();
      ws.send(new h.win.Blob(['lost!']));
      ws.send('kept');
      await vi.waitFor(() => expect(h.frames()).toHaveLength(1));
      const rows = h.posts.flatMap((p) => p.batch.lostFrames ?? []);
      expect(rows).toEqual([
        { socketId: 1, flags: FRAME_BINARY, time: expect.any(Number), length: 5, why: 'unreadable' },
      ]);
    } finally {
      if (had) Object.defineProperty(proto, 'arrayBuffer', had);
      else Reflect.deleteProperty(proto, 'arrayBuffer');
    }
  });
});
