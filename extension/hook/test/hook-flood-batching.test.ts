// @vitest-environment jsdom
/**
 * Under a flood the hook coalesces: once a batch held `floodThresholdBytes` or more, the
 * next ones wait `floodIntervalMs` (not `flushIntervalMs`) and may grow to `floodBatchBytes`,
 * so the relay makes fewer, larger posts (a Blob's fixed cost is paid once per ~1 MiB, not per
 * 256 KiB); a batch under the threshold brings the short interval back. Every frame arrives, in order.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { HookBatch } from '../../shared/messages.js';
import { unpackHookBatch } from '../../shared/test/plain-capture.js';
import { setup, type Harness } from './harness.js';

let h: Harness;
afterEach(() => h.cleanup());
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const bytesOf = (b: HookBatch): number => b.frameBytesUsed;

describe('batching under a flood', () => {
  test('after a batch of floodThresholdBytes, batches wait floodIntervalMs and grow to floodBatchBytes; a small batch ends it', async () => {
    h = setup({
      flushIntervalMs: 20,
      maxBatchBytes: 64 << 10,
      floodIntervalMs: 150,
      floodBatchBytes: 256 << 10,
      floodThresholdBytes: 16 << 10,
    });
    const ws = new h.WS('ws://example.test/f');
    ws.open();
    let n = 0;
    const burst = (kib: number) => {
      for (let i = 0; i < kib; i++) ws.send(new Uint8Array(1024).fill(n++ & 0xff));
    };
    burst(80); // the first batch goes at 64 KiB, by size: a flood from now on
    expect(h.posts.map((p) => bytesOf(p.batch))).toEqual([64 << 10]);
    burst(150); // 166 KiB pending: under floodBatchBytes, so no post by size …
    expect(h.posts).toHaveLength(1);
    await sleep(60); // … and none after flushIntervalMs either
    expect(h.posts).toHaveLength(1);
    await vi.waitFor(() => expect(h.posts).toHaveLength(2), { timeout: 1000 });
    expect(bytesOf(h.posts[1]!.batch)).toBe(166 << 10);
    burst(300); // past floodBatchBytes: posted at once at 256 KiB
    expect(h.posts.map((p) => bytesOf(p.batch))).toEqual([64 << 10, 166 << 10, 256 << 10]);
    await vi.waitFor(() => expect(h.posts).toHaveLength(4), { timeout: 1000 }); // the 44 KiB rest, after floodIntervalMs
    ws.send(new Uint8Array(10)); // still a flood (the last batch held 44 KiB): the long interval
    await sleep(60);
    expect(h.posts).toHaveLength(4);
    await vi.waitFor(() => expect(h.posts).toHaveLength(5), { timeout: 1000 });
    // That batch held 10 bytes: the flood is over, the short interval is back.
    const t0 = Date.now();
    ws.send(new Uint8Array(10));
    await vi.waitFor(() => expect(h.posts).toHaveLength(6), { timeout: 1000 });
    expect(Date.now() - t0).toBeLessThan(120);
    expect(h.hook.stats().droppedFrames).toBe(0);
    const firsts = h.posts.flatMap((p) =>
      unpackHookBatch(p.batch).flatMap((e) => (e.type === 'frame' ? [new Uint8Array(e.data)[0] ?? -1] : [])),
    );
    expect(firsts).toEqual([...Array.from({ length: n }, (_, i) => i & 0xff), 0, 0]);
  });

  test('defaults: 256 KiB and 25 ms, then 1 MiB and 100 ms under a flood (from a 64 KiB batch)', async () => {
    h = setup();
    const ws = new h.WS('ws://example.test/d');
    ws.open();
    for (let i = 0; i < 300; i++) ws.send(new Uint8Array(1024));
    expect(h.posts.map((p) => bytesOf(p.batch))).toEqual([256 << 10]);
    for (let i = 0; i < 900; i++) ws.send(new Uint8Array(1024));
    expect(h.posts).toHaveLength(1); // 944 KiB pending: under 1 MiB
    for (let i = 0; i < 100; i++) ws.send(new Uint8Array(1024));
    expect(h.posts.map((p) => bytesOf(p.batch))).toEqual([256 << 10, 1 << 20]);
  });
});
