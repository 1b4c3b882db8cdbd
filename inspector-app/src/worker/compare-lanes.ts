/**
 * The decode worker's comparison lanes: nested Workers (Chrome and Firefox start workers
 * from a dedicated worker), min(2, hardwareConcurrency) of them, for a large value
 * (codecs/compare/lanes.ts decides). Where Worker is missing (tests, old runtimes) one
 * lane: the comparison runs in the decode worker as before.
 */
import { laneCount, type LanePool } from '../../../codecs/compare/lanes.js';
import { portLane, type LaneReply } from '../../../codecs/compare/lane-protocol.js';
import type { OpenLane } from '../../../codecs/compare/lane.js';

const openWorkerLane: OpenLane = (start) => {
  const worker = new Worker(new URL('./compare-lane-worker.ts', import.meta.url), { type: 'module', name: 'wirescope-compare-lane' });
  try {
    return portLane(
      {
        post: (request) => worker.postMessage(request),
        onReply: (handler) => (worker.onmessage = (event: MessageEvent<LaneReply>) => handler(event.data)),
        onFailure: (handler) => {
          worker.onerror = (event) => {
            event.preventDefault();
            handler(`the lane failed: ${event.message || 'the worker could not run (an error or out of memory)'}`);
          };
          worker.onmessageerror = () => handler('the lane failed: a message from it could not be read');
        },
        terminate: () => worker.terminate(),
      },
      start,
    );
  } catch (e) {
    worker.terminate();
    throw e;
  }
};

export function workerLanes(env: { readonly Worker?: unknown; readonly cores?: number } = { Worker: globalThis.Worker, cores: globalThis.navigator?.hardwareConcurrency }): LanePool {
  return { open: openWorkerLane, count: typeof env.Worker === 'function' ? laneCount(env.cores) : 1 };
}
