import { describe, expect, it, vi } from 'vitest';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { WorkerHandlers } from './handlers.js';
import { NodeValueMemo } from './node-value-memo.js';
import { runCompare, warmCompare } from './compare-job.js';
import { clonedLane } from '../../../codecs/test/helpers/cloned-lane.js';
import { generateDocument } from '../../../codecs/bench/generate.js';
import type { LanePool } from '../../../codecs/compare/lanes.js';

const indexOf = (value: unknown) => {
  const h = new WorkerHandlers();
  h.store.add({
    frameId: 1,
    connectionId: 'c1',
    direction: 'received',
    time: 0,
    opcode: 'binary',
    data: new CborEncoder().encode(value).slice(),
  });
  return h.store.decoded(1, 'auto')!.index!;
};

describe('the value the Compare tab’s warm-up built, kept for its Run', () => {
  it('taken once for the same node of the same index; any other node, index or a second take builds it', () => {
    const index = indexOf({ a: [1, 2], b: 'x' });
    const other = indexOf({ a: [1, 2], b: 'x' });
    const memo = new NodeValueMemo();
    const kept = memo.keep(index, index.root);
    expect(memo.take(index, index.root)).toBe(kept);
    expect(memo.take(index, index.root)).not.toBe(kept);
    memo.keep(index, index.root);
    expect(memo.take(other, other.root)).toEqual(kept);
    expect(memo.take(index, index.root)).not.toBe(kept);
  });

  it('warm-up then Run on a large node: the value is built once', async () => {
    const index = indexOf(generateDocument(300_000));
    const build = vi.spyOn(index, 'value');
    const memo = new NodeValueMemo();
    const pool: LanePool = {
      open: clonedLane,
      count: 2,
      warm: async () => ({ started: 2, warmed: 2, interrupted: 0, ms: 1 }),
    };
    await warmCompare(index, index.root, pool, memo);
    let error: string | null = 'not ended';
    await runCompare({
      index,
      nodeId: index.root,
      signal: new AbortController().signal,
      sink: { row: () => {}, end: (_c, e) => (error = e) },
      title: 't',
      lanes: { ...pool, count: 1 },
      values: memo,
    });
    expect(error).toBeNull();
    expect(build).toHaveBeenCalledTimes(1);
  }, 60_000);
});
