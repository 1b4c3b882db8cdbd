/**
 * The list takes the rows the worker read again after a schema change: they replace their
 * rows (evicted ones stay gone), the filters apply to them anew, and a superseded run's late
 * slices change nothing.
 */
import { describe, expect, it } from 'vitest';
import type { FrameSummary } from '../worker/api.js';
import type { RereadBatch } from '../worker/client.js';
import { CaptureModel } from './capture-model.js';

const row = (frameId: number, format: string, preview: string, extra: Partial<FrameSummary> = {}): FrameSummary => ({
  frameId,
  connectionId: 'c1',
  direction: 'received',
  time: frameId,
  opcode: 'binary',
  size: 10,
  format,
  preview,
  error: null,
  verdict: 'decoded',
  ...extra,
});
const summaries = (rows: FrameSummary[]) => ({
  type: 'summaries' as const,
  summaries: rows,
  evictedTotal: 0,
  evictedIds: [],
  bytesHeld: 0,
  matching: null,
  filterGeneration: 0,
});
const reread = (generation: number, rows: FrameSummary[], progress: Partial<RereadBatch> = {}): RereadBatch => ({
  type: 'reread',
  generation,
  rows,
  matching: null,
  filterGeneration: 0,
  searched: rows.length,
  total: rows.length,
  done: true,
  ...progress,
});

describe('re-read rows in the list', () => {
  it('replace their rows and the filters follow', () => {
    const model = new CaptureModel((run) => run());
    model.applySummaries(
      summaries([row(1, 'protobuf', '{1: "ACME"}'), row(2, 'cbor', '{a: 1}'), row(3, 'protobuf', '{1: "X"}')]),
    );
    model.setListFilters({ ...model.currentFilters(), protocol: 'none', event: '' });
    model.applyReread(
      reread(1, [row(1, 'protobuf', '{symbol: "ACME"}'), row(3, 'cbor', '{b: 2}')], {
        searched: 2,
        total: 3,
        done: false,
      }),
    );
    const snap = model.getSnapshot();
    expect(snap.rows.map((r) => r.preview)).toEqual(['{symbol: "ACME"}', '{a: 1}', '{b: 2}']);
    expect(snap.reread).toEqual({ searched: 2, total: 3, done: false });
    expect(model.frame(1)?.preview).toBe('{symbol: "ACME"}');
    model.setListFilters({ ...model.currentFilters(), format: 'cbor' });
    expect(model.getSnapshot().visible.map((r) => r.frameId)).toEqual([2, 3]);
    // A re-read that moves a row out of the format filter takes it out of the visible list.
    model.applyReread(reread(1, [row(2, 'protobuf', '{1: 1}')], { searched: 3, total: 3 }));
    expect(model.getSnapshot().visible.map((r) => r.frameId)).toEqual([3]);
    expect(model.getSnapshot().reread).toEqual({ searched: 3, total: 3, done: true });
  });

  it('an evicted frame stays gone; a superseded run changes nothing', () => {
    const model = new CaptureModel((run) => run());
    model.applySummaries(summaries([row(1, 'protobuf', 'a'), row(2, 'protobuf', 'b')]));
    model.applyEvictions([1], 1, 10);
    model.applyReread(reread(2, [row(1, 'protobuf', 'A'), row(2, 'protobuf', 'B')]));
    expect(model.getSnapshot().rows.map((r) => [r.frameId, r.preview])).toEqual([[2, 'B']]);
    expect(model.frame(1)).toBeUndefined();
    model.applyReread(reread(1, [row(2, 'protobuf', 'stale')]));
    expect(model.getSnapshot().rows.map((r) => r.preview)).toEqual(['B']);
  });

  it('rows that arrived while paused are re-read too', () => {
    const model = new CaptureModel((run) => run());
    model.setPaused(true);
    model.applySummaries(summaries([row(1, 'protobuf', 'raw')]));
    model.applyReread(reread(1, [row(1, 'protobuf', 'named')]));
    model.setPaused(false);
    expect(model.getSnapshot().rows.map((r) => r.preview)).toEqual(['named']);
  });
  it('many slices between two redraws are put in place once, all of them', () => {
    const queued: (() => void)[] = [];
    // A hand-driven clock: a flood's redraw waits for `later`, which queues like the schedule.
    let clock = 1_000_000;
    const model = new CaptureModel((run) => void queued.push(run), {
      now: () => (clock += 1000),
      later: (run) => void queued.push(run),
    });
    model.applySummaries(summaries(Array.from({ length: 100 }, (_, i) => row(i + 1, 'protobuf', `raw ${i + 1}`))));
    while (queued.length) queued.shift()!();
    const before = model.getSnapshot().rows;
    for (let i = 0; i < 100; i += 5)
      model.applyReread(
        reread(
          1,
          Array.from({ length: 5 }, (_, j) => row(i + j + 1, 'protobuf', `named ${i + j + 1}`)),
          { searched: i + 5, total: 100, done: i + 5 === 100 },
        ),
      );
    // Nothing drawn yet: the list is untouched; the selected frame's row is already new.
    expect(model.getSnapshot().rows).toBe(before);
    expect(model.frame(42)?.preview).toBe('named 42');
    while (queued.length) queued.shift()!();
    expect(model.getSnapshot().rows.map((r) => r.preview)).toEqual(
      Array.from({ length: 100 }, (_, i) => `named ${i + 1}`),
    );
    expect(model.getSnapshot().reread).toEqual({ searched: 100, total: 100, done: true });
  });
});
