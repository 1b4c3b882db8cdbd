/// <reference lib="webworker" />
/**
 * The decode worker: holds every frame's bytes, reads each one level deep for the list,
 * and answers the UI's requests (tree levels, hex bytes, text, compare, diff). The page's
 * main thread only renders what comes back.
 */
import type { FrameSummary, FromWorker, ToWorker } from './api.js';
import { WorkerHandlers, summarize } from './handlers.js';
import { runCompare } from './compare-job.js';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const handlers = new WorkerHandlers();
const compareJobs = new Map<number, AbortController>();

/** Summaries go out in batches: at 10,000 frames/s that is ~20 messages/s, not 10,000. */
const FLUSH_MS = 50;
let pending: FrameSummary[] = [];
let pendingEvicted: number[] = [];
let pendingMatching: number[] = [];
let flushTimer: ReturnType<typeof setTimeout> | null = null;

function post(message: FromWorker, transfer: Transferable[] = []): void {
  scope.postMessage(message, transfer);
}

function flush(): void {
  flushTimer = null;
  if (!pending.length && !pendingEvicted.length) return;
  post({
    type: 'summaries',
    summaries: pending,
    evictedTotal: handlers.store.evictedTotal,
    evictedIds: pendingEvicted,
    bytesHeld: handlers.store.bytesHeld,
    matching: handlers.filtering ? pendingMatching : null,
  });
  pending = [];
  pendingEvicted = [];
  pendingMatching = [];
}

scope.onmessage = (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  switch (message.type) {
    case 'ingest': {
      for (const frame of message.frames) {
        const summary = summarize(frame);
        for (const id of handlers.store.add(frame)) pendingEvicted.push(id);
        pending.push(summary);
        // Without a filter every frame matches: `matching` stays null rather than list them all.
        if (handlers.filtering && handlers.matches(frame.frameId)) pendingMatching.push(frame.frameId);
      }
      flushTimer ??= setTimeout(flush, FLUSH_MS);
      return;
    }
    case 'call': {
      try {
        const method = handlers.methods[message.method] as (p: unknown) => unknown;
        const result = method(message.params);
        const transfer = result instanceof Uint8Array ? [result.buffer] : [];
        // Evictions from setCap / clear reach the list before the call resolves.
        flush();
        post({ type: 'result', callId: message.callId, result }, transfer as Transferable[]);
      } catch (e) {
        post({ type: 'failure', callId: message.callId, message: (e as Error).message });
      }
      return;
    }
    case 'compare': {
      const index = handlers.store.decoded(message.frameId, message.format)?.index;
      const controller = new AbortController();
      compareJobs.set(message.jobId, controller);
      const jobId = message.jobId;
      if (!index || index.root < 0) {
        post({ type: 'compare-end', jobId, cancelled: false, error: 'the frame is no longer held (evicted) or does not decode', markdown: '' });
        return;
      }
      void runCompare(index, message.nodeId < 0 ? index.root : message.nodeId, controller.signal, {
        row: (row, done, total) => post({ type: 'compare-row', jobId, row, done, total }),
        end: (cancelled, error, markdown) => {
          compareJobs.delete(jobId);
          post({ type: 'compare-end', jobId, cancelled, error, markdown });
        },
      }, `frame #${message.frameId}`);
      return;
    }
    case 'cancel-compare':
      compareJobs.get(message.jobId)?.abort();
      return;
  }
};
