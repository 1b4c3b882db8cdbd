/**
 * The panel under a flood: the worker lists every frame of a flood at once as a
 * waiting row, ~500 row objects per 50 ms batch, and cloning them cost both threads (the
 * panel's main thread most). Waiting rows now cross as typed arrays and the main thread's
 * client puts the same rows back, in the same order, among the read ones.
 */
import { describe, expect, it } from 'vitest';
import type { FromWorker, FrameSummary, ToWorker } from './api.js';
import { WorkerClient } from './client.js';
import { waitingSummary } from './flood-deferral.js';
import { packSummaries } from './summary-packing.js';
import { clonedObjects } from './test/cloned-objects.js';

type Summaries = Extract<FromWorker, { type: 'summaries' }>;

/** A flood batch: waiting rows, with a read row (read ahead, or before the flood) and a lost frame's row among them. */
function floodBatch(): Summaries {
  const summaries: FrameSummary[] = [];
  for (let i = 0; i < 500; i++) {
    const frameId = 1000 + i;
    if (i === 3)
      summaries.push({
        frameId,
        connectionId: 'a',
        direction: 'received',
        time: i,
        opcode: 'binary',
        size: 5,
        format: 'cbor',
        preview: '{seq: 3}',
        error: null,
        verdict: 'decoded',
      });
    else if (i === 250)
      summaries.push({
        frameId,
        connectionId: 'b',
        direction: 'sent',
        time: i,
        opcode: 'text',
        size: 9e6,
        format: null,
        preview: 'too large',
        error: null,
        lost: 'too large',
      });
    else
      summaries.push(
        waitingSummary({
          frameId,
          connectionId: i % 7 ? 'a' : 'b',
          direction: i % 2 ? 'sent' : 'received',
          time: 1_700_000_000_000 + i / 3,
          opcode: i % 5 ? 'binary' : 'text',
          data: new Uint8Array(i % 90),
        }),
      );
  }
  // A waiting frame's read row (read ahead of its turn) in the same batch, after its waiting row.
  summaries.push({
    frameId: 1010,
    connectionId: 'a',
    direction: 'received',
    time: 10,
    opcode: 'binary',
    size: 10,
    format: 'msgpack',
    preview: '1',
    error: null,
    verdict: 'decoded',
  });
  return {
    type: 'summaries',
    summaries,
    evictedTotal: 2,
    evictedIds: [1, 2],
    bytesHeld: 1234,
    matching: null,
    filterGeneration: 0,
  };
}

describe('waiting rows from the worker', () => {
  it('cross as typed arrays: the clone makes a few objects beside the read rows, not one per waiting row', () => {
    const packed = packSummaries(floodBatch());
    expect(clonedObjects(packed)).toBeLessThan(30);
  });

  it('reach the list as the same rows in the same order, read and lost rows in their places', () => {
    const batch = floodBatch();
    const delivered: Summaries[] = [];
    let onmessage: ((e: MessageEvent<FromWorker>) => void) | null = null;
    const worker = {
      postMessage: (_m: ToWorker) => {},
      set onmessage(f: (e: MessageEvent<FromWorker>) => void) {
        onmessage = f;
      },
      onerror: null,
    } as unknown as Worker;
    const client = new WorkerClient(worker);
    client.onSummaries((b) => delivered.push(b as Summaries));
    onmessage!({ data: structuredClone(packSummaries(batch)) } as MessageEvent<FromWorker>);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.summaries).toEqual(batch.summaries);
    const { summaries: _s, ...rest } = delivered[0]!;
    const { summaries: _t, ...expected } = batch;
    expect(rest).toEqual(expected);
  });

  it('a batch without waiting rows is left as it is', () => {
    const batch: Summaries = { ...floodBatch(), summaries: floodBatch().summaries.filter((s) => !s.waiting) };
    expect(packSummaries(batch)).toBe(batch);
  });
});
