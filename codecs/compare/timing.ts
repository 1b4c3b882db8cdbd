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
  let warmMs = 0;
  for (let i = 0; i < options.warmup; i++) {
    if (options.signal?.aborted) break;
    const t0 = performance.now();
    result = op();
    const dt = performance.now() - t0;
    warmMs = dt;
    have = true;
    if (options.budgetMs !== undefined && dt >= options.budgetMs) return { timing: summarize([dt]), result };
  }
  // Browsers clamp performance.now() (Chromium to 0.1 ms, Firefox up to 1 ms without
  // cross-origin isolation): a 1 µs encode would read as 0 and show no speed at all. Each
  // sample therefore repeats the operation until it spans MIN_SAMPLE_MS, then divides.
  // A long warm-up (a large value) needs no calibration calls; a short one may be a pause
  // (GC, a busy core) around a fast operation, so only a long one is trusted.
  const reps = warmMs >= 10 * MIN_SAMPLE_MS ? 1 : calibrate(op, options);
  const samples: number[] = [];
  let spent = 0;
  const runs = Math.max(1, options.runs);
  for (let i = 0; i < runs; i++) {
    if (i > 0 && (options.signal?.aborted || (options.budgetMs !== undefined && spent >= options.budgetMs))) break;
    const t0 = performance.now();
    for (let r = 0; r < reps; r++) result = op();
    const dt = performance.now() - t0;
    spent += dt;
    samples.push(dt / reps);
    have = true;
  }
  if (!have) result = op();
  return { timing: summarize(samples), result };
}

/** A sample spans at least this long, so clamped clocks still resolve it (see `time`). */
export const MIN_SAMPLE_MS = 2;
const MAX_REPS = 1 << 20;

/** Repetitions per sample: 1 for operations that take MIN_SAMPLE_MS or more. */
function calibrate(op: () => unknown, options: TimingOptions): number {
  let reps = 1;
  for (;;) {
    if (options.signal?.aborted) return reps;
    const t0 = performance.now();
    for (let r = 0; r < reps; r++) op();
    const dt = performance.now() - t0;
    if (dt >= MIN_SAMPLE_MS || reps >= MAX_REPS) return reps;
    // Grow towards the target; a clock that read 0 gives no estimate, so grow by 10.
    reps = Math.min(MAX_REPS, dt > 0 ? Math.max(reps * 2, Math.ceil((reps * MIN_SAMPLE_MS * 1.25) / dt)) : reps * 10);
  }
}
