/// <reference lib="webworker" />
/**
 * The decode worker: holds every frame's bytes, reads each one level deep for the list,
 * and answers the UI's requests (tree levels, hex bytes, text, compare, diff). The page's
 * main thread only renders what comes back. The loop itself is in dispatcher.ts.
 */
import type { ToWorker } from './api.js';
import { createDispatcher } from './dispatcher.js';
import { DEFAULT_FLOOD } from './flood-deferral.js';
import { packSummaries } from './summary-packing.js';

const scope = self as unknown as DedicatedWorkerGlobalScope;
// A message to itself: the next search slice runs after the messages already queued, unclamped.
const turns = new MessageChannel();
const queued: (() => void)[] = [];
turns.port1.onmessage = () => queued.shift()?.();
const yieldTo = (next: () => void) => {
  queued.push(next);
  turns.port2.postMessage(null);
};
// Waiting rows (a flood) cross as typed arrays: summary-packing.ts.
const dispatch = createDispatcher(
  (message, transfer = []) =>
    scope.postMessage(message.type === 'summaries' ? packSummaries(message) : message, transfer),
  {
    yieldTo,
    flood: DEFAULT_FLOOD,
    // The page starts the comparison lanes (compare-lanes.ts says why not this worker).
    lanes: { cores: scope.navigator.hardwareConcurrency },
  },
);
scope.onmessage = (event: MessageEvent<ToWorker>) => dispatch(event.data);
