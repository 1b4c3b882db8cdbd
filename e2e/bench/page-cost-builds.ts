/**
 * `npx tsx e2e/bench/page-cost-builds.ts DIR [DIR …] [--rounds N] [--messages N]`: the page
 * cost of several extension builds (unpacked directories, e.g. copies of dist/chrome made
 * from different sources) against a browser without any extension, measured in one run.
 *
 * One headless Chromium per build and one without; each round floods a page in every browser
 * in turn (ext-bench's flood page: `--messages` binary messages of 100 B, the page sets the
 * pace), the order reversed every other round so load swings hit the builds alike. Printed
 * per build: the ratio of median rates to the browser without, and the median over rounds of
 * each round's own ratio and of its page-main-thread CPU per message minus the one without
 * (/proc). A benchmark, not a test: it never fails on a figure. Run it on a quiet machine —
 * the spread between rounds is about ±1 µs per message at a load of 2.
 */
import os from 'node:os';
import path from 'node:path';
import { connectTargets, type CdpTargets } from './cdp-targets.js';
import { startChromium } from './chromium-process.js';
import { startFloodServer, type FloodServer } from './ext-bench-server.js';
import { cpuBetween, cpuSnapshot } from './proc-cpu.js';

const argv = process.argv.slice(2);
const option = (name: string, fallback: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1]! : fallback);
const ROUNDS = Number(option('--rounds', '11'));
const MESSAGES = Number(option('--messages', '100000'));
const dirs = argv.filter((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
if (dirs.length === 0) {
  console.error('usage: page-cost-builds.ts DIR [DIR …] [--rounds N] [--messages N]');
  process.exit(2);
}

interface Browser {
  readonly name: string;
  readonly targets: CdpTargets;
  readonly pid: number;
  readonly kill: () => void;
}
interface Flood {
  readonly rate: number;
  readonly mainUs: number;
}

let runs = 0;
async function flood(server: FloodServer, b: Browser, count: number): Promise<Flood> {
  const id = `builds-${++runs}`;
  const before = cpuSnapshot(b.pid);
  const target = await b.targets.open(`${server.httpUrl}flood.html?count=${count}&size=100&run=${id}`);
  try {
    const r = await server.waitForResult(id, 180_000);
    if (r.n !== count) throw new Error(`${b.name}: the page got ${r.n} of ${count} messages`);
    const cpu = cpuBetween(before, cpuSnapshot(b.pid));
    return { rate: ((r.n - 1) / r.msFirstToLast) * 1000, mainUs: (cpu.pageMainSeconds * 1e6) / r.n };
  } finally {
    await b.targets.close(target);
  }
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

const server = await startFloodServer();
const browsers: Browser[] = [];
for (const dir of [...dirs.map((d) => path.resolve(d)), null]) {
  const chromium = await startChromium(dir);
  browsers.push({
    name: dir ?? 'without',
    targets: await connectTargets(chromium.endpoint),
    pid: chromium.child.pid!,
    kill: () => chromium.child.kill(),
  });
}
try {
  await new Promise((r) => setTimeout(r, 1500)); // the extensions' service workers start
  for (const b of browsers) await flood(server, b, Math.min(MESSAGES, 10_000)); // warm-up
  const results = new Map<string, Flood[]>(browsers.map((b) => [b.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const b of round % 2 ? [...browsers].reverse() : browsers)
      results.get(b.name)!.push(await flood(server, b, MESSAGES));
    console.error(
      `round ${round + 1} (load ${os.loadavg()[0]!.toFixed(1)}): ${browsers.map((b) => `${path.basename(b.name)} ${Math.round(results.get(b.name)!.at(-1)!.rate)}/s`).join(', ')}`,
    );
  }
  const without = results.get('without')!;
  const withoutRate = median(without.map((r) => r.rate));
  for (const b of browsers) {
    const rs = results.get(b.name)!;
    console.log(
      `${b.name}: ratio of medians ${(median(rs.map((r) => r.rate)) / withoutRate).toFixed(3)}, rounds' ratios (median) ${median(rs.map((r, i) => r.rate / without[i]!.rate)).toFixed(3)}, page main thread +${median(rs.map((r, i) => r.mainUs - without[i]!.mainUs)).toFixed(1)} µs a message (median of rounds)`,
    );
  }
} finally {
  for (const b of browsers) b.kill();
  await server.close();
}
process.exit(0);
