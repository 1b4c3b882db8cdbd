import { describe, expect, test } from 'vitest';
import { toBase64 } from '../base64.js';

describe('base64', () => {
  test('matches Buffer for every length 0..300 and a 1 MB buffer, with and without the native encoder', () => {
    for (let n = 0; n <= 300; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 0xff);
      const expected = Buffer.from(bytes).toString('base64');
      expect(toBase64(bytes, false)).toBe(expected);
      expect(toBase64(bytes)).toBe(expected);
    }
    const big = Uint8Array.from({ length: 1 << 20 }, (_, i) => (i * 7919) & 0xff);
    expect(toBase64(big.subarray(5), false)).toBe(Buffer.from(big.subarray(5)).toString('base64'));
  });
});
