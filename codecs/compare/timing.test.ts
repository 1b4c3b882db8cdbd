import { afterEach, describe, expect, it, vi } from 'vitest';
import { MIN_SAMPLE_MS, time } from './timing.js';

afterEach(() => vi.restoreAllMocks());

/**
 * Regression: browsers clamp performance.now() (0.1 ms in Chromium, up to 1 ms in Firefox
 * without cross-origin isolation). Timing each call alone read a 1 µs encode as 0 ms, so
 * the Compare tab showed no speed for any small frame.
 */
describe('timing under a coarse clock', () => {
  it('a sub-resolution operation still gets a finite speed', () => {
    const real = performance.now.bind(performance);
    vi.spyOn(performance, 'now').mockImplementation(() => Math.floor(real()));
    let x = 0;
    const { timing } = time(() => (x = (x + 1) | 0), { runs: 3, warmup: 1 });
    expect(timing.runs).toBe(3);
    expect(Number.isFinite(timing.opsPerSec)).toBe(true);
    expect(timing.medianMs).toBeGreaterThan(0);
    expect(timing.medianMs).toBeLessThan(MIN_SAMPLE_MS);
  });

  it('a pause during calibration does not leave samples too short to read (an infinite speed)', () => {
    // A virtual 1 µs operation on a clock clamped to 1 ms; the core is taken away for 3 ms
    // during the second calibration batch, so 10 repetitions look like a full sample. Those
    // 10 µs samples read 0 ms on the clamped clock: the speed came out infinite (seen in CI
    // under load, with the real clock).
    let virtualMs = 0;
    let calls = 0;
    const op = () => {
      virtualMs += 0.001;
      if (++calls === 2) virtualMs += 3;
    };
    const { timing } = time(op, { runs: 3, warmup: 0, clock: () => Math.floor(virtualMs) });
    expect(timing.runs).toBe(3);
    expect(Number.isFinite(timing.opsPerSec)).toBe(true);
    expect(timing.medianMs).toBeGreaterThan(0.0005);
    expect(timing.medianMs).toBeLessThan(0.002);
  });

  it('a slow operation runs once per sample', () => {
    let calls = 0;
    const { timing } = time(
      () => {
        calls++;
        const end = performance.now() + MIN_SAMPLE_MS + 1;
        while (performance.now() < end);
      },
      { runs: 2, warmup: 0 },
    );
    expect(timing.runs).toBe(2);
    expect(calls).toBe(3); // one calibration call, then one per sample
  });
});
