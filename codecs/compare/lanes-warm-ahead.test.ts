/**
 * Lanes warmed before the comparison is asked for (lanes.ts warmLanes, lane-pool.ts warm,
 * lane-protocol.ts 'warm'): the pool starts its lanes and warms each once on a sample of
 * the value; the comparison then takes those very lanes; a comparison asked for mid
 * warm-up stops it and never waits for it; rows are the single lane's in every case.
 */
import { describe, expect, it } from 'vitest';
import { isMeasured, runComparison, type Row } from './compare.js';
import { reusedLanes } from './lane-pool.js';
import { serveLane, type LaneReply } from './lane-protocol.js';
import { warmLanes, WARM_CODECS } from './lanes.js';
import { nodeLanes } from './node-lane.js';
import { scanValue } from './features.js';
import { packValue } from './lane-value.js';
import { generateDocument } from '../bench/generate.js';
import { fakeWorkers } from '../test/helpers/fake-lane-workers.js';

const options = { runs: 1, warmup: 0 } as const;
const doc = generateDocument(20_000);
const view = (rows: Row[]) =>
  rows.map((r) => (isMeasured(r) ? [r.codec, r.size, r.gzip, r.deflate, r.lossless] : [r.codec, r.unsupported]));

describe('warming lanes before a comparison', () => {
  it('starts the pool’s lanes, warms each once on the json-pack codecs; the comparison then takes them (no new worker)', async () => {
    const workers = fakeWorkers();
    const pool = { ...reusedLanes(workers.start, 2), minBytes: 0 };
    const report = await warmLanes(pool, doc);
    expect(report).toMatchObject({ started: 2, warmed: 2, interrupted: 0 });
    expect(workers.log.map((w) => w.requests)).toEqual([
      ['hold', 'warm'],
      ['hold', 'warm'],
    ]);
    expect(pool.idleCount()).toBe(2);
    // Warm already, the value held: nothing more to do.
    expect(await warmLanes(pool, doc)).toMatchObject({ started: 0, warmed: 0, interrupted: 0 });
    expect(workers.log.map((w) => w.requests)).toEqual([
      ['hold', 'warm'],
      ['hold', 'warm'],
    ]);
    // The comparison of the value held names it: nothing packed or cloned at the click.
    const rows = await runComparison(doc, { ...options, lanes: pool });
    expect(workers.log).toHaveLength(2);
    expect(view(rows)).toEqual(view(await runComparison(doc, options)));
    for (const w of workers.log) {
      expect(w.requests.slice(0, 3)).toEqual(['hold', 'warm', 'start-held']);
      expect(w.requests.at(-1)).toBe('release');
    }
    // A comparison warms its lanes too: the next warm only sends its value.
    const other = { other: [1, 2, 3] };
    expect(await warmLanes(pool, other)).toMatchObject({ started: 0, warmed: 0 });
    for (const w of workers.log) expect(w.requests.at(-1)).toBe('hold');
    expect(view(await runComparison(other, { ...options, lanes: pool }))).toEqual(
      view(await runComparison(other, options)),
    );
    // Another value than the one held: sent whole.
    await runComparison(doc, { ...options, lanes: pool });
    for (const w of workers.log) {
      expect(w.requests.filter((r) => r === 'warm')).toHaveLength(1);
      expect(w.requests.filter((r) => r === 'start-held')).toHaveLength(2);
      expect(w.requests.filter((r) => r === 'start')).toHaveLength(1);
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

  it('the worker side: warms on a sample of the value it holds, answers with its time, stopped or not; a start-held uses that value', async () => {
    const replies: LaneReply[] = [];
    const handle = serveLane((r) => replies.push(r));
    const f = scanValue(doc);
    handle({ type: 'warm', codecs: WARM_CODECS });
    await expect.poll(() => replies.length).toBe(1);
    expect(replies[0], 'nothing held: nothing to warm on').toMatchObject({ type: 'warmed', interrupted: true });
    handle({ type: 'hold', id: 7, packed: packValue(doc, f), features: f });
    handle({ type: 'warm', codecs: WARM_CODECS });
    await expect.poll(() => replies.length, { timeout: 20_000 }).toBe(2);
    expect(replies[1]).toMatchObject({ type: 'warmed', interrupted: false });
    handle({ type: 'warm', codecs: WARM_CODECS });
    handle({ type: 'start-held', held: 7, settings: { runs: 1, warmup: 0 }, codecs: ['json'] });
    handle({ type: 'measure', id: 0, codecs: ['json'], keep: [] });
    await expect.poll(() => replies.length).toBe(5);
    expect(replies.slice(2).map((r) => r.type)).toEqual(['warmed', 'row', 'done']);
    expect(replies[2]).toMatchObject({ interrupted: true });
    const row = (replies[3] as Extract<LaneReply, { type: 'row' }>).row;
    expect(view([row])).toEqual(view(await runComparison(doc, { ...options, codecs: ['json'] })));
    // Released: the held value is gone; a start-held for it says so.
    handle({ type: 'release' });
    handle({ type: 'start-held', held: 7, settings: { runs: 1, warmup: 0 }, codecs: ['json'] });
    handle({ type: 'measure', id: 1, codecs: ['json'], keep: [] });
    await expect.poll(() => replies.length).toBe(6);
    expect(replies[5]).toMatchObject({ type: 'error', id: 1, message: expect.stringMatching(/no longer holds/) });
  });

  it('worker threads: warmed, then a comparison on the same threads, rows as on one lane', async () => {
    const pool = { ...nodeLanes({ cores: 2 }), minBytes: 0 };
    const report = await warmLanes(pool, doc);
    expect(report).toMatchObject({ started: 2, warmed: 2, interrupted: 0 });
    expect(view(await runComparison(doc, { ...options, lanes: pool }))).toEqual(
      view(await runComparison(doc, options)),
    );
    expect(pool.idleCount()).toBe(2);
    pool.endIdle();
  }, 60_000);
});
