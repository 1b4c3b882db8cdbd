import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { helpersDir } from '../test/helpers/paths.js';

/**
 * The first codec measured carried the JIT's warm-up — 33,405
 * encode ops/s for CBOR against 359,879 for "CBOR (fast)" on a 235-byte value. Two
 * identical codecs under different names must measure alike, the first included.
 *
 * Each attempt runs in a fresh process (helpers/warmup-twins.ts) so the first codec meets
 * a cold JIT, as in a new worker. A ratio, never an absolute time: CPU time
 * (process.cpuUsage, which other processes do not inflate), each row's fastest sample (a
 * busy machine only adds time to a sample, a cold JIT slows all of them), best of three
 * fresh processes (two cores shared with other work can still stall one).
 *
 * The same twins on a ~1 MB document are a bench (codecs/bench/warmup-twins-bench.ts): there
 * what is left after the warm-up is the heap's growth, which varies with the machine too
 * much for a line (1.5–2.6x quiet here, 4–8x on a loaded CI runner).
 */
const script = path.join(helpersDir, 'warmup-twins.ts');

interface Twin {
  codec: string;
  encodeMinMs: number;
  decodeMinMs: number;
}

const ratio = (x: number, y: number): number => Math.max(x, y) / Math.min(x, y);

describe('timings carry no warm-up', () => {
  it.each([['a ~235-byte value', [], 1.5]] as const)(
    'two identical codecs measure alike, the first included (fresh process): %s',
    (_what, args, limit) => {
      const seen: number[] = [];
      for (let attempt = 0; attempt < 3; attempt++) {
        const out = execFileSync(process.execPath, ['--import', 'tsx', script, ...args], {
          encoding: 'utf8',
        });
        const [a, b] = JSON.parse(out.trim().split('\n').pop()!) as Twin[];
        seen.push(Math.max(ratio(a.encodeMinMs, b.encodeMinMs), ratio(a.decodeMinMs, b.decodeMinMs)));
        if (seen[seen.length - 1] < limit) break;
      }
      expect(
        Math.min(...seen),
        `worst of encode/decode per attempt: ${seen.map((r) => r.toFixed(2)).join(', ')}`,
      ).toBeLessThan(limit);
    },
    60_000,
  );
});
