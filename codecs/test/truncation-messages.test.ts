import { describe, expect, it } from 'vitest';
import { decodeFrame } from '../index.js';

/**
 * Regression: the walk stack clamps counts to 2^31 - 1, and truncation messages used the
 * clamped count ("array is missing 2147483647 items" for a 4,294,967,295-item header).
 */
describe('truncation messages name the declared count', () => {
  it('CBOR array and map headers with 32-bit counts', () => {
    expect(decodeFrame(Uint8Array.from([0x9b, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]), { format: 'cbor' }).error?.message).toBe(
      'unexpected end of input: array is missing 4294967295 items at byte 9',
    );
    expect(decodeFrame(Uint8Array.from([0xba, 0xff, 0xff, 0xff, 0xff, 0x01, 0x02]), { format: 'cbor' }).error?.message).toBe(
      'unexpected end of input: map is missing 4294967294 entries at byte 7',
    );
  });

  it('MessagePack array32 / map32', () => {
    expect(decodeFrame(Uint8Array.from([0xdd, 0xff, 0xff, 0xff, 0xff, 0x01]), { format: 'msgpack' }).error?.message).toBe(
      'unexpected end of input: array is missing 4294967294 items at byte 6',
    );
    expect(decodeFrame(Uint8Array.from([0xdf, 0xff, 0xff, 0xff, 0xff]), { format: 'msgpack' }).error?.message).toBe('unexpected end of input: map is missing 4294967295 entries at byte 5');
  });

  it('small counts are unchanged', () => {
    expect(decodeFrame(Uint8Array.from([0x83, 0x01]), { format: 'cbor' }).error?.message).toBe('unexpected end of input: array is missing 2 items at byte 2');
  });
});
