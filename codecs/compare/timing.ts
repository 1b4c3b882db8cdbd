/**
 * Timing of one operation: `warmup` untimed calls, then `runs` timed ones, summarized as
 * median / min / max and operations per second (1000 / median ms). `performance.now()`
 * exists in Node, Workers and pages. The signal is checked between runs.
 */
export interface Timing {
  /** Timed runs actually made (fewer than asked when a time budget or abort cut them short). */
  readonly runs: number;
  readonly medianMs: number;
  readonly minMs: number;
  readonly maxMs: number;
  /** 1000 / medianMs (Infinity when the median is below the clock's resolution). */
  readonly opsPerSec: number;
}

export interface TimingOptions {
  readonly runs: number;
  readonly warmup: number;
  /**
   * Stop adding runs once this much time went into them (at least one run is made). A
   * warm-up that alone takes this long is kept as the only sample.
   */
  readonly budgetMs?: number;
  readonly signal?: AbortSignal;
}

export function summarize(samples: readonly number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  const n = sorted.length;
  const median = n === 0 ? NaN : n & 1 ? sorted[n >> 1] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  return { runs: n, medianMs: median, minMs: sorted[0] ?? NaN, maxMs: sorted[n - 1] ?? NaN, opsPerSec: median > 0 ? 1000 / median : n ? Infinity : NaN };
}

/** Times `op`; returns the timing and the last result (the warm-up's when no run is made). */
export function time<T>(op: () => T, options: TimingOptions): { timing: Timing; result: T } {
  let result!: T;
  let have = false;
  for (let i = 0; i < options.warmup; i++) {
    if (options.signal?.aborted) break;
    const t0 = performance.now();
    result = op();
    const dt = performance.now() - t0;
    have = true;
    if (options.budgetMs !== undefined && dt >= options.budgetMs) return { timing: summarize([dt]), result };
  }
  const samples: number[] = [];
  let spent = 0;
  const runs = Math.max(1, options.runs);
  for (let i = 0; i < runs; i++) {
    if (i > 0 && (options.signal?.aborted || (options.budgetMs !== undefined && spent >= options.budgetMs))) break;
    const t0 = performance.now();
    result = op();
    const dt = performance.now() - t0;
    spent += dt;
    samples.push(dt);
    have = true;
  }
  if (!have) result = op();
  return { timing: summarize(samples), result };
}
