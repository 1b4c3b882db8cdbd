/**
 * `npx tsx codecs/compare/bench/bench-1mb.ts [runs] [budgetMs] [--one-lane]`: the whole comparison — every
 * codec, gzip and deflate sizes, warm-up + `runs` timed runs and a per-operation time budget
 * (`-` for none), by default the Compare tab's (lanes.ts INTERACTIVE_TIMING: 5 runs, 100 ms), on two lanes (worker threads, lanes.ts; the
 * lane script bundled first, as the CLI and the app ship it; `--one-lane`: on this thread) — on a ~1 MB JSON-like document
 * (codecs/bench/generate.ts), and in the same process json-joy's own floor
 * (codecs/bench/jsonjoy-1mb-floor.ts). `--calling-thread`: this thread is one of the lanes
 * (calling-thread-lanes.ts; by default every lane is a worker thread and this thread only waits). Prints the table, each codec's wall time, the
 * json-pack phase (of the reported run, and of both runs: the first meets a cold JIT, as a
 * fresh worker does) and the whole run in wall and CPU time, and the target lines:
 * json-pack / JSON phase ≤ 1 s, whole run ≤ 1.2x the floor.
 */
import { generateDocument } from '../../bench/generate.js';
import { jsonjoyFloor } from '../../bench/jsonjoy-1mb-floor.js';
import { runComparison, isMeasured, type Row } from '../compare.js';
import { formatText, formatKeyOverhead } from '../format.js';
import { cpuClock } from '../timing.js';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { decodeFrame } from '../../index.js';
import { keyOverhead } from '../keys.js';
import { nodeLanes } from '../node-lane.js';
import { bundleLaneScript } from './bench-lane-bundle.js';
import { withCallingThread } from './calling-thread-lanes.js';
import { INTERACTIVE_TIMING, type LanePool } from '../lanes.js';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const oneLane = process.argv.includes('--one-lane');
const callingThread = process.argv.includes('--calling-thread');
const runs = Number(args[0] ?? INTERACTIVE_TIMING.runs);
const budgetArg = args[1] ?? String(INTERACTIVE_TIMING.budgetMs);
const budgetMs = budgetArg === '-' ? undefined : Number(budgetArg);
const doc = generateDocument(1 << 20);
const bundle0 = performance.now();
const lanes: LanePool | undefined = oneLane
  ? undefined
  : callingThread
    ? withCallingThread(nodeLanes({ script: bundleLaneScript() }))
    : nodeLanes({ script: bundleLaneScript() });
const bundleMs = performance.now() - bundle0;

interface BudgetRun {
  readonly rows: Row[];
  /** Wall ms per codec (from the previous row yielded to this one; rows come in codec order). */
  readonly wall: Map<string, number>;
  readonly jsonPack: { readonly wallMs: number; readonly cpuMs: number };
  readonly whole: { readonly wallMs: number; readonly cpuMs: number };
}

async function measure(): Promise<BudgetRun> {
  const wall = new Map<string, number>();
  const t0 = performance.now();
  const c0 = cpuClock();
  let last = t0;
  let jsonPack = { wallMs: 0, cpuMs: 0 };
  const rows = await runComparison(doc, {
    runs,
    warmup: 1,
    budgetMs,
    lanes,
    onRow: (row) => {
      const now = performance.now();
      wall.set(row.codec, now - last);
      last = now;
    },
    onProgress: (p) => {
      if (p.phase === 'json-pack') jsonPack = { wallMs: performance.now() - t0, cpuMs: cpuClock() - c0 };
    },
  });
  return { rows, wall, jsonPack, whole: { wallMs: performance.now() - t0, cpuMs: cpuClock() - c0 } };
}

// Interleaved: comparison, floor, comparison, floor; the better of each pair is reported.
const a = await measure();
const f1 = jsonjoyFloor(doc);
const b = await measure();
const f2 = jsonjoyFloor(doc);
const run = a.whole.cpuMs <= b.whole.cpuMs ? a : b;
const floor = f1.cpuMs <= f2.cpuMs ? f1 : f2;
const { rows, wall } = run;
console.log(formatText(rows));
console.log('');
console.log(rows.map((r) => `${r.codec.padEnd(24)} ${wall.get(r.codec)!.toFixed(0).padStart(6)} ms`).join('\n'));
console.log('');
const ms = (x: { wallMs: number; cpuMs: number }): string =>
  `${x.wallMs.toFixed(0)} ms wall, ${x.cpuMs.toFixed(0)} ms CPU`;
console.log(
  `${rows.length} codecs (${rows.filter(isMeasured).length} measured), runs=${runs} after warm-up, budget ${budgetMs === undefined ? 'none' : `${budgetMs} ms`}`,
);
console.log(
  `lanes: ${lanes ? `${lanes.count}, one queue (${callingThread ? 'this thread and worker threads, --calling-thread' : 'worker threads only'}; lane script bundled in ${bundleMs.toFixed(0)} ms before the runs, not counted)` : '1 (this thread, --one-lane)'}`,
);
console.log(
  `json-pack / JSON phase (first ${rows.filter((r) => r.family !== 'json-joy').length} rows): ${ms(run.jsonPack)}   [line: ≤ 1,000 ms]`,
);
// The first comparison of a process meets a cold JIT (a fresh worker); the second a warm one.
console.log(
  `  json-pack phase by run:            first (cold process) ${ms(a.jsonPack)}; second (warm) ${ms(b.jsonPack)}`,
);
console.log(`whole run:                         ${ms(run.whole)}`);
console.log(`json-joy floor (same process):     ${ms(floor)}`);
console.log(
  `whole / floor:                     ${(run.whole.cpuMs / floor.cpuMs).toFixed(2)}x CPU, ${(run.whole.wallMs / floor.wallMs).toFixed(2)}x wall   [line: ≤ 1.2x]`,
);
// On lanes the wall time is what the user waits for; the run chosen above is the one with less CPU.
const wallBest = Math.min(a.whole.wallMs, b.whole.wallMs) / Math.min(f1.wallMs, f2.wallMs);
console.log(`whole / floor, fastest wall each:  ${wallBest.toFixed(2)}x wall`);
console.log(
  `(best of two interleaved runs each: comparison ${ms(a.whole)} / ${ms(b.whole)}; floor ${ms(f1)} / ${ms(f2)})`,
);

const k0 = performance.now();
const frame = new CborEncoder().encode(doc).slice();
const k = keyOverhead(decodeFrame(frame, { format: 'cbor' }).index!);
console.log('');
console.log(`key overhead of the document as CBOR (${(performance.now() - k0).toFixed(0)} ms):`);
console.log(formatKeyOverhead(k));
