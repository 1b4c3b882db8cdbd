import { describe, expect, it } from 'vitest';
import { fitRows, hexWidthPx, rowsForWidth } from './hexFormat';

const CH = 6.6;

describe('hex pane sizing', () => {
  it('16 bytes and their ASCII fit the width it asks for', () => {
    // 8 + 2 offset, 16 × 3 + 1 + 1 bytes, 16 ASCII = 76 characters.
    expect(hexWidthPx(16, 8, CH)).toBe(Math.ceil(76 * CH + 29));
    expect(hexWidthPx(8, 8, CH)).toBeLessThan(hexWidthPx(16, 8, CH));
  });

  it('keeps 16 per row while the tree keeps its minimum, else falls back to 8', () => {
    const w16 = hexWidthPx(16, 8, CH);
    expect(fitRows(16, w16 + 400, 360, 8, CH)).toBe(16);
    expect(fitRows(16, w16 + 300, 360, 8, CH)).toBe(8);
    expect(fitRows(32, hexWidthPx(32, 8, CH) + 360, 360, 8, CH)).toBe(32);
    expect(fitRows(32, w16 + 400, 360, 8, CH)).toBe(16);
    expect(fitRows(8, 100, 360, 8, CH)).toBe(8);
  });

  it('a splitter drag snaps to the nearest whole-row width', () => {
    expect(rowsForWidth(hexWidthPx(16, 8, CH) + 20, 8, CH)).toBe(16);
    expect(rowsForWidth(hexWidthPx(8, 8, CH) - 50, 8, CH)).toBe(8);
    expect(rowsForWidth(2000, 8, CH)).toBe(32);
  });
});
