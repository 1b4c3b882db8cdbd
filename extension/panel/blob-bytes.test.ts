/**
 * Frame bytes that arrive as Blobs (relay/README.md: Chrome's structured-clone messaging
 * carries them): the panel reads each one (all at once, as they arrive) and delivers every
 * item in order, each batch's frames byte-exact, nothing before an earlier item is read; a
 * Blob that cannot be read costs its frames, counted, and nothing else.
 */
import { describe, expect, it } from 'vitest';
import type { HostMessage } from '../../inspector-app/src/protocol/messages.js';
import type { PanelBatch, PanelItem } from '../shared/messages.js';
import { plainFrame, wireCapture, type PlainEvent } from '../shared/test/plain-capture.js';
import { PortTransport, type Timers } from './port-transport.js';
import { framesOf } from '../shared/test/frames-of.js';
import { fakePort } from './test/fake-port.js';

const timers: Timers = {
  setTimeout: (fn) => (queueMicrotask(fn), 1),
  clearTimeout() {},
  setInterval: () => 0,
  clearInterval() {},
};

/** An `events` item whose frame bytes are a Blob. */
function blobItem(seq: number, events: PlainEvent[]): PanelItem {
  const c = wireCapture(events);
  const bytes = 'bytes' in c.frameBytes ? c.frameBytes.bytes : new Uint8Array(0);
  return {
    type: 'events',
    documentId: 'doc',
    seq,
    lostBatches: 0,
    ...c,
    frameBytes: { blob: new Blob([bytes as Uint8Array<ArrayBuffer>]) },
  };
}
const batch = (items: PanelItem[], cursor: number): PanelBatch => ({
  type: 'panel-batch',
  bufferId: 'b',
  cursor,
  framesThrough: 0,
  items,
});
const settle = () => new Promise((r) => setTimeout(r, 10));

describe('frame bytes as Blobs', () => {
  it('delivers items in order, byte-exact, even when a later Blob is read first', async () => {
    const port = fakePort();
    const reads: { blob: Blob; resolve: (b: Uint8Array | null) => void }[] = [];
    const transport = new PortTransport({
      connect: () => port,
      timers,
      pingMs: 0,
      readBlob: (blob) => new Promise((resolve) => reads.push({ blob, resolve })),
    });
    const got: HostMessage[] = [];
    transport.listen((m) => got.push(m));
    port.receive(
      batch(
        [
          blobItem(1, [{ type: 'opening', socketId: 1, url: 'wss://a/', time: 1 }, plainFrame(1, [1, 2, 3])]),
          { type: 'navigated', url: 'https://a.test/', time: 2 },
        ],
        2,
      ),
    );
    port.receive(batch([blobItem(2, [plainFrame(1, [4]), plainFrame(1, []), plainFrame(1, [5, 6])])], 3));
    expect(reads).toHaveLength(2); // both read at once, as they arrive
    const real = async (i: number) => new Uint8Array(await reads[i]!.blob.arrayBuffer());
    reads[1]!.resolve(await real(1));
    await settle();
    expect(got.filter((m) => m.type !== 'hello')).toEqual([]); // the first item is not read yet: nothing after it either
    reads[0]!.resolve(await real(0));
    await settle();
    expect(got.map((m) => m.type)).toEqual([
      'hello',
      'connection-opening',
      'frames-packed',
      'navigated',
      'frames-packed',
    ]);
    expect(framesOf(got).map((f) => Array.from(f.data))).toEqual([[1, 2, 3], [4], [], [5, 6]]);
    transport.close();
  });

  it('reads with Blob.arrayBuffer by default', async () => {
    const port = fakePort();
    const transport = new PortTransport({ connect: () => port, timers, pingMs: 0 });
    const got: HostMessage[] = [];
    transport.listen((m) => got.push(m));
    port.receive(batch([blobItem(1, [plainFrame(1, [9, 8, 7]), plainFrame(2, [6])])], 1));
    await settle();
    expect(framesOf(got).map((f) => [f.connectionId, Array.from(f.data)])).toEqual([
      ['doc:1', [9, 8, 7]],
      ['doc:2', [6]],
    ]);
    transport.close();
  });

  it('a Blob that cannot be read costs its frames, counted; the items after it still come', async () => {
    const port = fakePort();
    let n = 0;
    const transport = new PortTransport({
      connect: () => port,
      timers,
      pingMs: 0,
      readBlob: async (blob) => (n++ === 0 ? null : new Uint8Array(await blob.arrayBuffer())),
    });
    const got: HostMessage[] = [];
    transport.listen((m) => got.push(m));
    port.receive(batch([blobItem(1, [plainFrame(1, [1]), plainFrame(1, [2])]), blobItem(2, [plainFrame(1, [3])])], 2));
    await settle();
    expect(got.find((m) => m.type === 'dropped')).toMatchObject({ type: 'dropped', count: 2 });
    expect(framesOf(got).map((f) => Array.from(f.data))).toEqual([[3]]);
    transport.close();
  });
});
