/**
 * Lanes warmed before the comparison is asked for (lanes.ts warmLanes, lane-pool.ts warm,
 * lane-protocol.ts 'warm'): the pool starts its lanes and warms each once on a sample of
 * the value; the comparison then takes those very lanes; a comparison asked for mid
 * warm-up stops it and never waits for it; rows are the single lane's in every case.
 */
import { describe, expect, it } from 'vitest';
import { isMeasured, runComparison, type Row } from '../compare/compare.js';
import { reusedLanes } from '../compare/lane-pool.js';
import { serveLane, type LaneReply } from '../compare/lane-protocol.js';
import { warmLanes, WARM_CODECS } from '../compare/lanes.js';
import { nodeLanes } from '../compare/node-lane.js';
import { laneSample } from '../compare/lane-sample.js';
import { scanValue } from '../compare/features.js';
import { packValue } from '../compare/lane-value.js';
import { generateDocument } from '../bench/generate.js';
import { fakeWorkers } from './helpers/fake-lane-workers.js';

const options = { runs: 1, warmup: 0 } as const;
const doc = generateDocument(20_000);
const view = (rows: Row[]) => rows.map((r) => (isMeasured(r) ? [r.codec, r.size, r.gzip, r.deflate, r.lossless] : [r.codec, r.unsupported]));

describe('warming lanes before a comparison', () => {
  it('starts the pool’s lanes, warms each once on the json-pack codecs; the comparison then takes them (no new worker)', async () => {
    const workers = fakeWorkers();
    const pool = { ...reusedLanes(workers.start, 2), minBytes: 0 };
    const report = await warmLanes(pool, doc);
    expect(report).toMatchObject({ started: 2, warmed: 2, interrupted: 0 });
    expect(workers.log.map((w) => w.requests)).toEqual([['warm'], ['warm']]);
    expect(pool.idleCount()).toBe(2);
    // Warm already: nothing more to do.
    expect(await warmLanes(pool, doc)).toMatchObject({ started: 0, warmed: 0, interrupted: 0 });
    const rows = await runComparison(doc, { ...options, lanes: pool });
    expect(workers.log).toHaveLength(2);
    expect(view(rows)).toEqual(view(await runComparison(doc, options)));
    // A comparison warms its lanes too: the next warm asks nothing of them.
    expect(await warmLanes(pool, { other: 1 })).toMatchObject({ started: 0, warmed: 0 });
    for (const w of workers.log) {
      expect(w.requests.slice(0, 2)).toEqual(['warm', 'start']);
      expect(w.requests.at(-1)).toBe('release');
      expect(w.requests.filter((r) => r === 'warm')).toHaveLength(1);
    }
  });

  it('a comparison asked for mid warm-up stops it at once and gets the same rows', async () => {
    const workers = fakeWorkers();
    const pool = { ...reusedLanes(workers.start, 2), minBytes: 0 };
    const warming = warmLanes(pool, generateDocument(200_000))!;
    const rows = await runComparison(doc, { ...options, lanes: pool });
    const report = await warming;
    expect(report.interrupted).toBe(2);
    expect(workers.log).toHaveLength(2);
    expect(view(rows)).toEqual(view(await runComparison(doc, options)));
  });

  it('no warm-up while a comparison holds the lanes, for a pool without warm, one lane, or a value lanes never take', async () => {
    const workers = fakeWorkers();
    const pool = { ...reusedLanes(workers.start, 2), minBytes: 0 };
    const comparing = runComparison(doc, { ...options, lanes: pool });
    await new Promise((r) => setTimeout(r, 0));
    expect(await warmLanes(pool, doc)).toMatchObject({ started: 0, warmed: 0 });
    await comparing;
    expect(workers.log.every((w) => !w.requests.includes('warm'))).toBe(true);
    expect(warmLanes(undefined, doc)).toBeNull();
    expect(warmLanes({ open: pool.open, count: 2 }, doc)).toBeNull();
    expect(warmLanes({ ...pool, count: 1 }, doc)).toBeNull();
    expect(warmLanes(pool, { f: () => 1 })).toBeNull();
  });

  it('the worker side answers a warm-up with its time, stopped or not; a start after it works', async () => {
    const replies: LaneReply[] = [];
    const handle = serveLane((r) => replies.push(r));
    const sample = laneSample(doc);
    const f = scanValue(sample);
    handle({ type: 'warm', packed: packValue(sample, f), features: f, codecs: WARM_CODECS });
    await expect.poll(() => replies.length, { timeout: 20_000 }).toBe(1);
    expect(replies[0]).toMatchObject({ type: 'warmed', interrupted: false });
    handle({ type: 'warm', packed: packValue(sample, f), features: f, codecs: WARM_CODECS });
    handle({ type: 'start', packed: packValue({ a: 1 }, scanValue({ a: 1 })), features: scanValue({ a: 1 }), settings: { runs: 1, warmup: 0 }, codecs: ['json'] });
    handle({ type: 'measure', id: 0, codecs: ['json'], keep: [] });
    await expect.poll(() => replies.length).toBe(4);
    expect(replies.slice(1).map((r) => r.type)).toEqual(['warmed', 'row', 'done']);
    expect(replies[1]).toMatchObject({ interrupted: true });
  });

  it('worker threads: warmed, then a comparison on the same threads, rows as on one lane', async () => {
    const pool = { ...nodeLanes({ cores: 2 }), minBytes: 0 };
    const report = await warmLanes(pool, doc);
    expect(report).toMatchObject({ started: 2, warmed: 2, interrupted: 0 });
    expect(view(await runComparison(doc, { ...options, lanes: pool }))).toEqual(view(await runComparison(doc, options)));
    expect(pool.idleCount()).toBe(2);
    pool.endIdle();
  }, 60_000);
});
