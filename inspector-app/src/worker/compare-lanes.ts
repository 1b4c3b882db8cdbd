/**
 * The decode worker's comparison lanes: nested Workers (Chrome and Firefox start workers
 * from a dedicated worker), min(2, hardwareConcurrency) of them, for a large value
 * (codecs/compare/lanes.ts decides). They are kept between comparisons
 * (codecs/compare/lane-pool.ts: the next large comparison finds them warm) and ended after
 * IDLE_MS without one. Where Worker is missing (tests, old runtimes) one lane: the
 * comparison runs in the decode worker as before.
 */
import { laneCount, type LanePool } from '../../../codecs/compare/lanes.js';
import type { LaneReply } from '../../../codecs/compare/lane-protocol.js';
import { reusedLanes, type LaneWorker, type ReusedLanes } from '../../../codecs/compare/lane-pool.js';

/** Idle lanes hold an isolate each (~10–20 MB): ended after this long without a comparison. */
export const IDLE_MS = 60_000;

function browserWorker(onIdle: () => void, onBusy: () => void): LaneWorker {
  const worker = new Worker(new URL('./compare-lane-worker.ts', import.meta.url), { type: 'module', name: 'wirescope-compare-lane' });
  return {
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
    idle: onIdle,
    busy: onBusy,
  };
}

let shared: ReusedLanes | null = null;

export function workerLanes(env: { readonly Worker?: unknown; readonly cores?: number } = { Worker: globalThis.Worker, cores: globalThis.navigator?.hardwareConcurrency }): LanePool {
  const count = typeof env.Worker === 'function' ? laneCount(env.cores) : 1;
  if (count < 2) return { open: () => { throw new Error('no lanes here'); }, count };
  if (!shared) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const pool = reusedLanes(
      () =>
        browserWorker(
          () => {
            clearTimeout(timer);
            timer = setTimeout(() => pool.endIdle(), IDLE_MS);
          },
          () => clearTimeout(timer),
        ),
      count,
    );
    shared = pool;
  }
  return shared;
}
