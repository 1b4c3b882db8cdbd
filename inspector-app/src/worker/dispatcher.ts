/**
 * The decode worker's message loop, free of the worker global: decode-worker.ts wires it
 * to `self`, tests to an in-process channel (inspector-app/src/worker/in-process.ts).
 */
import type { FrameSummary, FromWorker, IngestFrame, ToWorker } from './api.js';
import { WorkerHandlers } from './handlers.js';
import { runCompare } from './compare-job.js';
import { framesOf, runSessionCompare } from './session-compare-job.js';
import { SchemaReread } from './schema-reread.js';

/** Summaries go out in batches: at 10,000 frames/s that is ~20 messages/s, not 10,000. */
const FLUSH_MS = 50;

function lostSummary(frame: IngestFrame, lost: { size: number; reason: string }): FrameSummary {
  const { frameId, connectionId, direction, time, opcode } = frame;
  return { frameId, connectionId, direction, time, opcode, size: lost.size, format: null, preview: lost.reason, error: null, lost: lost.reason };
}

/** A search slice runs this long before it reports and lets other messages in. */
const SEARCH_SLICE_MS = 12;

export interface DispatcherOptions {
  readonly sliceMs?: number;
  /** The clock search slices are timed with. */
  readonly now?: () => number;
  /**
   * Runs the next search slice after the messages already queued (default: setTimeout 0).
   * In a browser a chain of setTimeout(0) is clamped to 4 ms after five links, a third of a
   * 12 ms slice: the worker passes a MessageChannel instead (decode-worker.ts).
   */
  readonly yieldTo?: (next: () => void) => void;
}

export function createDispatcher(post: (message: FromWorker, transfer?: Transferable[]) => void, options: DispatcherOptions = {}): (message: ToWorker) => void {
  const sliceMs = options.sliceMs ?? SEARCH_SLICE_MS;
  const now = options.now ?? (() => performance.now());
  const yieldTo = options.yieldTo ?? ((next: () => void) => void setTimeout(next, 0));
  const handlers = new WorkerHandlers();
  let filterGeneration = 0;
  const compareJobs = new Map<number, AbortController>();
  let pending: FrameSummary[] = [];
  let pendingEvicted: number[] = [];
  let pendingMatching: number[] = [];
  let flushTimer: ReturnType<typeof setTimeout> | null = null;
  const reread = new SchemaReread(handlers, post, { sliceMs, now, yieldTo, filterGeneration: () => filterGeneration });

  function flush(): void {
    if (flushTimer !== null) clearTimeout(flushTimer);
    flushTimer = null;
    if (!pending.length && !pendingEvicted.length) return;
    post({
      type: 'summaries',
      summaries: pending,
      evictedTotal: handlers.store.evictedTotal,
      evictedIds: pendingEvicted,
      bytesHeld: handlers.store.bytesHeld,
      // Without a filter every frame matches: null rather than a list of them all.
      matching: handlers.filtering ? pendingMatching : null,
      filterGeneration,
    });
    pending = [];
    pendingEvicted = [];
    pendingMatching = [];
  }

  return (message: ToWorker) => {
    switch (message.type) {
      case 'ingest': {
        for (const frame of message.frames) {
          if (frame.lost) {
            // A placeholder: a row in its place, nothing to store or decode (a compressed stream on its connection loses its context).
            handlers.store.streams.lost(frame, frame.lost.reason);
            pending.push(lostSummary(frame, frame.lost));
            continue;
          }
          for (const id of handlers.store.add(frame)) pendingEvicted.push(id);
          const summary = handlers.summarize(frame);
          for (const id of handlers.store.takeEvictedLate()) pendingEvicted.push(id);
          pending.push(summary);
          if (handlers.filtering && handlers.matches(frame.frameId)) pendingMatching.push(frame.frameId);
        }
        flushTimer ??= setTimeout(flush, FLUSH_MS);
        return;
      }
      case 'connection':
        handlers.setSubprotocol(message.connectionId, message.subprotocol);
        return;
      case 'call': {
        // Rows and evictions still pending reach the list before the call's answer.
        flush();
        try {
          const method = handlers.methods[message.method] as (p: unknown) => unknown;
          const result = method(message.params);
          const transfer = result instanceof Uint8Array ? [result.buffer as ArrayBuffer] : [];
          post({ type: 'result', callId: message.callId, result }, transfer);
          // The listed rows follow a new schema or type: re-read them (after the answer, in slices).
          if (message.method === 'setSchema') reread.start({ kind: 'all' });
          else if (message.method === 'setSchemaType') reread.start({ kind: 'connection', connectionId: (message.params as { connectionId: string }).connectionId });
        } catch (e) {
          post({ type: 'failure', callId: message.callId, message: (e as Error).message });
        }
        return;
      }
      case 'compare': {
        const jobId = message.jobId;
        const index = handlers.store.decoded(message.frameId, message.format)?.index;
        if (!index || index.root < 0) {
          post({ type: 'compare-end', jobId, cancelled: false, error: 'the frame is no longer held (evicted) or does not decode', markdown: '' });
          return;
        }
        const controller = new AbortController();
        compareJobs.set(jobId, controller);
        const sink = {
          row: (row: Parameters<Parameters<typeof runCompare>[3]['row']>[0], done: number, total: number) => post({ type: 'compare-row', jobId, row, done, total }),
          end: (cancelled: boolean, error: string | null, markdown: string) => {
            compareJobs.delete(jobId);
            post({ type: 'compare-end', jobId, cancelled, error, markdown });
          },
        };
        void runCompare(index, message.nodeId < 0 ? index.root : message.nodeId, controller.signal, sink, `frame #${message.frameId}`);
        return;
      }
      case 'session-compare': {
        const jobId = message.jobId;
        const controller = new AbortController();
        compareJobs.set(jobId, controller);
        const frames = framesOf(handlers.store.all(), message.scope);
        void runSessionCompare(frames, message.negotiated, controller.signal, {
          progress: (progress) => post({ type: 'session-progress', jobId, progress }),
          rows: (rows) => post({ type: 'session-rows', jobId, rows }),
          end: (result) => {
            compareJobs.delete(jobId);
            post({ type: 'session-end', jobId, ...result });
          },
        });
        return;
      }
      case 'filter': {
        // Rows matched under the old filter go out tagged with its generation first.
        flush();
        filterGeneration = message.generation;
        const generation = message.generation;
        if (!handlers.setContentFilter({ text: message.text, path: message.path })) {
          post({ type: 'filter-progress', generation, matches: [], searched: 0, total: 0, done: true });
          return;
        }
        // The frames held now; later ones are matched as they arrive (the summaries' `matching`).
        const ids = Array.from(handlers.store.all(), (f) => f.frameId);
        let at = 0;
        const slice = () => {
          if (generation !== filterGeneration) return;
          const until = now() + sliceMs;
          const matches: number[] = [];
          while (at < ids.length) {
            if (handlers.matches(ids[at])) matches.push(ids[at]);
            at++;
            if (now() >= until) break;
          }
          const done = at >= ids.length;
          post({ type: 'filter-progress', generation, matches, searched: at, total: ids.length, done });
          if (!done) yieldTo(slice);
        };
        slice();
        return;
      }
      case 'cancel-compare':
        compareJobs.get(message.jobId)?.abort();
        return;
    }
  };
}
