/**
 * `npx tsx codecs/compare/bench-1mb-phase.ts [passes] [--calls]`: the json-pack / JSON phase
 * alone (the nine json-pack codecs, runs 3, budget 100 ms, as bench-1mb.ts), `passes` times
 * in one process (default 2: the first meets a cold JIT, as a fresh worker does), each
 * pass's wall and CPU time and each row's wall time; `--calls` also logs every encode (w)
 * and decode (r) call's wall ms. For profiles: bundle it with esbuild and run
 * `node --cpu-prof` on the bundle (docs/BENCHMARKS.md, "third pass").
 */
import { generateDocument } from '../bench/generate.js';
import { runComparison } from './compare.js';
import { CODECS, type Codec } from './codecs.js';
import { cpuClock } from './timing.js';

const passes = Number(process.argv[2] ?? 2);
const logCalls = process.argv.includes('--calls');
const doc = generateDocument(1 << 20);
const calls: string[] = [];
const logged = (codec: Codec): Codec => ({
  ...codec,
  write: (p) => {
    const t0 = performance.now();
    const out = codec.write(p);
    calls.push(`w${(performance.now() - t0).toFixed(0)}`);
    return out;
  },
  read: (e) => {
    const t0 = performance.now();
    const out = codec.read(e);
    calls.push(`r${(performance.now() - t0).toFixed(0)}`);
    return out;
  },
});
const jsonPack = CODECS.filter((c) => c.family !== 'json-joy');
const codecs = logCalls ? jsonPack.map(logged) : jsonPack;

for (let pass = 0; pass < passes; pass++) {
  const t0 = performance.now();
  const c0 = cpuClock();
  let last = t0;
  const lines: string[] = [];
  await runComparison(doc, {
    runs: 3,
    warmup: 1,
    budgetMs: 100,
    codecs,
    onRow: (row) => {
      const now = performance.now();
      lines.push(`  ${row.codec.padEnd(12)} ${(now - last).toFixed(0).padStart(5)} ms${logCalls ? `  ${calls.join(' ')}` : ''}`);
      calls.length = 0;
      last = now;
    },
  });
  console.log(`pass ${pass + 1}${pass === 0 ? ' (cold process)' : ''}: ${(performance.now() - t0).toFixed(0)} ms wall, ${(cpuClock() - c0).toFixed(0)} ms CPU`);
  console.log(lines.join('\n'));
}
