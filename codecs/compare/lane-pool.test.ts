/**
 * Lane workers kept between comparisons (codecs/compare/lane-pool.ts): a comparison that
 * ends normally gives its lanes back and the next one takes them (warm: no new isolate, no
 * new start); a cancelled or failed one terminates them and the next starts new workers.
 * Rows stay the single lane's either way.
 */
import { describe, expect, it } from 'vitest';
import { isMeasured, runComparison, compareValue, type Row } from './compare.js';
import { reusedLanes } from './lane-pool.js';
import { serveLane, type LaneReply } from './lane-protocol.js';
import { fakeWorkers } from '../test/helpers/fake-lane-workers.js';
import { nodeLanes } from './node-lane.js';
import { generateDocument } from '../bench/generate.js';
import { scanValue as scanOf } from './features.js';

const options = { runs: 1, warmup: 0 } as const;
const doc = generateDocument(3_000);
const view = (rows: Row[]) =>
  rows.map((r) => (isMeasured(r) ? [r.codec, r.size, r.gzip, r.lossless] : [r.codec, r.unsupported]));

describe('lanes kept between comparisons', () => {
  it('a second comparison takes the first one’s workers back: no new worker, the value dropped in between', async () => {
    const workers = fakeWorkers();
    const pool = { ...reusedLanes(workers.start, 2), minBytes: 0 };
    const single = await runComparison(doc, options);
    const first = await runComparison(doc, { ...options, lanes: pool });
    expect(workers.log).toHaveLength(2);
    expect(pool.idleCount()).toBe(2);
    const second = await runComparison({ other: [1, 2, 3] }, { ...options, lanes: pool });
    expect(workers.log).toHaveLength(2);
    expect(view(first)).toEqual(view(single));
    expect(view(second)).toEqual(view(await runComparison({ other: [1, 2, 3] }, options)));
    for (const w of workers.log) {
      expect(w.terminated).toBe(false);
      expect(w.requests.filter((r) => r === 'start')).toHaveLength(2);
      expect(w.requests.filter((r) => r === 'release')).toHaveLength(2);
      expect(w.idle).toBe(2);
      expect(w.busy).toBe(1);
    }
  });

  it('a cancelled comparison terminates its workers; the next one starts new ones', async () => {
    const workers = fakeWorkers();
    const pool = { ...reusedLanes(workers.start, 2), minBytes: 0 };
    const ac = new AbortController();
    let n = 0;
    for await (const _ of compareValue(doc, { ...options, lanes: pool, signal: ac.signal })) if (++n === 2) ac.abort();
    expect(workers.log.every((w) => w.terminated)).toBe(true);
    expect(pool.idleCount()).toBe(0);
    await runComparison(doc, { ...options, lanes: pool });
    expect(workers.log).toHaveLength(4);
    expect(pool.idleCount()).toBe(2);
    pool.endIdle();
    expect(workers.log.slice(2).every((w) => w.terminated)).toBe(true);
  });

  it('worker threads: two comparisons on one pool use the same worker threads, rows as on one lane', async () => {
    const pool = { ...nodeLanes({ cores: 2 }), minBytes: 0 };
    const value = { a: [1, 'x', { b: Uint8Array.of(1, 2) }], c: 1n << 70n };
    const single = view(await runComparison(value, options));
    expect(view(await runComparison(value, { ...options, lanes: pool }))).toEqual(single);
    expect(pool.idleCount()).toBe(2);
    expect(view(await runComparison(value, { ...options, lanes: pool }))).toEqual(single);
    expect(pool.idleCount()).toBe(2);
    pool.endIdle();
    expect(pool.idleCount()).toBe(0);
  }, 60_000);
});

describe('the worker side of a lane (serveLane)', () => {
  it('a value it cannot rebuild answers every measure with the reason; a later start works again', async () => {
    const replies: LaneReply[] = [];
    const handle = serveLane((r) => replies.push(r));
    // A class instance listed at a path the value does not have: unpacking throws.
    handle({
      type: 'start',
      packed: { value: { a: 1 }, classes: [{ path: ['x', 'y'], kind: 'tag' }] },
      features: scanOf({ a: 1 }),
      settings: { runs: 1, warmup: 0 },
      codecs: ['json'],
    });
    handle({ type: 'measure', id: 0, codecs: ['json'], keep: [] });
    handle({
      type: 'start',
      packed: { value: { a: 1 }, classes: [] },
      features: scanOf({ a: 1 }),
      settings: { runs: 1, warmup: 0 },
      codecs: ['json'],
    });
    handle({ type: 'measure', id: 1, codecs: ['json'], keep: [] });
    await expect.poll(() => replies.filter((r) => r.type !== 'row').length).toBe(2);
    expect(replies[0]).toMatchObject({
      type: 'error',
      id: 0,
      message: expect.stringMatching(/could not take the value/),
    });
    expect(replies.slice(1).map((r) => r.type)).toEqual(['row', 'done']);
  });
});
