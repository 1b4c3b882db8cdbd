import { describe, expect, it } from 'vitest';
import { belowHeightPx, resolvePlacement } from './hex-placement.js';

describe('where the hex goes', () => {
  it("auto: below the tree when beside it would leave the tree's values too little width", () => {
    // 1440×900 with the list open: the detail's structure pane is about 875 × 730.
    expect(resolvePlacement('auto', { width: 875, height: 730 }, 319)).toBe('below');
    // A wide window: beside.
    expect(resolvePlacement('auto', { width: 1400, height: 730 }, 319)).toBe('beside');
    // 900×700 stacked: too short to stack, beside.
    expect(resolvePlacement('auto', { width: 900, height: 330 }, 319)).toBe('beside');
  });

  it('a chosen placement is kept whatever the size', () => {
    expect(resolvePlacement('beside', { width: 875, height: 730 }, 319)).toBe('beside');
    expect(resolvePlacement('below', { width: 1400, height: 330 }, 319)).toBe('below');
  });

  it('below: as tall as its rows, capped at under half the pane, never under three rows', () => {
    expect(belowHeightPx(284, 16, 730)).toBe(24 + 18 * 16);
    expect(belowHeightPx(100_000, 16, 730)).toBe(Math.floor(730 * 0.45));
    expect(belowHeightPx(100_000, 16, 100)).toBe(24 + 3 * 16);
    expect(belowHeightPx(0, 16, 730)).toBe(24 + 16);
  });
});
