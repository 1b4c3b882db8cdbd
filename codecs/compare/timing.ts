/**
 * Timing of one operation: `warmup` untimed calls (and at least WARMUP_MS of them), then `runs` timed ones, summarized as
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
  /**
   * Milliseconds from some origin (default `performance.now`). Node callers on a busy
   * machine can pass CPU time (`process.cpuUsage`), which other processes do not inflate.
   */
  readonly clock?: () => number;
}

export function summarize(samples: readonly number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  const n = sorted.length;
  const median = n === 0 ? NaN : n & 1 ? sorted[n >> 1] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  return {
    runs: n,
    medianMs: median,
    minMs: sorted[0] ?? NaN,
    maxMs: sorted[n - 1] ?? NaN,
    opsPerSec: median > 0 ? 1000 / median : n ? Infinity : NaN,
  };
}

/** Times `op`; returns the timing and the last result (the warm-up's when no run is made). */
export function time<T>(op: () => T, options: TimingOptions): { timing: Timing; result: T } {
  const now = options.clock ?? defaultClock;
  let result!: T;
  let have = false;
  let warmMs = 0;
  // Samples taken during the warm-up (see below) and the time the whole operation used.
  const samples: number[] = [];
  let spent = 0;
  // A single warm-up call long enough to end the warm-up: a sample too if the first run agrees.
  let warmCall: number | undefined;
  // Every call below first lets go of the previous call's result (`result = undefined`):
  // held while the next call ran, a decoded 1 MB tree stayed live beside the one being
  // built, V8's young-generation collections copied and promoted it, and json-pack's 1 MB
  // decodes read 12–18 ms where the decoder alone takes ~5 ms
  // (compare-timing-retention.test.ts). Only the last call's result is returned.
  // Warm up until the speed settles, not for a count: one call leaves a cold JIT (the
  // first codec of a comparison read 33,405 ops/s against 359,879 for an identical twin
  // measured second), and on a busy machine V8's optimizing compiler, which runs on a
  // background thread, may need far longer than a fixed number of calls. Batches of calls
  // run until one is no faster than the best before it, at least WARMUP_MS and at most
  // MAX_WARMUP_MS (or the budget); a single call of WARMUP_MS or more is warm-up enough.
  if (options.warmup > 0) {
    const warmStart = now();
    let best = Infinity;
    let previous = Infinity;
    let batch = Math.max(1, options.warmup);
    for (;;) {
      if (options.signal?.aborted) break;
      const t0 = now();
      for (let r = 0; r < batch; r++) {
        result = undefined as T;
        result = op();
      }
      const dt = now() - t0;
      have = true;
      warmMs = dt / batch;
      if (options.budgetMs !== undefined && batch === 1 && dt >= options.budgetMs) {
        // A call this long is the whole budget. When it is LONG_CALL_BUDGETS budgets or more,
        // it is the only sample: a JIT tiers up inside so long a call, its warm-up is a small
        // part of it. A shorter one may be slow for being first (a cold JIT, a heap still
        // growing: a fresh page's first 1 MB decode read 7.5 ops/s where later ones read 211):
        // one more call, and the figure is the faster, or both when they agree.
        if (dt >= LONG_CALL_BUDGETS * options.budgetMs || options.signal?.aborted)
          return { timing: summarize([dt]), result };
        const t1 = now();
        result = undefined as T;
        result = op();
        const again = now() - t1;
        return { timing: summarize(agree(dt, again) ? [dt, again] : [Math.min(dt, again)]), result };
      }
      const elapsed = now() - warmStart;
      if (
        warmMs >= WARMUP_MS ||
        elapsed >= MAX_WARMUP_MS ||
        (options.budgetMs !== undefined && elapsed >= options.budgetMs)
      ) {
        spent = elapsed;
        if (batch === 1) warmCall = warmMs;
        break;
      }
      const settled = warmMs >= best * 0.9;
      best = Math.min(best, warmMs);
      // Under a budget, two long calls in a row that agree are settled without WARMUP_MS
      // more: a call of STABLE_MIN_MS on a large value already runs the encoder's loops
      // tens of thousands of times, which is what tiers the JIT up.
      const longPairAgrees =
        options.budgetMs !== undefined && batch === 1 && warmMs >= STABLE_MIN_MS && agree(previous, warmMs);
      if (settled && (elapsed >= WARMUP_MS || longPairAgrees)) {
        spent = elapsed;
        // Single calls that ran at the settled speed already are samples, not warm-up:
        // this one, and the one before it when it was no slower (by the same 10 %). A
        // 1 MB encode then costs the runs asked for plus one cold call, not a warm-up,
        // a calibration call and every run again.
        if (batch === 1 && warmMs >= MIN_SAMPLE_MS) {
          if (previous <= warmMs / 0.9) samples.push(previous);
          samples.push(warmMs);
        }
        break;
      }
      previous = batch === 1 ? warmMs : Infinity;
      // Batches of about a millisecond once the clock can see them.
      batch = dt < 1 ? Math.min(MAX_REPS, batch * 2) : batch;
    }
  }
  // Browsers clamp now() (Chromium to 0.1 ms, Firefox up to 1 ms without
  // cross-origin isolation): a 1 µs encode would read as 0 and show no speed at all. Each
  // sample therefore repeats the operation until it spans MIN_SAMPLE_MS, then divides.
  // A long warm-up (a large value) needs no calibration calls; a short one may be a pause
  // (GC, a busy core) around a fast operation, so only a long one, or settled calls of
  // MIN_SAMPLE_MS or more kept as samples, are trusted.
  let reps = warmMs >= 10 * MIN_SAMPLE_MS || samples.length > 0 ? 1 : calibrate(op, options);
  let recalibrations = 0;
  const runs = Math.max(1, options.runs);
  // The budget is the operation's: its warm-up counts (a 30 ms decode under a 100 ms
  // budget gets one warm-up call and three runs, not four). Under a budget, a large
  // operation also stops once its figure is stable (see stableUnderBudget).
  const budgeted = options.budgetMs !== undefined;
  while (samples.length < runs) {
    if (budgeted && reps === 1 && stableUnderBudget(samples)) break;
    if (samples.length > 0 && (options.signal?.aborted || (budgeted && spent >= options.budgetMs!))) break;
    const t0 = now();
    for (let r = 0; r < reps; r++) {
      result = undefined as T;
      result = op();
    }
    const dt = now() - t0;
    spent += dt;
    have = true;
    // A sample shorter than MIN_SAMPLE_MS: the repetitions were chosen from a reading that a
    // pause inflated (a busy core during calibration or warm-up). On a clamped clock such a
    // sample may read 0 ms, an infinite speed (seen in CI under load). Choose again and drop
    // it, a few times at most.
    if (dt < MIN_SAMPLE_MS && reps < MAX_REPS && recalibrations < MAX_RECALIBRATIONS) {
      recalibrations++;
      reps = calibrate(op, options);
      continue;
    }
    samples.push(dt / reps);
    // The long warm-up call ran at the speed the first run found: it was warm already.
    if (
      budgeted &&
      samples.length === 1 &&
      samples.length < runs &&
      warmCall !== undefined &&
      reps === 1 &&
      agree(warmCall, samples[0])
    )
      samples.unshift(warmCall);
  }
  if (!have) result = op();
  return { timing: summarize(samples), result };
}

/**
 * A first call of this many time budgets or more is an operation's only sample (see `time`).
 * 3 made json-joy's 200–300 ms calls on a 1 MB value take a second call too: the whole 1 MB
 * comparison read 1.07x and 1.22x json-joy's floor in wall time against 0.97x and 1.05x with 2
 * (quiet, 2026-11-28 07:59–08:00, bench-1mb.ts).
 */
export const LONG_CALL_BUDGETS = 2;

/** Warm-up spans at least this long (when `warmup` > 0), and at most MAX_WARMUP_MS. */
export const WARMUP_MS = 20;
export const MAX_WARMUP_MS = 300;

/**
 * Under a budget, an operation whose calls take this long or more stops adding runs once
 * two of its calls agree within 10 %: on a 1 MB value every further encode
 * or decode repeats a figure already known and costs as much as a small value's whole
 * comparison (json-pack's 1 MB encodes take 4–6 ms a call here, its decodes 10–30 ms).
 * Shorter operations, timed in calibrated batches, keep every run asked (runs are cheap, a
 * median of more steadier), and so does anything timed without a budget. Defined below.
 */

const agree = (a: number, b: number): boolean => Math.min(a, b) >= 0.9 * Math.max(a, b);

/**
 * Two samples (of calls STABLE_MIN_MS or longer) agree: not only the last two, since a
 * young-generation collection inside one 1 MB decode makes that call 4–5x slower and would
 * otherwise keep two agreeing calls from counting.
 */
function stableUnderBudget(samples: readonly number[]): boolean {
  const last = samples[samples.length - 1];
  if (samples.length < 2 || last < STABLE_MIN_MS) return false;
  for (let i = 0; i < samples.length - 1; i++) if (samples[i] >= STABLE_MIN_MS && agree(samples[i], last)) return true;
  return false;
}

/** A sample spans at least this long, so clamped clocks still resolve it (see `time`). */
export const MIN_SAMPLE_MS = 2;
/** See above: calls this long are samples on their own, and two that agree are a figure. */
export const STABLE_MIN_MS = MIN_SAMPLE_MS;
const MAX_REPS = 1 << 20;
/** Samples found too short (see `time`) are re-calibrated at most this many times. */
const MAX_RECALIBRATIONS = 3;

/** Repetitions per sample: 1 for operations that take MIN_SAMPLE_MS or more. */
function calibrate(op: () => unknown, options: TimingOptions): number {
  const now = options.clock ?? defaultClock;
  let reps = 1;
  for (;;) {
    if (options.signal?.aborted) return reps;
    const t0 = now();
    for (let r = 0; r < reps; r++) op();
    const dt = now() - t0;
    if (dt >= MIN_SAMPLE_MS || reps >= MAX_REPS) return reps;
    // Grow towards the target; a clock that read 0 gives no estimate, so grow by 10.
    reps = Math.min(MAX_REPS, dt > 0 ? Math.max(reps * 2, Math.ceil((reps * MIN_SAMPLE_MS * 1.25) / dt)) : reps * 10);
  }
}

const defaultClock = (): number => performance.now();

/** CPU time of this process in ms (Node): what a benchmark or test on a shared machine should time. */
export const cpuClock = (): number => {
  const u = (globalThis as { process?: { cpuUsage(): { user: number; system: number } } }).process!.cpuUsage();
  return (u.user + u.system) / 1000;
};
