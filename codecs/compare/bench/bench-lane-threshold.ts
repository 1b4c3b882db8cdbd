/**
 * `npx tsx codecs/compare/bench/bench-lane-threshold.ts [rounds]`: where two lanes start to pay —
 * the whole comparison (runs 3, budget 100 ms, as bench-1mb.ts) of generated documents of
 * 64 KB to 1 MB on one lane and on two (worker threads, the lane script bundled first),
 * interleaved, each a fresh set of lanes; wall and CPU time (process-wide, lanes included),
 * the best of `rounds` (default 2) each. lanes.ts's LANE_MIN_BYTES comes from this.
 */
import { generateDocument } from '../../bench/generate.js';
import { runComparison } from '../compare.js';
import { nodeLanes } from '../node-lane.js';
import { bundleLaneScript } from './bench-lane-bundle.js';
import { cpuClock } from '../timing.js';

const rounds = Math.max(1, Number(process.argv[2] ?? 2));
const lanes = { ...nodeLanes({ script: bundleLaneScript() }), minBytes: 0 };
const sizes = [64 << 10, 128 << 10, 256 << 10, 512 << 10, 1 << 20];

async function once(doc: unknown, onLanes: boolean): Promise<{ wall: number; cpu: number }> {
  const t0 = performance.now();
  const c0 = cpuClock();
  await runComparison(doc, { runs: 3, warmup: 1, budgetMs: 100, lanes: onLanes ? lanes : undefined });
  return { wall: performance.now() - t0, cpu: cpuClock() - c0 };
}

console.log(`lanes: ${lanes.count}`);
for (const size of sizes) {
  const doc = generateDocument(size);
  const json = new TextEncoder().encode(JSON.stringify(doc)).length;
  const one: { wall: number; cpu: number }[] = [];
  const two: { wall: number; cpu: number }[] = [];
  for (let r = 0; r < rounds; r++) {
    one.push(await once(doc, false));
    two.push(await once(doc, true));
  }
  const best = (xs: { wall: number; cpu: number }[]) => xs.reduce((a, b) => (b.wall < a.wall ? b : a));
  const [a, b] = [best(one), best(two)];
  console.log(
    `${(json / 1024).toFixed(0).padStart(5)} KB JSON: one lane ${a.wall.toFixed(0)} ms wall / ${a.cpu.toFixed(0)} CPU; two lanes ${b.wall.toFixed(0)} ms wall / ${b.cpu.toFixed(0)} CPU; two/one wall ${(b.wall / a.wall).toFixed(2)}x`,
  );
}
