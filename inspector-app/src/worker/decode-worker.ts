/// <reference lib="webworker" />
/**
 * The decode worker: holds every frame's bytes, reads each one level deep for the list,
 * and answers the UI's requests (tree levels, hex bytes, text, compare, diff). The page's
 * main thread only renders what comes back. The loop itself is in dispatcher.ts.
 */
import type { ToWorker } from './api.js';
import { createDispatcher } from './dispatcher.js';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const dispatch = createDispatcher((message, transfer = []) => scope.postMessage(message, transfer));
scope.onmessage = (event: MessageEvent<ToWorker>) => dispatch(event.data);
