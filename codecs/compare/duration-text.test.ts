import { describe, expect, it } from 'vitest';
import { durationText, msText } from './format.js';

// One rule for every printed time (the CLI's table, the inspector's Compare chart):
// µs below 1 ms, ms from 1 ms, three significant digits.
describe('durationText', () => {
  it('prints µs below 1 ms and ms from 1 ms', () => {
    expect([0.00085, 0.0199, 0.412, 0.999, 1, 5.02, 6.3, 9.95, 14, 140].map(durationText)).toEqual([
      '0.85 µs',
      '19.9 µs',
      '412 µs',
      '999 µs',
      '1.00 ms',
      '5.02 ms',
      '6.30 ms',
      '9.95 ms',
      '14.0 ms',
      '140 ms',
    ]);
  });

  it('is the median msText prints', () => {
    for (const ms of [0.0021, 0.85, 5.02, 12.34])
      expect(msText({ medianMs: ms, minMs: ms, maxMs: ms, runs: 1 } as never)).toBe(durationText(ms));
  });
});
