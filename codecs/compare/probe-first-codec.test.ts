import { describe, expect, it } from 'vitest';
import { codecByName, type Codec } from './codecs.js';
import { JOINT_WARMUP_MAX_CALL_MS, measureCodec, runComparison } from './compare.js';
import { warmSampleOf } from './measure.js';

/**
 * Before timing, a comparison probes its first codec once to tell a small
 * value (joint warm-up) from a large one (none). On a large value the probe's encode alone
 * already says so; its decode (a 1 MB JSON.parse) was work for nothing. Counted on a fake
 * clock: the comparison makes no more decodes than measuring the codec alone (after its
 * warm-up on a sample of the large value, measure.ts warmSample).
 */
function countingCodec(clock: { t: number }, costMs: number): { codec: Codec; reads: () => number } {
  const json = codecByName('json')!;
  let reads = 0;
  const codec: Codec = {
    ...json,
    write: (p) => ((clock.t += costMs), json.write(p)),
    read: (e) => ((clock.t += costMs), reads++, json.read(e)),
  };
  return { codec, reads: () => reads };
}

describe('the warm-up probe on a large value', () => {
  it('decodes nothing once the encode alone shows a large value', async () => {
    const value = { a: [1, 2, 3], s: 'x' };
    const cost = 3 * JOINT_WARMUP_MAX_CALL_MS;
    const options = { runs: 3, warmup: 1, budgetMs: 100 };
    const alone = { t: 0 };
    const measured = countingCodec(alone, cost);
    measureCodec(measured.codec, value, { ...options, clock: () => alone.t, warmSample: warmSampleOf(value) });
    const compared = { t: 0 };
    const inComparison = countingCodec(compared, cost);
    await runComparison(value, { ...options, codecs: [inComparison.codec], clock: () => compared.t });
    expect(measured.reads()).toBeGreaterThan(0);
    expect(inComparison.reads()).toBe(measured.reads());
  });
});
