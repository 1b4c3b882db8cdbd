/**
 * The calling thread as one of the lanes (lanes.ts, `LanePool.here`): a fresh comparison
 * of a large value started one worker per lane, and each paid a worker start (~200–400 ms
 * wall on a loaded 2-core machine) and a clone of the value before its first row. With
 * `here`, the thread that holds the value measures codecs from the same queue at once and
 * only `count - 1` workers are opened; rows are the same as on one lane, in codec order.
 */
import { describe, expect, it } from 'vitest';
import { CODECS } from '../compare/codecs.js';
import { isMeasured, runComparison, type Row } from '../compare/compare.js';
import type { LanePool } from '../compare/lanes.js';
import { inProcessLane, type Lane, type OpenLane } from '../compare/lane.js';
import { generateDocument } from '../bench/generate.js';

const options = { runs: 1, warmup: 0 } as const;
const comparable = (row: Row): unknown =>
  isMeasured(row)
    ? {
        codec: row.codec,
        size: row.size,
        parts: row.parts,
        gzip: row.gzip,
        deflate: row.deflate,
        lossless: row.lossless,
        lost: row.lost,
      }
    : { codec: row.codec, unsupported: row.unsupported };

/** Opens in-process lanes and records what each was asked to measure. */
function recording(): { open: OpenLane; asked: string[][] } {
  const asked: string[][] = [];
  const open: OpenLane = (start) => {
    const lane = inProcessLane(start);
    const mine: string[] = [];
    asked.push(mine);
    return { ...lane, measure: (codecs, o) => (mine.push(...codecs), lane.measure(codecs, o)) };
  };
  return { open, asked };
}

describe('the calling thread as a lane', () => {
  const value = generateDocument(20_000);

  it('opens one worker fewer and measures codecs itself, with the same rows in codec order', async () => {
    const single = await runComparison(value, options);
    const { open, asked } = recording();
    const pool: LanePool = { open, count: 2, minBytes: 0, here: true };
    const rows = await runComparison(value, { ...options, lanes: pool });
    expect(asked).toHaveLength(1);
    // The worker lane did not measure everything: the calling thread took the rest.
    expect(asked[0].length).toBeGreaterThan(0);
    expect(asked[0].length).toBeLessThan(CODECS.length);
    expect(rows.map((r) => r.codec)).toEqual(CODECS.map((c) => c.name));
    expect(rows.map(comparable)).toEqual(single.map(comparable));
  });

  it('keeps measuring on the calling thread when the only worker lane fails', async () => {
    const failing: OpenLane = (): Lane => ({
      // biome-ignore lint/correctness/useYield: a lane that ends without a row
      async *measure() {
        throw new Error('worker gone');
      },
      terminate: () => undefined,
    });
    const rows = await runComparison(value, {
      ...options,
      lanes: { open: failing, count: 2, minBytes: 0, here: true },
    });
    expect(rows.map((r) => r.codec)).toEqual(CODECS.map((c) => c.name));
    const failed = rows.filter((r) => !isMeasured(r) && r.unsupported.includes('worker gone'));
    expect(failed).toHaveLength(1);
    expect(rows.filter(isMeasured).length).toBeGreaterThan(CODECS.length - 3);
  });

  it('stops the calling thread too when the comparison is aborted', async () => {
    const controller = new AbortController();
    const { open } = recording();
    const rows: Row[] = [];
    for await (const row of (await import('../compare/compare.js')).compareValue(value, {
      ...options,
      signal: controller.signal,
      lanes: { open, count: 2, minBytes: 0, here: true },
    })) {
      rows.push(row);
      controller.abort();
    }
    expect(rows).toHaveLength(1);
  });
});

describe('the calling thread between the phases', () => {
  it('starts no json-joy codec while another lane still measures a json-pack one (its rows would wait behind it)', async () => {
    // A worker lane that answers its json-pack codecs late, as a fresh worker does.
    const slow: OpenLane = (start) => {
      const lane = inProcessLane(start);
      return {
        ...lane,
        async *measure(codecs, o) {
          if (codecs.some((name) => CODECS.find((c) => c.name === name)!.family !== 'json-joy'))
            await new Promise((r) => setTimeout(r, 400));
          yield* lane.measure(codecs, o);
        },
      };
    };
    const phases: string[] = [];
    const rows = await runComparison(generateDocument(2_000), {
      ...options,
      lanes: { open: slow, count: 2, minBytes: 0, here: true },
      onProgress: (p) => phases.push(p.phase),
    });
    expect(rows.map((r) => r.codec)).toEqual(CODECS.map((c) => c.name));
    const lastJsonPack = phases.lastIndexOf('json-pack');
    expect(phases.indexOf('json-joy')).toBeGreaterThan(lastJsonPack);
  });
});
