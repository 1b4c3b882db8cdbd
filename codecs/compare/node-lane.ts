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
import type { LanePool } from './lanes.js';
import { laneCount } from './lanes.js';
import type { OpenLane } from './lane.js';
import { portLane, type LaneReply } from './lane-protocol.js';

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

/** Lanes from `script` (a bundled node-lane-worker.ts; bench-lane-bundle.ts), else as above. */
export const nodeLaneOpener = (script?: URL): OpenLane => (start) => {
  const worker = startWorker(script);
  try {
    return portLane(
      {
        post: (request) => worker.postMessage(request),
        onReply: (handler) => worker.on('message', (reply: LaneReply) => handler(reply)),
        onFailure: (handler) => {
          worker.on('error', (e) => handler(`the lane failed: ${e.message}`));
          worker.on('exit', (code) => handler(`the lane exited (code ${code})`));
        },
        terminate: () => void worker.terminate(),
      },
      start,
    );
  } catch (e) {
    void worker.terminate();
    throw e;
  }
};

export const openNodeLane: OpenLane = nodeLaneOpener();

/**
 * min(2, availableParallelism) lanes of worker threads; one lane (no workers) when a bundle
 * was built without its lane script (an older dist/cli): the comparison then runs as before.
 */
export const nodeLanes = (options: { readonly cores?: number; readonly script?: URL } = {}): LanePool => {
  const bundled = options.script ?? (fromSource ? undefined : new URL('./compare-lane.js', import.meta.url));
  const count = bundled && !existsSync(bundled) ? 1 : laneCount(options.cores ?? availableParallelism());
  return { open: nodeLaneOpener(options.script), count };
};
