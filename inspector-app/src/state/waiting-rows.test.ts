/**
 * Under a flood the worker lists frames as waiting rows and sends each one's read
 * row later (worker/flood-deferral.ts). The later row replaces the waiting one in place:
 * one row per frame, in frame order, filters applied to what the row now says.
 */
import { describe, expect, it } from 'vitest';
import type { FrameSummary } from '../worker/api.js';
import { CaptureModel } from './capture-model.js';

const waiting = (frameId: number): FrameSummary => ({
  frameId,
  connectionId: 'c',
  direction: 'received',
  time: 0,
  opcode: 'binary',
  size: 10,
  format: null,
  preview: '',
  error: null,
  waiting: true,
});
const read = (frameId: number, format: string): FrameSummary => ({
  frameId,
  connectionId: 'c',
  direction: 'received',
  time: 0,
  opcode: 'binary',
  size: 10,
  format,
  preview: `{n: ${frameId}}`,
  error: null,
});
const batch = (summaries: FrameSummary[]) => ({
  type: 'summaries' as const,
  summaries,
  evictedTotal: 0,
  evictedIds: [],
  bytesHeld: 0,
  matching: null,
  filterGeneration: 0,
});

describe('waiting rows replaced by their read rows', () => {
  it('keeps one row per frame, in order, with what the later row says', () => {
    const model = new CaptureModel((run) => run());
    model.applySummaries(batch([1, 2, 3, 4].map(waiting)));
    model.applySummaries(batch([read(2, 'cbor'), read(3, 'msgpack')]));
    const rows = model.getSnapshot().rows;
    expect(rows.map((r) => r.frameId)).toEqual([1, 2, 3, 4]);
    expect(rows.map((r) => r.format)).toEqual([null, 'cbor', 'msgpack', null]);
    expect(model.getSnapshot().visible.map((r) => r.preview)).toEqual(['', '{n: 2}', '{n: 3}', '']);
  });

  it('a format filter shows a frame once its row is read (and a paused list keeps its backlog in step)', () => {
    const model = new CaptureModel((run) => run());
    model.setListFilters({ ...model.currentFilters(), format: 'cbor' });
    model.applySummaries(batch([1, 2, 3].map(waiting)));
    expect(model.getSnapshot().visible).toEqual([]);
    model.applySummaries(batch([read(1, 'cbor'), read(2, 'msgpack'), read(3, 'cbor')]));
    expect(model.getSnapshot().visible.map((r) => r.frameId)).toEqual([1, 3]);
    model.setPaused(true);
    model.applySummaries(batch([waiting(4)]));
    model.applySummaries(batch([read(4, 'cbor')]));
    model.setPaused(false);
    expect(model.getSnapshot().rows.map((r) => [r.frameId, r.format])).toEqual([
      [1, 'cbor'],
      [2, 'msgpack'],
      [3, 'cbor'],
      [4, 'cbor'],
    ]);
  });

  it('the snapshot says how many rows wait, so the status can say the list is catching up', () => {
    const model = new CaptureModel((run) => run());
    model.applySummaries(batch([1, 2, 3].map(waiting)));
    expect(model.getSnapshot().waitingRows).toBe(3);
    model.applySummaries(batch([read(1, 'cbor'), read(2, 'cbor')]));
    expect(model.getSnapshot().waitingRows).toBe(1);
  });
});
