import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { time } from './timing.js';

/**
 * The timing loop held the previous call's result while the next call ran, so
 * every 1 MB decode built its tree beside a whole live tree from the call before: V8's
 * young-generation collections then copied and promoted it, and a json-pack decode of the
 * 1 MB document read 12–18 ms where the decoder alone takes ~5 ms (3x, most of the phase's
 * GC). Checked with explicit collections, not times: during each call the heap holds no
 * earlier result.
 */
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const RESULT_BYTES = 16 << 20;

describe('the timing loop keeps no earlier result alive during a call', () => {
  for (const [what, options] of [
    ['warm-up and runs', { runs: 4, warmup: 1 }],
    ['runs only (no warm-up)', { runs: 4, warmup: 0 }],
    ['under a budget', { runs: 4, warmup: 1, budgetMs: 1000 }],
  ] as const) {
    it(what, () => {
      const fake = { t: 0 };
      gc();
      const baseline = v8.getHeapStatistics().used_heap_size;
      const heldDuringCall: number[] = [];
      let calls = 0;
      const { result } = time(
        () => {
          gc();
          heldDuringCall.push(v8.getHeapStatistics().used_heap_size - baseline);
          // ~16 MB on the JS heap (doubles), like a decoded 1 MB document; alternating
          // costs so no stable stop ends the runs early.
          fake.t += calls++ % 2 ? 30 : 36;
          return new Array(RESULT_BYTES / 8).fill(calls + 0.5);
        },
        { ...options, clock: () => fake.t },
      );
      expect(calls).toBeGreaterThanOrEqual(3);
      expect(result).toHaveLength(RESULT_BYTES / 8);
      expect(
        Math.max(...heldDuringCall),
        `heap above baseline at each call: ${heldDuringCall.map((b) => (b / 2 ** 20).toFixed(1)).join(', ')} MB`,
      ).toBeLessThan(RESULT_BYTES / 2);
    });
  }
});
