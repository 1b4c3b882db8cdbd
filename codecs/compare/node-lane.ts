/**
 * Comparison lanes as Node worker threads (lanes.ts; for `wirescope compare` and
 * bench-1mb.ts). Run from source (tsx), the lane is node-lane-worker.ts loaded through
 * tsx; from the CLI bundle (dist/cli/wirescope.js) it is the bundled
 * dist/cli/compare-lane.js beside it (`npm run build:cli` writes both). Not in index.ts:
 * the rest of codecs/compare stays free of Node APIs.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { laneCount } from './lanes.js';
import type { LaneReply } from './lane-protocol.js';
import { reusedLanes, type LaneWorker, type ReusedLanes } from './lane-pool.js';

const fromSource = import.meta.url.endsWith('.ts');

/**
 * From source, a bootstrap registers tsx's loader in the worker, then loads the lane
 * (`execArgv: ['--import', 'tsx']` does not reach a worker's module loader on Node 20).
 */
function startWorker(script: URL | undefined): Worker {
  const name = 'wirescope-compare-lane';
  if (script) return new Worker(script, { name });
  if (!fromSource) return new Worker(new URL('./compare-lane.js', import.meta.url), { name });
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const lane = new URL('./node-lane-worker.ts', import.meta.url).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(lane)}); });`;
  return new Worker(bootstrap, { eval: true, name });
}

/** A lane worker thread as the pool drives it (lane-pool.ts). */
function nodeWorker(script: URL | undefined): LaneWorker {
  const worker = startWorker(script);
  return {
    post: (request) => worker.postMessage(request),
    onReply: (handler) => worker.on('message', (reply: LaneReply) => handler(reply)),
    onFailure: (handler) => {
      worker.on('error', (e) => handler(`the lane failed: ${e.message}`));
      worker.on('exit', (code) => handler(`the lane exited (code ${code})`));
    },
    terminate: () => void worker.terminate(),
    // An idle lane keeps no process alive (the CLI exits after its comparison).
    idle: () => worker.unref(),
    busy: () => worker.ref(),
  };
}

/**
 * min(2, availableParallelism) lanes of worker threads, kept between the comparisons of this
 * pool (lane-pool.ts); one lane (no workers) when a bundle was built without its lane
 * script (an older dist/cli): the comparison then runs as before.
 */
export const nodeLanes = (options: { readonly cores?: number; readonly script?: URL } = {}): ReusedLanes => {
  const bundled = options.script ?? (fromSource ? undefined : new URL('./compare-lane.js', import.meta.url));
  const count = bundled && !existsSync(bundled) ? 1 : laneCount(options.cores ?? availableParallelism());
  // Every lane is a worker; this thread only waits. With this thread as one lane a quiet
  // bench-1mb.ts run read a warm json-pack phase of 1,217 ms and whole / floor 1.15x, against
  // 762 ms and 0.85x with workers only (2026-11-25 03:53, load 1.4–2.0): it reads the
  // worker's rows only between its own codecs.
  return reusedLanes(() => nodeWorker(options.script), count);
};
