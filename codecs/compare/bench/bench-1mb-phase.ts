/**
 * `npx tsx codecs/compare/bench/bench-1mb-phase.ts [passes] [--lanes [--calling-thread]] [--calls]`:
 * the json-pack / JSON phase of the 1 MB comparison alone (its nine codecs, both compressors,
 * with bench-1mb.ts's timing: lanes.ts INTERACTIVE_TIMING), `passes` times in one process
 * (default 2: the first meets a cold JIT, as a fresh worker does), each pass's wall and CPU
 * time (CPU counts every thread, lanes included) and when each row finished.
 * `--lanes`: on two lanes, as the Compare tab and the CLI measure a large value — the first
 * pass on fresh lanes (a user's first large comparison), the next on the same lanes kept
 * warm; the lane script is bundled before anything is timed; `--calling-thread`: this thread
 * is one of the lanes (calling-thread-lanes.ts); `--warm [--click-after MS]`: the lanes are started
 * and warmed on a sample of the value first (lanes.ts warmLanes, what the Compare tab does
 * when it is shown on a large node) and the first pass starts when the warm-up has ended, or
 * MS ms after it began (a user clicking Run that soon: the warm-up stops where it is).
 * `--calls` (one lane only): also every encode (w) and
 * decode (r) call's wall ms. For profiles: bundle it with esbuild and run `node --cpu-prof` on
 * the bundle (docs/BENCHMARKS.md, "third pass").
 */
import { generateDocument } from '../../bench/generate.js';
import { runComparison } from '../compare.js';
import { CODECS, type Codec } from '../codecs.js';
import { cpuClock } from '../timing.js';
import { INTERACTIVE_TIMING, warmLanes } from '../lanes.js';
import { nodeLanes } from '../node-lane.js';
import { bundleLaneScript } from './bench-lane-bundle.js';
import { withCallingThread } from './calling-thread-lanes.js';

const passes = Number(process.argv[2] !== undefined && !process.argv[2].startsWith('--') ? process.argv[2] : 2);
const onLanes = process.argv.includes('--lanes');
const callingThread = process.argv.includes('--calling-thread');
const logCalls = process.argv.includes('--calls') && !onLanes;
const warm = onLanes && process.argv.includes('--warm');
const clickAt = process.argv.indexOf('--click-after');
const clickAfterMs = clickAt > 0 ? Number(process.argv[clickAt + 1]) : undefined;
const doc = generateDocument(1 << 20);
const workerLanes = onLanes ? nodeLanes({ script: bundleLaneScript() }) : undefined;
const lanes = workerLanes && callingThread ? withCallingThread(workerLanes) : workerLanes;
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
// Lanes rebuild codecs by name (lanes.ts), so they take names; one lane may take wrapped entries.
const codecs = onLanes ? jsonPack.map((c) => c.name) : logCalls ? jsonPack.map(logged) : jsonPack;
const shape = onLanes ? (callingThread ? 'two lanes: this thread + a worker' : 'two worker lanes') : 'one lane';

if (warm) {
  const w0 = performance.now();
  const wc0 = cpuClock();
  const warming = warmLanes(lanes, doc);
  if (!warming) throw new Error('these lanes cannot warm');
  const report =
    clickAfterMs === undefined ? await warming : (await new Promise((r) => setTimeout(r, clickAfterMs)), null);
  const line = report
    ? `${report.started} lanes started and warmed (${report.warmed} whole, ${report.interrupted} stopped) in ${report.ms.toFixed(0)} ms wall`
    : `Run clicked ${clickAfterMs} ms after the warm-up began`;
  console.log(
    `value sent ahead, lanes warmed on a sample of it: ${line}, ${(cpuClock() - wc0).toFixed(0)} ms CPU until the click (${(performance.now() - w0).toFixed(0)} ms wall)`,
  );
  void warming.then(
    (r) =>
      report ||
      console.log(
        `  (the warm-up answered after ${r.ms.toFixed(0)} ms: ${r.warmed} whole, ${r.interrupted} stopped by the comparison)`,
      ),
  );
}

for (let pass = 0; pass < passes; pass++) {
  const t0 = performance.now();
  const c0 = cpuClock();
  const lines: string[] = [];
  await runComparison(doc, {
    ...INTERACTIVE_TIMING,
    codecs,
    lanes,
    onProgress: (p) => {
      lines.push(
        `  ${p.codec.padEnd(12)} done at ${(performance.now() - t0).toFixed(0).padStart(5)} ms${logCalls ? `  ${calls.join(' ')}` : ''}`,
      );
      calls.length = 0;
    },
  });
  const state =
    pass === 0
      ? onLanes
        ? warm
          ? 'fresh lanes, warmed first'
          : 'fresh lanes'
        : 'cold process'
      : onLanes
        ? 'kept lanes'
        : 'warm';
  console.log(
    `pass ${pass + 1} (${shape}, ${state}): ${(performance.now() - t0).toFixed(0)} ms wall, ${(cpuClock() - c0).toFixed(0)} ms CPU`,
  );
  console.log(lines.join('\n'));
}
