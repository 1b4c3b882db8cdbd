// @vitest-environment jsdom
/** Batching (frame table + slab), transfer, the memory bound and idempotence. */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { CAPTURE_TAG, type HookBatch } from '../../shared/messages.js';
import { unpackHookBatch } from '../../shared/test/plain-capture.js';
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

const frameSizes = (batch: HookBatch): number[] =>
  unpackHookBatch(batch).flatMap((e) => (e.type === 'frame' ? [e.data.byteLength] : []));

describe('batching', () => {
  test('many frames → one postMessage after the interval: one frame table and one byte slab, both transferred', async () => {
    h = setup({ flushIntervalMs: 20 });
    const ws = open();
    for (let i = 0; i < 2000; i++) ws.send(i % 2 ? `frame ${i}` : new Uint8Array([i & 0xff, i >> 8]));
    expect(h.posts).toHaveLength(0); // nothing posted synchronously
    await vi.waitFor(() => expect(h.posts).toHaveLength(1));
    await sleep(40);
    expect(h.posts).toHaveLength(1);
    const [{ batch, transfer }] = h.posts;
    expect(batch).toMatchObject({ tag: CAPTURE_TAG, type: 'hook-batch', seq: 1, frameCount: 2000 });
    expect(batch.droppedFrames).toBeUndefined();
    expect(batch.events.map((e) => [e.type, e.at])).toEqual([
      ['opening', 0],
      ['open', 0],
    ]);
    expect(transfer).toEqual([batch.frameTable, batch.frameBytes]);
    const frames = h.frames();
    expect(frames).toHaveLength(2000);
    expect(
      frames.map((f) =>
        f.opcode === 'text' ? new TextDecoder().decode(f.data) : Array.from(new Uint8Array(f.data)).join(','),
      ),
    ).toEqual(Array.from({ length: 2000 }, (_, i) => (i % 2 ? `frame ${i}` : `${i & 0xff},${i >> 8}`)));
    expect(batch.frameBytesUsed).toBe(frames.reduce((n, f) => n + f.data.byteLength, 0));
  });

  test('a batch is posted at once past maxBatchBytes; seq counts posts from 1', async () => {
    h = setup({ maxBatchBytes: 1 << 20, flushIntervalMs: 20 });
    const ws = open();
    ws.send(new Uint8Array(600_000));
    expect(h.posts).toHaveLength(0);
    ws.send(new Uint8Array(600_000)); // would take the batch past 1 MiB: the first goes alone
    expect(h.posts).toHaveLength(1);
    ws.send(new Uint8Array(10));
    await vi.waitFor(() => expect(h.posts).toHaveLength(2));
    expect(h.posts.map((p) => p.batch.seq)).toEqual([1, 2]);
    expect(h.posts.map((p) => frameSizes(p.batch))).toEqual([[600_000], [600_000, 10]]);
    h.hook.flush();
    expect(h.posts).toHaveLength(2); // nothing pending, nothing posted
    expect(h.hook.stats()).toMatchObject({ sockets: 1, batchesPosted: 2, droppedFrames: 0, pendingBytes: 0 });
  });

  test('the slab grows by doubling; a frame over maxBatchBytes goes alone in a slab of its own size', () => {
    h = setup({ maxBatchBytes: 256 << 10, floodBatchBytes: 256 << 10 }); // no larger batches under a flood here (hook-flood-batching.test.ts)
    const ws = open();
    for (let i = 0; i < 5; i++) ws.send(new Uint8Array(30_000).fill(i)); // 150 KB: 64 → 128 → 256 KiB
    ws.send(new Uint8Array(300_000).fill(9)); // over the limit: posts the 5, then goes alone
    ws.send(Uint8Array.of(1, 2, 3));
    h.hook.flush();
    expect(h.posts.map((p) => frameSizes(p.batch))).toEqual([[30_000, 30_000, 30_000, 30_000, 30_000], [300_000], [3]]);
    expect(h.posts.map((p) => p.batch.frameBytes.byteLength)).toEqual([256 << 10, 300_000, 256 << 10]);
    expect(h.frames().map((f) => new Uint8Array(f.data)[f.data.byteLength - 1])).toEqual([0, 1, 2, 3, 4, 9, 3]);
  });

  test('0-byte frames and socket events count towards maxBatchEvents', () => {
    h = setup({ maxBatchEvents: 100 });
    const ws = open(); // opening + open: 2 events
    for (let i = 0; i < 250; i++) ws.send(i % 2 ? '' : new Uint8Array(0));
    h.hook.flush();
    expect(h.posts.map((p) => p.batch.frameCount)).toEqual([98, 100, 52]);
    expect(h.posts.every((p) => p.batch.frameBytesUsed === 0)).toBe(true);
    expect(h.frames().map((f) => f.opcode)).toEqual(Array.from({ length: 250 }, (_, i) => (i % 2 ? 'text' : 'binary')));
  });

  test('transfer: false posts with an empty transfer list', () => {
    h = setup({ transfer: false });
    open().send('x');
    h.hook.flush();
    expect(h.posts[0].transfer).toEqual([]);
  });

  test('a page patching Function.prototype.call/apply/bind, Reflect.apply or TypedArray#set after install changes nothing', () => {
    h = setup();
    const ws = open();
    const saved = [
      Function.prototype.call,
      Function.prototype.apply,
      Function.prototype.bind,
      Reflect.apply,
      Uint8Array.prototype.set,
    ] as const;
    const restore = () =>
      ([
        Function.prototype.call,
        Function.prototype.apply,
        Function.prototype.bind,
        Reflect.apply,
        Uint8Array.prototype.set,
      ] = saved);
    const trap = () => {
      throw new Error('page code ran');
    };
    try {
      [
        Function.prototype.call,
        Function.prototype.apply,
        Function.prototype.bind,
        Reflect.apply,
        Uint8Array.prototype.set,
      ] = [trap, trap, trap, trap, trap];
      ws.send('after the patch');
      ws.send(new Uint8Array([7, 8]));
      ws.send(new Uint8Array([9]).buffer);
      // jsdom's own event dispatch needs call and Reflect.apply: leave those for the received frame.
      [Function.prototype.call, Reflect.apply] = [saved[0], saved[3]];
      ws.deliver('in');
      restore();
      h.hook.flush();
    } finally {
      restore();
    }
    expect(h.frames().map((f) => Array.from(new Uint8Array(f.data)))).toEqual([
      [...new TextEncoder().encode('after the patch')],
      [7, 8],
      [9],
      [105, 110],
    ]);
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
    expect(frameSizes(h.posts[0].batch)).toEqual([600, 300]);
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
