/**
 * `npx tsx codecs/compare/bench-1mb-cold.ts [passes]`: the json-pack / JSON phase of the 1 MB
 * comparison (its nine codecs, runs 3, budget 100 ms, both compressors, as bench-1mb.ts) on
 * two lanes, `passes` times in this process (default 2): the first on fresh lanes (a fresh
 * process: what a user's first large comparison costs), the next on the same lanes kept
 * warm. Prints each pass's wall and CPU time (CPU counts every thread, lanes included) and
 * when each row finished. The lane script is bundled before anything is timed. `--calling-thread`:
 * this thread is one of the lanes (lanes.ts `here`; by default every lane is a worker).
 */
import { generateDocument } from '../bench/generate.js';
import { runComparison } from './compare.js';
import { CODECS } from './codecs.js';
import { cpuClock } from './timing.js';
import { nodeLanes } from './node-lane.js';
import { bundleLaneScript } from './bench-lane-bundle.js';

const passes = Number(process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 2);
const doc = generateDocument(1 << 20);
const callingThread = process.argv.includes('--calling-thread');
const lanes = { ...nodeLanes({ script: bundleLaneScript() }), here: callingThread };
const codecs = CODECS.filter((c) => c.family !== 'json-joy').map((c) => c.name);

for (let pass = 0; pass < passes; pass++) {
  const t0 = performance.now();
  const c0 = cpuClock();
  const done: string[] = [];
  await runComparison(doc, {
    runs: 3,
    warmup: 1,
    budgetMs: 100,
    codecs,
    lanes,
    onProgress: (p) => done.push(`${p.codec} ${(performance.now() - t0).toFixed(0)}`),
  });
  console.log(`pass ${pass + 1} (${pass === 0 ? 'fresh lanes' : 'kept lanes'}${callingThread ? ', this thread + workers' : ', workers only'}): ${(performance.now() - t0).toFixed(0)} ms wall, ${(cpuClock() - c0).toFixed(0)} ms CPU   finished: ${done.join(', ')}`);
}
