/**
 * The panel sheds work under a flood. While rows pour in (many per redraw), the
 * list and status redraw at most every 500 ms instead of every animation frame, whatever the
 * list's length (each redraw's layout and paint take the CPU a flooded page needs); a
 * trickle still redraws at once, and a long list without a flood every 100 ms.
 */
import { describe, expect, it } from 'vitest';
import type { FrameSummary } from '../worker/api.js';
import { CaptureModel, type ModelClock } from './capture-model.js';

/** A clock the test moves: `later` runs when the time comes. */
function testClock() {
  let t = 0;
  const due: { at: number; run: () => void }[] = [];
  const clock: ModelClock = { now: () => t, later: (run, ms) => void due.push({ at: t + ms, run }) };
  const advance = (ms: number) => {
    t += ms;
    for (let i = 0; i < due.length; ) {
      if (due[i]!.at <= t) due.splice(i, 1)[0]!.run();
      else i++;
    }
  };
  return { clock, advance };
}

let nextId = 1;
const row = (): FrameSummary => ({
  frameId: nextId++,
  connectionId: 'c',
  direction: 'received',
  time: 0,
  opcode: 'binary',
  size: 10,
  format: 'cbor',
  preview: '{}',
  error: null,
});
const batch = (n: number) => ({
  type: 'summaries' as const,
  summaries: Array.from({ length: n }, row),
  evictedTotal: 0,
  evictedIds: [],
  bytesHeld: 0,
  matching: null,
  filterGeneration: 0,
});

function redrawsFor(rowsPerBatch: number, batches: number, everyMs: number): number {
  const { clock, advance } = testClock();
  const model = new CaptureModel((run) => run(), clock);
  let redraws = 0;
  model.subscribe(() => redraws++);
  for (let i = 0; i < batches; i++) {
    model.applySummaries(batch(rowsPerBatch));
    advance(everyMs);
  }
  advance(1000);
  expect(model.getSnapshot().rows).toHaveLength(rowsPerBatch * batches);
  return redraws;
}

describe('redraws under a flood', () => {
  it('a flood (500 rows every 50 ms, 3 s) redraws at most every 500 ms', () => {
    const redraws = redrawsFor(500, 60, 50);
    expect(redraws).toBeLessThanOrEqual(3000 / 500 + 2);
    expect(redraws).toBeGreaterThanOrEqual(3000 / 500 - 2); // still live
  });

  it('once a flood calms, the next redraw (within 500 ms) shows every row and the waiting count', () => {
    const { clock, advance } = testClock();
    const model = new CaptureModel((run) => run(), clock);
    const seen: { rows: number; waiting: number }[] = [];
    model.subscribe(() =>
      seen.push({ rows: model.getSnapshot().rows.length, waiting: model.getSnapshot().waitingRows }),
    );
    for (let i = 0; i < 20; i++) {
      model.applySummaries({ ...batch(500), summaries: batch(500).summaries.map((r) => ({ ...r, waiting: true })) });
      advance(50);
    }
    advance(500);
    expect(seen.at(-1)).toEqual({ rows: 10_000, waiting: 10_000 });
    const redrawsBefore = seen.length;
    // Nothing else arrives: no redraw is left pending with stale figures.
    advance(5000);
    expect(seen).toHaveLength(redrawsBefore);
  });

  it("status changes during a flood (losses, connection events) wait for the flood's next redraw", () => {
    const { clock, advance } = testClock();
    const model = new CaptureModel((run) => run(), clock);
    let redraws = 0;
    model.subscribe(() => redraws++);
    for (let i = 0; i < 60; i++) {
      model.applySummaries(batch(500));
      model.applyHostMessage({ type: 'dropped', count: 1, reason: 'test' });
      model.applyHostMessage({ type: 'connection-error', connectionId: 'c', message: 'x', time: i });
      advance(50);
    }
    advance(1000);
    expect(redraws).toBeLessThanOrEqual(3000 / 500 + 2);
    expect(model.getSnapshot().droppedByHost).toBe(60);
  });

  it('a long list without a flood (20 rows every 50 ms) redraws every 100 ms', () => {
    const { clock, advance } = testClock();
    const model = new CaptureModel((run) => run(), clock);
    model.applySummaries(batch(60_000)); // past the large-list mark
    advance(1000);
    let redraws = 0;
    model.subscribe(() => redraws++);
    for (let i = 0; i < 60; i++) {
      model.applySummaries(batch(20));
      advance(50);
    }
    expect(redraws).toBeGreaterThanOrEqual(3000 / 100 - 2);
    expect(redraws).toBeLessThanOrEqual(3000 / 100 + 2);
  });

  it('a trickle (one row every 50 ms) redraws each time', () => {
    expect(redrawsFor(1, 20, 50)).toBe(20);
  });
});
