/**
 * The panel under a flood: a panel batch (frames that are views of one buffer)
 * went to the decode worker as one object per frame, and cloning 10,000 objects a second
 * was the panel main thread's largest cost besides drawing (postMessage). Such a batch now
 * goes as a few typed arrays beside its one transferred buffer; the worker lists the same
 * rows and holds the same bytes.
 */
import { describe, expect, it } from 'vitest';
import type { FromWorker, IngestFrame, ToWorker } from './api.js';
import { WorkerClient } from './client.js';
import { createDispatcher } from './dispatcher.js';
import { packIngest, unpackIngest } from './ingest-packing.js';
import { clonedObjects } from './test/cloned-objects.js';

/** A Worker stand-in that records what each postMessage carried and transferred. */
function recordingWorker() {
  const posts: { message: ToWorker; transfer: Transferable[] }[] = [];
  const worker = {
    postMessage: (message: ToWorker, transfer: Transferable[] = []) => posts.push({ message, transfer }),
    onmessage: null,
    onerror: null,
  } as unknown as Worker;
  return { posts, client: new WorkerClient(worker) };
}

/** `n` frames as views of one buffer, as the panel's batches come: mixed sizes, directions, opcodes, connections. */
function panelBatch(n: number, firstId = 1): IngestFrame[] {
  const sizes = Array.from({ length: n }, (_, i) => (i * 53) % 700);
  const bytes = new Uint8Array(sizes.reduce((a, b) => a + b, 0));
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31) & 0xff;
  let at = 0;
  return sizes.map((size, i) => {
    const data = bytes.subarray(at, at + size);
    at += size;
    return {
      frameId: firstId + i,
      connectionId: `conn-${i % 3}`,
      direction: i % 4 ? 'received' : 'sent',
      time: 1_700_000_000_000 + i * 0.25,
      opcode: i % 5 ? 'binary' : 'text',
      data,
    };
  });
}

describe('a panel batch to the decode worker', () => {
  it('goes as one message whose clone makes a few objects, not one per frame, with its one buffer transferred', () => {
    const { posts, client } = recordingWorker();
    const frames = panelBatch(500);
    const total = frames.reduce((s, f) => s + f.data.byteLength, 0);
    client.ingest(frames);
    expect(posts).toHaveLength(1);
    expect(clonedObjects(posts[0]!.message)).toBeLessThan(20);
    expect(posts[0]!.transfer.map((b) => (b as ArrayBuffer).byteLength)).toEqual([total]);
  });

  it('lists the same rows and holds the same bytes as frames sent one object each', async () => {
    const frames = panelBatch(300);
    const expected = frames.map((f) => ({
      frameId: f.frameId,
      connectionId: f.connectionId,
      direction: f.direction,
      time: f.time,
      opcode: f.opcode,
      size: f.data.byteLength,
      bytes: [...f.data],
    }));
    const posted: FromWorker[] = [];
    const dispatch = createDispatcher((m) => posted.push(m));
    const { posts, client } = recordingWorker();
    client.ingest(frames);
    // What reaches the worker is a structured clone, with the transferred buffer.
    for (const p of posts) dispatch(structuredClone(p.message, { transfer: p.transfer }));
    await new Promise((r) => setTimeout(r, 80));
    const rows = posted.flatMap((m) => (m.type === 'summaries' ? m.summaries : []));
    expect(
      rows.map(({ frameId, connectionId, direction, time, opcode, size }) => ({
        frameId,
        connectionId,
        direction,
        time,
        opcode,
        size,
      })),
    ).toEqual(expected.map(({ bytes: _bytes, ...row }) => row));
    for (const f of expected) {
      dispatch({ type: 'call', callId: f.frameId, method: 'bytes', params: { frameId: f.frameId } } as ToWorker);
      const answer = posted.find((m) => m.type === 'result' && m.callId === f.frameId) as
        | { result: Uint8Array }
        | undefined;
      expect([...(answer?.result ?? [])]).toEqual(f.bytes);
    }
  });
});

describe('a packed batch in the worker', () => {
  it("keeps a small batch's frames as views of its one buffer (no copy per frame); a batch over 1 MiB gives each frame its own bytes", () => {
    const small = unpackIngest(packIngest(panelBatch(200))!);
    expect(new Set(small.map((f) => f.data.buffer)).size).toBe(1);
    // A frame of a large batch would keep the whole batch alive after its own eviction: each is copied out.
    const big = new Uint8Array(3 * 1024 * 1024);
    const frames = [0, 1, 2].map(
      (k): IngestFrame => ({
        frameId: k + 1,
        connectionId: 'c',
        direction: 'received',
        time: k,
        opcode: 'binary',
        data: big.subarray(k * 1024 * 1024, (k + 1) * 1024 * 1024),
      }),
    );
    const large = unpackIngest(packIngest(frames)!);
    expect(new Set(large.map((f) => f.data.buffer)).size).toBe(3);
    for (const f of large) expect(f.data.byteLength).toBe(f.data.buffer.byteLength);
  });
});
