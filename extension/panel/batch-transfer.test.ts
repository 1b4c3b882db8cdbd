/**
 * The page keeps up while the panel is open: a panel batch's frames reach the
 * decode worker in one transferred buffer, not one buffer per frame. Transferring 10,000
 * small buffers a second (and slicing each out first) took a large share of the panel's
 * main thread under a flood; the worker slices them itself.
 */
import { describe, expect, it } from 'vitest';
import type { IngestFrame } from '../../inspector-app/src/worker/api.js';
import { unpackFrames } from '../../inspector-app/src/protocol/packed-frames.js';
import { WorkerClient } from '../../inspector-app/src/worker/client.js';
import type { RelayBatch } from '../shared/messages.js';
import { plainFrame, type PlainEvent, relayBatch } from '../shared/test/plain-capture.js';
import { PanelConverter } from './convert.js';

const batch = (events: PlainEvent[]): RelayBatch => relayBatch(1, events, { framesBefore: 0 }, 'base64');

/** A Worker stand-in that records what each postMessage transferred. */
function recordingWorker() {
  const posts: { message: { type: string; frames?: IngestFrame[] }; transfer: Transferable[] }[] = [];
  const worker = {
    postMessage: (message: never, transfer: Transferable[] = []) => posts.push({ message, transfer }),
    onmessage: null,
    onerror: null,
  } as unknown as Worker;
  return { posts, client: new WorkerClient(worker) };
}

const toIngest = (
  frames: readonly {
    connectionId: string;
    direction: 'sent' | 'received';
    time: number;
    opcode: 'text' | 'binary';
    data: Uint8Array;
  }[],
): IngestFrame[] => frames.map((f, i) => ({ ...f, frameId: i + 1 }));

describe('panel frames to the worker', () => {
  it('a batch of 200 frames goes to the worker as one transferred buffer, every frame byte-exact', () => {
    const sizes = Array.from({ length: 200 }, (_, i) => (i * 37) % 300);
    const events = sizes.map((n, i) =>
      plainFrame(
        1,
        Uint8Array.from({ length: n }, (_, k) => (i + k) & 0xff),
        { direction: 'received', time: i },
      ),
    );
    const out = new PanelConverter().convert([{ ...batch(events), type: 'events' } as never]);
    // One packed message, no object per frame (the panel's main thread under a flood).
    expect(out.map((m) => m.type)).toEqual(['frames-packed']);
    const packed = out[0]!.type === 'frames-packed' ? out[0]!.packed : null;
    expect(packed!.ends).toBeInstanceOf(Float64Array);
    expect(packed!.connections).toEqual(['doc:1']);
    const frames = unpackFrames(packed!);
    expect(frames.map((f) => f.data.byteLength)).toEqual(sizes);
    expect(frames.map((f) => f.time)).toEqual(sizes.map((_, i) => i));
    expect(frames.every((f) => f.direction === 'received' && f.opcode === 'binary' && f.connectionId === 'doc:1')).toBe(
      true,
    );
    frames.forEach((f, i) => {
      expect([...f.data]).toEqual(Array.from({ length: sizes[i]! }, (_, k) => (i + k) & 0xff));
    });
    const { posts, client } = recordingWorker();
    client.ingestPacked({ ...packed!, frameIds: Float64Array.from(sizes, (_, i) => i + 1) });
    expect(posts).toHaveLength(1);
    expect(posts[0]!.message.type).toBe('ingest-packed');
    expect(posts[0]!.transfer).toHaveLength(1);
    expect((posts[0]!.transfer[0] as ArrayBuffer).byteLength).toBe(sizes.reduce((a, b) => a + b, 0));
  });

  it("socket events before and after a batch's frames keep their places around its one packed message", () => {
    const events: PlainEvent[] = [
      { type: 'opening', socketId: 1, url: 'wss://a.test/', time: 0 } as PlainEvent,
      plainFrame(1, [1, 2, 3], { direction: 'sent', opcode: 'text' }),
      plainFrame(1, [4, 5], { direction: 'received' }),
      { type: 'close', socketId: 1, code: 1000, reason: '', wasClean: true, time: 2 },
    ];
    const out = new PanelConverter().convert([{ ...batch(events), type: 'events' } as never]);
    expect(out.map((m) => m.type)).toEqual(['connection-opening', 'frames-packed', 'connection-closed']);
    const frames = out[1]!.type === 'frames-packed' ? unpackFrames(out[1]!.packed) : [];
    expect(frames.map((f) => [f.direction, f.opcode, [...f.data]])).toEqual([
      ['sent', 'text', [1, 2, 3]],
      ['received', 'binary', [4, 5]],
    ]);
  });

  it('frames split by socket events into several messages each keep their own bytes (no buffer copied twice)', () => {
    const events: PlainEvent[] = [
      plainFrame(1, [1, 2, 3]),
      { type: 'close', socketId: 1, code: 1000, reason: '', wasClean: true, time: 2 },
      plainFrame(2, [4, 5]),
    ];
    const out = new PanelConverter().convert([{ ...batch(events), type: 'events' } as never]);
    const messages = out.filter((m) => m.type === 'frames');
    expect(messages).toHaveLength(2);
    const { posts, client } = recordingWorker();
    for (const m of messages) if (m.type === 'frames') client.ingest(toIngest(m.frames));
    // Each message's frames own their buffers: nothing of the other message travels with them.
    expect(posts.map((p) => p.transfer.map((b) => (b as ArrayBuffer).byteLength))).toEqual([[3], [2]]);
  });

  it('frames that are views into a buffer they do not fill are copied, never transferred (the caller keeps its buffer)', () => {
    const whole = new Uint8Array(100);
    const { posts, client } = recordingWorker();
    client.ingest(
      toIngest([{ connectionId: 'c', direction: 'received', time: 0, opcode: 'binary', data: whole.subarray(0, 10) }]),
    );
    expect(posts[0]!.transfer).toEqual([]);
  });
});
