import { describe, expect, it } from 'vitest';
import { compareValue, type CompareProgress } from './compare.js';
import { time } from './timing.js';

/**
 * Bounded rather than timed (the figures are in `npx tsx codecs/compare/bench/bench-1mb.ts`
 * and docs/BENCHMARKS.md): json-pack's rows come first and say so in the progress, the
 * json-joy rows after; a budget bounds the calls an operation gets; a cancel stops the run.
 */
describe('the 1 MB budget lines, bounded', () => {
  it('json-pack / JSON rows come first, then json-joy rows, with the phase in the progress', async () => {
    const phases: CompareProgress['phase'][] = [];
    const families: string[] = [];
    for await (const row of compareValue(
      { a: [1, 2, 3], b: 'x' },
      { runs: 1, onProgress: (p) => phases.push(p.phase) },
    ))
      families.push(row.family);
    const firstJoy = families.indexOf('json-joy');
    expect(firstJoy).toBeGreaterThan(0);
    expect(families.slice(firstJoy).every((f) => f === 'json-joy')).toBe(true);
    expect(phases.slice(0, firstJoy).every((p) => p === 'json-pack')).toBe(true);
    expect(phases.slice(firstJoy).every((p) => p === 'json-joy')).toBe(true);
  });

  it('an operation of LONG_CALL_BUDGETS budgets or more runs once: its warm-up call is the sample', () => {
    let calls = 0;
    const fake = { t: 0 };
    const clock = () => fake.t;
    const { timing } = time(() => ((fake.t += 130), calls++), { runs: 5, warmup: 1, budgetMs: 40, clock });
    expect(calls).toBe(1);
    expect(timing.runs).toBe(1);
    expect(timing.medianMs).toBe(130);
  });

  it('a first call over the budget but under LONG_CALL_BUDGETS budgets gets one more call: a slow cold call is not the figure', () => {
    // A user's fresh page: a 1 MB decode's first call took 133 ms where warm ones take ~5.
    const fake = { t: 0 };
    let calls = 0;
    const cold = time(() => ((fake.t += calls++ === 0 ? 75 : 45), calls), {
      runs: 5,
      warmup: 1,
      budgetMs: 40,
      clock: () => fake.t,
    });
    expect(calls).toBe(2);
    expect(cold.timing).toMatchObject({ runs: 1, medianMs: 45 });
    // Two calls that agree are both samples.
    calls = 0;
    const steady = time(() => ((fake.t += calls++ === 0 ? 50 : 48), calls), {
      runs: 5,
      warmup: 1,
      budgetMs: 40,
      clock: () => fake.t,
    });
    expect(calls).toBe(2);
    expect(steady.timing).toMatchObject({ runs: 2, medianMs: 49 });
  });

  it('a budget bounds the timed calls of a slow operation (no calibration, runs stop at the budget)', () => {
    let calls = 0;
    const fake = { t: 0 };
    // 30 and 36 ms in turn: never two calls within 10 %, so no stable stop (compare-stable-stop.test.ts).
    const { timing } = time(() => ((fake.t += calls % 2 ? 36 : 30), calls++), {
      runs: 10,
      warmup: 1,
      budgetMs: 100,
      clock: () => fake.t,
    });
    // warm-up 1 call (30 ms: at WARMUP_MS or more, enough), then runs until 100 ms went into
    // the operation, its warm-up included (the budget is per operation): 36 + 30 + 36
    expect(calls).toBe(4);
    expect(timing.runs).toBe(3);
  });

  it('warm-up calls that ran at the settled speed are samples, and they need no calibration call', () => {
    // A 1 MB encode of ~8 ms: the first call cold (16 ms), then 8 ms a call. Before, the
    // settled warm-up calls were thrown away, a calibration call followed, then every run:
    // 2 + 1 + 3 = 6 calls; now the two warm calls that agree are the first two samples, and
    // under the budget they are a stable figure already (compare-stable-stop.test.ts): 3.
    const fake = { t: 0 };
    let calls = 0;
    const { timing } = time(() => ((fake.t += calls++ === 0 ? 16 : 8), calls), {
      runs: 3,
      warmup: 1,
      budgetMs: 100,
      clock: () => fake.t,
    });
    expect(timing.runs).toBe(2);
    expect(timing.medianMs).toBe(8);
    expect(calls).toBe(3);
    // Without a budget the same operation gets every run asked: the two settled calls and one more.
    const free = { t: 0, calls: 0 };
    const unbudgeted = time(() => ((free.t += free.calls++ === 0 ? 16 : 8), free.calls), {
      runs: 3,
      warmup: 1,
      clock: () => free.t,
    });
    expect(unbudgeted.timing.runs).toBe(3);
    expect(free.calls).toBe(4);
  });

  it('the cold first call is never a sample while the speed still changes', () => {
    const fake = { t: 0 };
    const costs = [12, 9, 6, 3, 3, 3, 3, 3, 3, 3, 3, 3];
    let calls = 0;
    const { timing } = time(() => ((fake.t += costs[calls++] ?? 3), calls), {
      runs: 3,
      warmup: 1,
      clock: () => fake.t,
    });
    expect(timing.maxMs).toBe(3);
    expect(timing.runs).toBe(3);
  });

  it('a cancel between codecs stops the run with the rows so far', async () => {
    const controller = new AbortController();
    const rows: string[] = [];
    for await (const row of compareValue({ a: 1 }, { runs: 1, signal: controller.signal })) {
      rows.push(row.codec);
      if (rows.length === 2) controller.abort();
    }
    expect(rows).toHaveLength(2);
  });
});
