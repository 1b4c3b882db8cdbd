/**
 * Two identical CBOR codecs measured one after the other on a ~1 MB document under a 25 ms
 * budget per operation, each trial in a fresh process (a cold JIT, as in a new worker):
 * prints the ratio of the twins' fastest encode and decode per trial. 1.0 means the first
 * codec carries no warm-up. A bench, not a test: on a 1 MB value what is left after the
 * warm-up is the heap's own growth, which moves with the machine (1.5–2.6x quiet here,
 * up to 8x on a loaded CI runner), so no line can pass or fail on it.
 *
 *   npx tsx codecs/bench/warmup-twins-bench.ts [--trials 5]
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../test/helpers/warmup-twins.ts', import.meta.url));
const at = process.argv.indexOf('--trials');
const trials = at > 0 ? Number(process.argv[at + 1]) : 5;

interface Twin {
  codec: string;
  encodeMinMs: number;
  decodeMinMs: number;
}
const ratio = (x: number, y: number): number => Math.max(x, y) / Math.min(x, y);

for (const semiSpace of [undefined, 64]) {
  const flags = semiSpace ? [`--max-semi-space-size=${semiSpace}`] : [];
  const cpu0 = process.cpuUsage();
  const rows: string[] = [];
  for (let t = 0; t < trials; t++) {
    const out = execFileSync(process.execPath, [...flags, '--import', 'tsx', script, 'large'], { encoding: 'utf8' });
    const [a, b] = JSON.parse(out.trim().split('\n').pop()!) as Twin[];
    rows.push(
      `encode ${a.encodeMinMs.toFixed(2)} / ${b.encodeMinMs.toFixed(2)} ms (${ratio(a.encodeMinMs, b.encodeMinMs).toFixed(2)}x), ` +
        `decode ${a.decodeMinMs.toFixed(2)} / ${b.decodeMinMs.toFixed(2)} ms (${ratio(a.decodeMinMs, b.decodeMinMs).toFixed(2)}x)`,
    );
  }
  const cpu = process.cpuUsage(cpu0);
  console.log(`~1 MB twins, ${semiSpace ? `--max-semi-space-size=${semiSpace}` : 'default heap'}, first / second:`);
  for (const r of rows) console.log(`  ${r}`);
  console.log(`  (this process ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU)`);
}
