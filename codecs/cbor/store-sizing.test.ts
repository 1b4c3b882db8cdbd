import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { SpanStore } from '../core/span-store.js';
import { indexCbor } from './index.js';
import { shapeValues } from '../bench/shapes.js';
import { hex } from '../test/helpers/cbor.js';

/**
 * A full CBOR index is sized from a count of the frame's heads: it never grows while the
 * frame is walked (growing copies every node into fresh memory) and holds no unused slot.
 */
describe('full CBOR index store sizing', () => {
  afterEach(() => vi.restoreAllMocks());
  const encoder = new CborEncoder();

  function expectSized(bytes: Uint8Array, what: string): void {
    const grow = vi.spyOn(SpanStore.prototype, 'grow');
    const index = indexCbor(bytes);
    expect(grow, what).not.toHaveBeenCalled();
    grow.mockRestore();
    expect(index.error, what).toBeNull();
    expect(index.store.capacity, what).toBeLessThanOrEqual(Math.max(index.store.size + 1, 4));
  }

  it('the benchmark shapes, 100 B to 64 KB', () => {
    for (const { shape, target, value } of shapeValues(13, undefined, [8 << 10, 64 << 10]))
      expectSized(encoder.encode(value).slice(), `${shape.id} ${target}`);
  });

  it('arbitrary JSON values, tags, indefinite lengths and two-byte simple values', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => expectSized(encoder.encode(value).slice(), JSON.stringify(value))),
      { numRuns: 300, seed: 13 },
    );
    for (const frame of [
      'c1 1a 5f 00 00 00',
      'd8 20 63 61 62 63',
      '9f 01 7f 61 61 ff 5f 41 00 ff ff',
      'bf 61 61 f8 20 ff',
      '82 f8 ff fb 3f f0 00 00 00 00 00 00',
    ])
      expectSized(hex(frame), frame);
  });

  it('a malformed or cut frame still indexes (the count stops where the heads stop making sense)', () => {
    for (const [frame, code] of [
      ['83 01 1c 02', 'reserved-additional-info'],
      ['82 01 7a 00 01 00 00', 'length-exceeds-input'],
      ['9f 01 02', 'truncated'],
    ] as const) {
      const index = indexCbor(hex(frame));
      expect(index.error?.code, frame).toBe(code);
    }
  });
});
