/**
 * The benches' calling thread as one of the lanes (withCallingThread): the thread that holds
 * the value measures codecs from the same queue and only `count - 1` of the pool's lanes are
 * opened; rows are the same as on one lane, in codec order.
 */
import { describe, expect, it } from 'vitest';
import { CODECS } from '../codecs.js';
import { compareValue, isMeasured, runComparison, type Row } from '../compare.js';
import { inProcessLane, type Lane, type OpenLane } from '../lane.js';
import { generateDocument } from '../../bench/generate.js';
import { withCallingThread } from './calling-thread-lanes.js';
import { comparable } from '../../test/helpers/comparable-row.js';

const options = { runs: 1, warmup: 0 } as const;
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
    const pool = withCallingThread({ open, count: 2, minBytes: 0 });
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
      lanes: withCallingThread({ open: failing, count: 2, minBytes: 0 }),
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
    for await (const row of compareValue(value, {
      ...options,
      signal: controller.signal,
      lanes: withCallingThread({ open, count: 2, minBytes: 0 }),
    })) {
      rows.push(row);
      controller.abort();
    }
    expect(rows).toHaveLength(1);
  });
});
