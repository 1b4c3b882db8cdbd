// @vitest-environment jsdom
/** Batching, transfer, the memory bound and idempotence. */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { CAPTURE_TAG } from '../../shared/messages.js';
import { installHook } from '../install.js';
import { setup, type Harness, type Win } from './harness.js';
import type { FakeSocket } from './fake-websocket.js';

let h: Harness;
afterEach(() => h.cleanup());

const open = (): FakeSocket => {
  const ws = new h.WS('ws://example.test/b');
  ws.open();
  return ws;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('batching', () => {
  test('many frames → one postMessage after the interval, with every frame buffer in the transfer list', async () => {
    h = setup({ flushIntervalMs: 20 });
    const ws = open();
    for (let i = 0; i < 2000; i++) ws.send(i % 2 ? `frame ${i}` : new Uint8Array([i & 0xff, i >> 8]));
    expect(h.posts).toHaveLength(0); // nothing posted synchronously
    await vi.waitFor(() => expect(h.posts).toHaveLength(1));
    await sleep(40);
    expect(h.posts).toHaveLength(1);
    const [{ batch, targetOrigin, transfer }] = h.posts;
    expect(batch).toMatchObject({ tag: CAPTURE_TAG, type: 'hook-batch', seq: 1 });
    expect(batch.droppedFrames).toBeUndefined();
    expect(targetOrigin).toBe(h.win.location.origin);
    expect(batch.events).toHaveLength(2002); // opening, open, 2000 frames
    const frames = batch.events.filter((e) => e.type === 'frame');
    expect(transfer).toHaveLength(2000);
    expect(frames.every((f, i) => f.type === 'frame' && transfer[i] === f.data)).toBe(true);
  });

  test('a batch is posted at once past maxBatchBytes; seq counts posts from 1', async () => {
    h = setup({ maxBatchBytes: 1 << 20, flushIntervalMs: 20 });
    const ws = open();
    ws.send(new Uint8Array(600_000));
    expect(h.posts).toHaveLength(0);
    ws.send(new Uint8Array(600_000));
    expect(h.posts).toHaveLength(1); // 1.2 MB pending: posted synchronously
    ws.send(new Uint8Array(10));
    await vi.waitFor(() => expect(h.posts).toHaveLength(2));
    expect(h.posts.map((p) => p.batch.seq)).toEqual([1, 2]);
    expect(h.posts.map((p) => p.batch.events.filter((e) => e.type === 'frame').length)).toEqual([2, 1]);
    h.hook.flush();
    expect(h.posts).toHaveLength(2); // nothing pending, nothing posted
    expect(h.hook.stats()).toMatchObject({ sockets: 1, batchesPosted: 2, droppedFrames: 0, pendingBytes: 0 });
  });

  test('transfer: false posts with an empty transfer list', () => {
    h = setup({ transfer: false });
    open().send('x');
    h.hook.flush();
    expect(h.posts[0].transfer).toEqual([]);
  });
});

describe('bounds and failures', () => {
  test('frames beyond maxPendingBytes are dropped and counted (cumulative in every later batch)', () => {
    h = setup({ maxPendingBytes: 1000, maxBatchBytes: 1 << 30 });
    const ws = open();
    ws.send(new Uint8Array(600));
    ws.send(new Uint8Array(600)); // 1200 > 1000: dropped
    ws.send(new Uint8Array(300));
    h.hook.flush();
    expect(h.posts[0].batch.events.filter((e) => e.type === 'frame').map((e) => e.type === 'frame' && e.data.byteLength)).toEqual([600, 300]);
    expect(h.posts[0].batch.droppedFrames).toBe(1);
    ws.send('later');
    h.hook.flush();
    expect(h.posts[1].batch.droppedFrames).toBe(1);
    expect(h.hook.stats().droppedFrames).toBe(1);
  });

  test('a postMessage that throws loses no count and never throws into the page', () => {
    h = setup();
    const ws = open();
    ws.send('a');
    ws.send('b');
    h.failPosts(1);
    expect(() => h.hook.flush()).not.toThrow();
    expect(h.posts).toHaveLength(0);
    ws.send('c');
    h.hook.flush();
    expect(h.posts[0].batch.seq).toBe(1); // the failed post used no seq
    expect(h.posts[0].batch.droppedFrames).toBe(2);
  });
});

describe('idempotence', () => {
  test('a second install (same module or a fresh copy of it) backs off; frames are reported once', async () => {
    h = setup();
    const again = installHook(h.win as Win, { trustedEventsOnly: false });
    expect(again.installed).toBe(false);
    vi.resetModules();
    const fresh = (await import('../install.js')) as typeof import('../install.js');
    expect(fresh.installHook).not.toBe(installHook);
    expect(fresh.installHook(h.win as Win, { trustedEventsOnly: false }).installed).toBe(false);
    const ws = open();
    ws.send('once');
    ws.deliver('once back');
    expect(h.frames()).toHaveLength(2);
    expect(h.WS.prototype.send.name).toBe('send');
  });
});
