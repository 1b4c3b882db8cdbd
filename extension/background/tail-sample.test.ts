/**
 * The live tail under a flood: the newest frames of each connection, copied out of the held
 * items in their wire form, oldest first; nothing from an item whose table lies about its bytes.
 */
import { describe, expect, it } from 'vitest';
import type { PanelItem, PanelTailItem, WireCapture } from '../shared/messages.js';
import { blobBytes, plainFrame, unpackWire, wireCapture, type PlainFrame } from '../shared/test/plain-capture.js';
import { countByConnection, sampleTail } from './tail-sample.js';

/** An `events` item of frames on sockets `sockets[i]`, frame i's first byte its number `from + i`. */
function item(seq: number, sockets: readonly number[], from: number, as: 'bytes' | 'base64' = 'bytes'): PanelItem {
  const frames = sockets.map((socketId, i) =>
    plainFrame(socketId, [from + i, 7, 7], { direction: 'received', time: from + i }),
  );
  return { type: 'events', documentId: 'doc', seq, lostBatches: 0, ...wireCapture(frames, as) };
}

/** The sample's frames as (socket, number) pairs, in order. */
function framesOf(tail: readonly PanelTailItem[]): [number, number][] {
  return tail.flatMap((t) =>
    unpackWire({ events: [], ...t } as WireCapture)
      .filter((e): e is PlainFrame => e.type === 'frame')
      .map((f) => [f.socketId, new Uint8Array(f.data)[0]!] as [number, number]),
  );
}

describe('sampleTail', () => {
  it('keeps the newest frames of each connection across items, oldest first, with their bytes', () => {
    // Socket 1 floods; socket 2 sends one frame in the older item only.
    const older = item(1, [1, 2, 1, 1], 10);
    const newer = item(2, [1, 1, 1], 20);
    const tail = sampleTail([newer, older], { perConnection: 3, maxFrames: 100 });
    expect(framesOf(tail)).toEqual([
      [2, 11],
      [1, 20],
      [1, 21],
      [1, 22],
    ]);
    expect(tail.every((t) => t.documentId === 'doc')).toBe(true);
  });

  it('keeps the wire form: base64 stays base64, a Blob is cut into a Blob', async () => {
    const b64 = sampleTail([item(1, [1, 1, 1], 30, 'base64')], { perConnection: 2, maxFrames: 100 });
    expect('b64' in b64[0]!.frameTable && 'b64' in b64[0]!.frameBytes).toBe(true);
    expect(framesOf(b64)).toEqual([
      [1, 31],
      [1, 32],
    ]);
    const plain = item(1, [1, 1, 1], 40) as Extract<PanelItem, { type: 'events' }>;
    const asBlob: PanelItem = {
      ...plain,
      frameBytes: { blob: new Blob([(plain.frameBytes as { bytes: Uint8Array<ArrayBuffer> }).bytes]) },
    };
    const [cut] = sampleTail([asBlob], { perConnection: 2, maxFrames: 100 });
    expect('blob' in cut!.frameBytes).toBe(true);
    const bytes = await blobBytes((cut!.frameBytes as { blob: Blob }).blob);
    expect([...bytes]).toEqual([41, 7, 7, 42, 7, 7]);
  });

  it('stops at maxFrames and skips an item whose table does not add up to its bytes', () => {
    const lying: PanelItem = {
      ...(item(3, [1, 1], 50) as Extract<PanelItem, { type: 'events' }>),
      frameBytes: { bytes: new Uint8Array(2) },
    };
    expect(sampleTail([lying], { perConnection: 5, maxFrames: 100 })).toEqual([]);
    const many = item(1, [1, 2, 3, 4, 5, 6], 60);
    expect(framesOf(sampleTail([many], { perConnection: 5, maxFrames: 4 })).map(([s]) => s)).toEqual([3, 4, 5, 6]);
  });

  it('counts frames per connection', () => {
    const it1 = item(1, [1, 2, 1], 0) as Extract<PanelItem, { type: 'events' }>;
    expect([...countByConnection(it1.documentId, it1.frameTable)]).toEqual([
      ['doc:1', 2],
      ['doc:2', 1],
    ]);
  });
});
