/**
 * `npx tsx codecs/compare/bench/bench-jsonjoy-rows.ts [rounds]`: the json-joy rows of the ~1 MB
 * comparison alone (the seven json-joy codecs through `runComparison`, runs 3, budget
 * 100 ms, sizes on) against json-joy's own floor (codecs/bench/jsonjoy-1mb-floor.ts),
 * interleaved in one process, `rounds` pairs (default 5). Prints each pair's CPU and wall
 * time and ratio, then the median and smallest ratio: the part of bench-1mb.ts's whole run
 * that the json-joy rows add beyond the floor, without the json-pack phase's noise.
 */
import { generateDocument } from '../../bench/generate.js';
import { jsonjoyFloor } from '../../bench/jsonjoy-1mb-floor.js';
import { runComparison } from '../compare.js';
import { CODECS } from '../codecs.js';
import { cpuClock } from '../timing.js';

const rounds = Number(process.argv[2] ?? 5);
const doc = generateDocument(1 << 20);
const jsonjoyCodecs = CODECS.filter((c) => c.family === 'json-joy');
const ratios: number[] = [];
for (let round = 0; round < rounds; round++) {
  const w0 = performance.now();
  const c0 = cpuClock();
  await runComparison(doc, { runs: 3, warmup: 1, budgetMs: 100, codecs: jsonjoyCodecs });
  const rows = { wallMs: performance.now() - w0, cpuMs: cpuClock() - c0 };
  const floor = jsonjoyFloor(doc);
  ratios.push(rows.cpuMs / floor.cpuMs);
  console.log(
    `json-joy rows ${rows.cpuMs.toFixed(0)} ms CPU (${rows.wallMs.toFixed(0)} wall), floor ${floor.cpuMs.toFixed(0)} ms CPU (${floor.wallMs.toFixed(0)} wall): ${(rows.cpuMs / floor.cpuMs).toFixed(2)}x CPU, ${(rows.wallMs / floor.wallMs).toFixed(2)}x wall`,
  );
}
const sorted = [...ratios].sort((a, b) => a - b);
console.log(
  `json-joy rows / floor, CPU: median ${sorted[sorted.length >> 1].toFixed(2)}x, smallest ${sorted[0].toFixed(2)}x (${rounds} interleaved pairs)`,
);
