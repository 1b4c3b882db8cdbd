import { describe, expect, it } from 'vitest';
import { STABLE_MIN_MS, time } from './timing.js';

/**
 * The json-pack phase of a 1 MB comparison: under a budget, a large operation
 * stops adding runs once its figure is stable — two calls within 10 % — instead of
 * spending the budget on runs that only repeat it. Counted on a fake clock, never timed.
 */
const scripted = (costs: readonly number[], fallback: number) => {
  const fake = { t: 0, calls: 0 };
  const op = (): number => ((fake.t += costs[fake.calls] ?? fallback), ++fake.calls);
  return { fake, op, clock: () => fake.t };
};

describe('a budget stops a large operation once its figure is stable', () => {
  it('a warm 15 ms encode: two agreeing calls are the figure (was three calls)', () => {
    const { fake, op, clock } = scripted([], 15);
    const { timing } = time(op, { runs: 3, warmup: 1, budgetMs: 100, clock });
    expect(fake.calls).toBe(2);
    expect(timing.runs).toBe(2);
    expect(timing.medianMs).toBe(15);
  });

  it('a cold 40 ms first call, then 15 ms: the cold call is no sample, two warm ones are (was four calls)', () => {
    const { fake, op, clock } = scripted([40], 15);
    const { timing } = time(op, { runs: 3, warmup: 1, budgetMs: 100, clock });
    expect(fake.calls).toBe(3);
    expect(timing.runs).toBe(2);
    expect(timing.maxMs).toBe(15);
  });

  it('a 25 ms first call already at speed is a sample when the next one agrees (was four calls)', () => {
    const { fake, op, clock } = scripted([25], 24);
    const { timing } = time(op, { runs: 5, warmup: 1, budgetMs: 300, clock });
    expect(fake.calls).toBe(2);
    expect(timing.runs).toBe(2);
    expect(timing.minMs).toBe(24);
    expect(timing.maxMs).toBe(25);
  });

  it('a warm 6 ms encode: two agreeing calls end the warm-up too, without its 20 ms minimum (was five calls)', () => {
    const { fake, op, clock } = scripted([], 6);
    const { timing } = time(op, { runs: 3, warmup: 1, budgetMs: 100, clock });
    expect(fake.calls).toBe(2);
    expect(timing.runs).toBe(2);
    expect(timing.medianMs).toBe(6);
  });

  it('a cold 6 ms encode that speeds up: the calls before the speed settles are no samples', () => {
    const { fake, op, clock } = scripted([18, 9, 6], 6);
    const { timing } = time(op, { runs: 3, warmup: 1, budgetMs: 100, clock });
    expect(fake.calls).toBe(4);
    expect(timing.runs).toBe(2);
    expect(timing.maxMs).toBe(6);
  });

  it('a collection in one call does not hide that the two others agree (was five calls)', () => {
    // cold 40 ms, then 15, 30 (a young-generation collection inside), 15.5: the figure is known.
    const { fake, op, clock } = scripted([40, 15, 30, 15.5], 15.5);
    const { timing } = time(op, { runs: 5, warmup: 1, budgetMs: 300, clock });
    expect(fake.calls).toBe(4);
    expect(timing.runs).toBe(3);
    expect(timing.medianMs).toBe(15.5);
  });

  it('calls that keep disagreeing run on until the runs or the budget end', () => {
    const { fake, clock } = scripted([], 0);
    const costs = [30, 20, 25, 31, 39, 49];
    const noisy = (): number => ((fake.t += costs[fake.calls] ?? 20), ++fake.calls);
    const { timing } = time(noisy, { runs: 5, warmup: 1, budgetMs: 300, clock });
    // warm-up 30 (a call of WARMUP_MS or more), then 5 runs, each 25 % slower: never two alike
    expect(fake.calls).toBe(6);
    expect(timing.runs).toBe(5);
  });

  it('without a budget every run asked is made', () => {
    const { fake, op, clock } = scripted([], 15);
    const { timing } = time(op, { runs: 5, warmup: 1, clock });
    expect(timing.runs).toBe(5);
    expect(fake.calls).toBeGreaterThanOrEqual(5);
  });

  it(`operations under ${STABLE_MIN_MS} ms a call keep every run asked (small values: cheap runs, a steadier median)`, () => {
    const { op, clock } = scripted([], STABLE_MIN_MS / 2);
    const { timing } = time(op, { runs: 5, warmup: 1, budgetMs: 100, clock });
    expect(timing.runs).toBe(5);
  });
});
