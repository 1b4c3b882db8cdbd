import { describe, expect, it } from 'vitest';
import { decodeFrame } from './index.js';

/**
 * Regression: the walk stack clamps counts to 2^31 - 1, and truncation messages printed the
 * clamped count as the count ("array is missing 2147483647 items" for a 4,294,967,295-item
 * header; "map is missing 1073741824 entries" for 4,294,967,295 entries). A clamped count is
 * now a lower bound ("at least"), the same whether the container was recorded or skipped.
 */
describe('truncation messages never state a clamped count as the count', () => {
  it('CBOR array and map headers with 32-bit counts', () => {
    expect(
      decodeFrame(Uint8Array.from([0x9b, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]), { format: 'cbor' }).error?.message,
    ).toBe('unexpected end of input: array is missing at least 2,147,483,647 items at byte 9');
    expect(
      decodeFrame(Uint8Array.from([0xba, 0xff, 0xff, 0xff, 0xff, 0x01, 0x02]), { format: 'cbor' }).error?.message,
    ).toBe('unexpected end of input: map is missing at least 1,073,741,823 entries at byte 7');
  });

  it('MessagePack array32 / map32', () => {
    expect(
      decodeFrame(Uint8Array.from([0xdd, 0xff, 0xff, 0xff, 0xff, 0x01]), { format: 'msgpack' }).error?.message,
    ).toBe('unexpected end of input: array is missing at least 2,147,483,646 items at byte 6');
    expect(decodeFrame(Uint8Array.from([0xdf, 0xff, 0xff, 0xff, 0xff]), { format: 'msgpack' }).error?.message).toBe(
      'unexpected end of input: map is missing at least 1,073,741,824 entries at byte 5',
    );
  });

  it('a skipped (depth-limited) container says the same as a recorded one', () => {
    const bytes = Uint8Array.from([0x81, 0x9b, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]);
    expect(decodeFrame(bytes, { format: 'cbor', depth: 0 }).error?.message).toBe(
      decodeFrame(bytes, { format: 'cbor' }).error?.message,
    );
  });

  it('small counts are unchanged', () => {
    expect(decodeFrame(Uint8Array.from([0x83, 0x01]), { format: 'cbor' }).error?.message).toBe(
      'unexpected end of input: array is missing 2 items at byte 2',
    );
  });
});
