import { expect } from 'vitest';
import fc from 'fast-check';
import { decodeFrame, SpanIndex, type DecodeOptions, type FormatWalker } from '../../index.js';

/**
 * Real frames with one byte set to any value, and cut to any length: reading them with
 * `walker` (every node expanded, the root's value) and with `decodeFrame(bytes, options)`
 * never throws, and every node's span stays inside the bytes.
 */
export function checkMutationsAndTruncations(
  real: readonly Uint8Array[],
  walker: FormatWalker,
  options: DecodeOptions,
  numRuns: number,
): void {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: real.length - 1 }),
      fc.nat(),
      fc.nat(),
      fc.integer({ min: 0, max: 255 }),
      (which, cutAt, flipAt, value) => {
        const src = real[which];
        const mutated = src.slice();
        mutated[flipAt % mutated.length] = value;
        for (const bytes of [mutated, src.subarray(0, cutAt % (src.length + 1))]) {
          const ix = new SpanIndex(bytes, walker);
          ix.expandAll(Math.max(0, ix.root));
          for (let id = 0; id < ix.store.size; id++) {
            expect(ix.store.start[id]).toBeGreaterThanOrEqual(0);
            expect(ix.store.end[id]).toBeLessThanOrEqual(bytes.length);
          }
          if (ix.root >= 0) ix.value(ix.root);
          decodeFrame(bytes, options);
        }
      },
    ),
    { numRuns },
  );
}
