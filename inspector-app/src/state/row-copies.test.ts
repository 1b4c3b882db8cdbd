/**
 * After a flood the worker reads the waiting rows in
 * slices, and each slice's rows replaced their waiting rows in a fresh copy of the whole list
 * (and of the filtered list): 100,000 rows and 40 slices a second were millions of copies a
 * second on the panel's main thread, growing with the list. The list is now copied at most
 * once per redraw (a snapshot keeps the arrays it was given). Measured as a ratio of CPU
 * time: the same replacement batches on a list 100 times longer.
 */
import { describe, expect, it } from 'vitest';
import type { FrameSummary } from '../worker/api.js';
import type { SummaryBatch } from '../worker/client.js';
import { CaptureModel } from './capture-model.js';

const row = (frameId: number, waiting: boolean): FrameSummary => ({
  frameId,
  connectionId: 'c',
  direction: 'received',
  time: frameId,
  opcode: 'binary',
  size: 10,
  format: waiting ? null : 'cbor',
  preview: '',
  error: null,
  ...(waiting ? { waiting: true as const } : {}),
});
const batch = (summaries: FrameSummary[]): SummaryBatch => ({
  type: 'summaries',
  summaries,
  evictedTotal: 0,
  evictedIds: [],
  bytesHeld: 0,
  matching: null,
  filterGeneration: 0,
});

/** CPU µs to replace 200 batches of 20 waiting rows by their read rows in a list of `n` rows, with no redraw between (the least of 5 runs). */
function replaceCost(n: number): number {
  let best = Infinity;
  for (let run = 0; run < 5; run++) {
    const redraws: (() => void)[] = [];
    const model = new CaptureModel((draw) => void redraws.push(draw), { now: () => 0, later: () => {} });
    model.applySummaries(batch(Array.from({ length: n }, (_, i) => row(i + 1, true))));
    for (const draw of redraws.splice(0)) draw();
    const start = process.cpuUsage();
    for (let b = 0; b < 200; b++)
      model.applySummaries(batch(Array.from({ length: 20 }, (_, k) => row(1 + ((b * 20 + k) % n), false))));
    const used = process.cpuUsage(start);
    best = Math.min(best, used.user + used.system);
  }
  return best;
}

describe('rows read after a flood replace their waiting rows', () => {
  it('without copying the whole list per batch: 100 times the rows cost far less than 100 times the time', () => {
    const small = replaceCost(1_000);
    const large = replaceCost(100_000);
    expect(large / Math.max(small, 200)).toBeLessThan(10);
  });

  it('a snapshot already drawn keeps its rows; the next one has the read rows, in place', () => {
    const redraws: (() => void)[] = [];
    const model = new CaptureModel((draw) => void redraws.push(draw), { now: () => 0, later: () => {} });
    model.applySummaries(batch([row(1, true), row(2, true), row(3, true)]));
    for (const draw of redraws.splice(0)) draw();
    const drawn = model.getSnapshot();
    const drawnRows = [...drawn.rows];
    model.applySummaries(batch([row(2, false)]));
    model.applySummaries(batch([row(3, false), row(4, true)]));
    expect(drawn.rows).toEqual(drawnRows);
    expect(drawn.visible).toEqual(drawnRows);
    for (const draw of redraws.splice(0)) draw();
    const next = model.getSnapshot();
    expect(next.rows.map((r) => [r.frameId, r.waiting === true])).toEqual([
      [1, true],
      [2, false],
      [3, false],
      [4, true],
    ]);
    expect(next.visible).toEqual(next.rows);
    expect(next.waitingRows).toBe(2);
  });
});
