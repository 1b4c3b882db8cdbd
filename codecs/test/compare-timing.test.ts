import { afterEach, describe, expect, it, vi } from 'vitest';
import { MIN_SAMPLE_MS, time } from '../compare/timing.js';

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
