/**
 * The decode worker's message loop, free of the worker global: decode-worker.ts wires it
 * to `self`, tests to an in-process channel (inspector-app/src/worker/in-process.ts).
 */
import type { FrameSummary, FromWorker, IngestFrame, ToWorker } from './api.js';
import { summarize, WorkerHandlers } from './handlers.js';
import { CompareJobs } from './compare-jobs.js';
import { searchFrames } from './filter-search.js';
import { SchemaReread } from './schema-reread.js';
import { endsWithSyncFlush } from '../../../codecs/index.js';
import { FloodDeferral, waitingSummary, type FloodOptions } from './flood-deferral.js';
import { unpackIngest } from './ingest-packing.js';

/** Summaries go out in batches: at 10,000 frames/s that is ~20 messages/s, not 10,000. */
const FLUSH_MS = 50;

function lostSummary(frame: IngestFrame, lost: { size: number; reason: string }): FrameSummary {
  const { frameId, connectionId, direction, time, opcode } = frame;
  return {
    frameId,
    connectionId,
    direction,
    time,
    opcode,
    size: lost.size,
    format: null,
    preview: lost.reason,
    error: null,
    lost: lost.reason,
  };
}

/** Live tail frames kept for their detail (the newest samples'; a sample is a few hundred frames at most). */
export const SAMPLES_KEPT = 2000;

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
  /** Under a flood, rows wait to be read (flood-deferral.ts); without this option every frame is read as it arrives. */
  readonly flood?: FloodOptions;
  /**
   * The page starts comparison lanes for this worker when asked (`lane-open`, lane-host.ts):
   * a large value is then compared on min(2, `cores`) of them. Absent: one lane, here.
   */
  readonly lanes?: { readonly cores?: number };
}

const ownsBuffer = (data: Uint8Array) => data.byteOffset === 0 && data.byteLength === data.buffer.byteLength;

/** The frame ids a request names: the frames read before it is answered (and every frame before them). */
function frameIdsNamed(method: string, params: unknown): number {
  if (method === 'setFilter') return Infinity;
  const p = (params ?? {}) as { frameId?: unknown; frameA?: unknown; frameB?: unknown };
  return Math.max(...[p.frameId, p.frameA, p.frameB].map((v) => (typeof v === 'number' ? v : -Infinity)));
}

export function createDispatcher(
  post: (message: FromWorker, transfer?: Transferable[]) => void,
  options: DispatcherOptions = {},
): (message: ToWorker) => void {
  const sliceMs = options.sliceMs ?? SEARCH_SLICE_MS;
  const now = options.now ?? (() => performance.now());
  const yieldTo = options.yieldTo ?? ((next: () => void) => void setTimeout(next, 0));
  const handlers = new WorkerHandlers();
  let filterGeneration = 0;
  const compares = new CompareJobs({ post, handlers, yieldTo, lanes: options.lanes });
  let pending: FrameSummary[] = [];
  let pendingEvicted: number[] = [];
  let pendingMatching: number[] = [];
  let flushTimer: ReturnType<typeof setTimeout> | null = null;
  const flood = options.flood ? new FloodDeferral(options.flood, now) : null;
  const later = options.flood?.later ?? ((run: () => void, ms: number) => void setTimeout(run, ms));
  let catchUpScheduled = false;
  // (Rows still waiting to be read under a flood are read with the new schema in their turn.)
  const reread = new SchemaReread(handlers, post, {
    sliceMs,
    now,
    yieldTo,
    filterGeneration: () => filterGeneration,
    isWaiting: (frameId) => flood?.peek(frameId) !== undefined,
  });

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

  /** A stored frame's list row (read one level deep), with what reading it evicted. */
  function readRow(frame: IngestFrame): void {
    const summary = handlers.summarize(frame);
    for (const id of handlers.store.takeEvictedLate()) pendingEvicted.push(id);
    pending.push(summary);
    if (handlers.filtering && handlers.matches(frame.frameId)) pendingMatching.push(frame.frameId);
  }

  /** The next waiting frame's row, read in its turn (its bytes were stored when it arrived). */
  function readNextWaiting(): void {
    const frame = flood!.take()!;
    if (frame.lost) handlers.store.streams.lost(frame, frame.lost.reason);
    else if (handlers.store.get(frame.frameId)) readRow(frame);
    // Evicted before it was read: its row left the list with the eviction; a stream on its connection lost its context.
    else handlers.store.streams.lost(frame, 'evicted before it was read');
  }

  /** Reads the waiting frames up to and including `frameId`, in order, now. */
  function readThrough(frameId: number): void {
    while (flood!.nextAtMost(frameId)) readNextWaiting();
  }

  /** Reads the waiting rows in slices once the flood is calm (at once while a filter needs them). */
  function scheduleCatchUp(): void {
    if (catchUpScheduled || !flood) return;
    catchUpScheduled = true;
    const slice = () => {
      catchUpScheduled = false;
      if (!flood.waiting) return;
      if (!flood.eager && flood.flooding) return scheduleCatchUp();
      const until = now() + sliceMs;
      while (flood.waiting) {
        readNextWaiting();
        if (now() >= until) break;
      }
      const readMs = now() - until + sliceMs;
      flush();
      if (flood.waiting) {
        catchUpScheduled = true;
        // A filter waits for every row: on at once. Otherwise rest as long as the slice read:
        // reading a flood's rows back to back takes a whole core for seconds, while the panel's
        // redraws and the page (often still catching up on the flood) share the machine's cores.
        if (flood.eager) yieldTo(slice);
        else later(slice, Math.max(1, readMs));
      }
    };
    if (!flood.eager && flood.flooding) later(slice, flood.calmIn);
    else yieldTo(slice);
  }

  /**
   * Frames from the page: stored, and listed now (read, or waiting under a flood).
   * `ownBytes`: frames that are views of a buffer get their own bytes (the store's cap counts
   * and frees each frame's bytes, which a shared buffer would keep alive); an unpacked small
   * batch's frames share theirs (ingest-packing.ts).
   */
  function ingest(frames: readonly IngestFrame[], ownBytes: boolean): void {
    flood?.arrive(frames.length);
    for (const arrived of frames) {
      const frame = !ownBytes || ownsBuffer(arrived.data) ? arrived : { ...arrived, data: arrived.data.slice() };
      if (flood?.shouldDefer() && !handlers.filtering) {
        // Listed now (a lost frame's row is final already), read later in arrival order.
        if (frame.lost) pending.push(lostSummary(frame, frame.lost));
        else {
          for (const id of handlers.store.add(frame)) pendingEvicted.push(id);
          pending.push(waitingSummary(frame));
        }
        flood.defer(frame);
        continue;
      }
      if (frame.lost) {
        // A placeholder: a row in its place, nothing to store or decode (a compressed stream on its connection loses its context).
        handlers.store.streams.lost(frame, frame.lost.reason);
        pending.push(lostSummary(frame, frame.lost));
        continue;
      }
      for (const id of handlers.store.add(frame)) pendingEvicted.push(id);
      readRow(frame);
    }
    if (flood?.waiting) scheduleCatchUp();
    flushTimer ??= setTimeout(flush, FLUSH_MS);
  }

  return (message: ToWorker) => {
    switch (message.type) {
      case 'ingest':
        ingest(message.frames, true);
        return;
      case 'ingest-packed':
        ingest(unpackIngest(message.packed), false);
        return;
      case 'tail': {
        // The rows of the frames before it go first: the list drops the last sample after they came.
        flush();
        const rows: FrameSummary[] = [];
        const matching: number[] = [];
        for (const frame of message.frames) {
          // Read on its own: nothing recorded on its connection (its frame is read in order when it comes).
          handlers.store.addSample(frame);
          rows.push({ ...summarize(frame), sample: true });
          if (handlers.filtering && handlers.matches(frame.frameId)) matching.push(frame.frameId);
        }
        post({
          type: 'tail-rows',
          rows,
          matching: handlers.filtering ? matching : null,
          filterGeneration,
          forgotten: handlers.store.forgetSamples(SAMPLES_KEPT),
        });
        return;
      }
      case 'connection':
        handlers.setSubprotocol(message.connectionId, message.subprotocol);
        if (message.url) {
          handlers.links.setConnectionUrl(message.connectionId, message.url);
          handlers.setConnectionUrl(message.connectionId, message.url);
        }
        return;
      case 'view': {
        // Rows in view are read now, while the flood goes on: the rows the user sees are complete.
        if (!flood?.waiting) return;
        for (const id of [...message.frameIds].sort((a, b) => a - b)) {
          const frame = flood.peek(id);
          if (!frame) continue;
          // A compressed stream's message (or with a schema loaded) reads right only after the frames before it.
          if (handlers.store.schemas.active || (frame.opcode === 'binary' && endsWithSyncFlush(frame.data)))
            readThrough(id);
          // Read ahead of its turn, with nothing recorded: it is read again in order later.
          else if (handlers.store.get(id)) pending.push(summarize(frame));
        }
        flush();
        return;
      }
      case 'lane-failed':
        compares.laneFailed(message.laneId, message.reason);
        return;
      case 'defer-rows': {
        if (!flood) return;
        flood.eager = !message.allowed;
        if (flood.waiting) scheduleCatchUp();
        return;
      }
      case 'call': {
        // The frames the request names are read first (in order), as if nothing had waited.
        if (flood?.waiting) readThrough(frameIdsNamed(message.method, message.params));
        if (message.method === 'clear') flood?.clear();
        // Rows and evictions still pending reach the list before the call's answer.
        flush();
        try {
          const method = handlers.methods[message.method] as (p: unknown) => unknown;
          const result = method(message.params);
          const transfer = result instanceof Uint8Array ? [result.buffer as ArrayBuffer] : [];
          post({ type: 'result', callId: message.callId, result }, transfer);
          // The listed rows follow a new schema or type: re-read them (after the answer, in slices).
          if (message.method === 'setSchema') reread.start({ kind: 'all' });
          else if (message.method === 'setSchemaType')
            reread.start({
              kind: 'connection',
              connectionId: (message.params as { connectionId: string }).connectionId,
            });
        } catch (e) {
          post({ type: 'failure', callId: message.callId, message: (e as Error).message });
        }
        return;
      }
      case 'compare':
        if (flood?.waiting) readThrough(message.frameId);
        compares.compare(message);
        return;
      case 'warm-compare':
        // Nothing read out of turn for it: a frame still waiting (a flood) is not warmed on.
        compares.warm(message);
        return;
      case 'session-compare':
        if (flood?.waiting) readThrough(Infinity);
        compares.session(message);
        return;
      case 'filter': {
        // A search needs what every row read as; rows matched under the old filter go out tagged with its generation first.
        if (flood?.waiting) readThrough(Infinity);
        flush();
        filterGeneration = message.generation;
        const generation = message.generation;
        if (!handlers.setContentFilter({ text: message.text, path: message.path })) {
          post({ type: 'filter-progress', generation, matches: [], searched: 0, total: 0, done: true });
          return;
        }
        // The frames held now; later ones are matched as they arrive (the summaries' `matching`).
        searchFrames({
          generation,
          frameIds: Array.from(handlers.store.all(), (f) => f.frameId),
          matches: (frameId) => handlers.matches(frameId),
          current: () => generation === filterGeneration,
          sliceMs,
          now,
          yieldTo,
          post,
        });
        return;
      }
      case 'cancel-compare':
        compares.cancel(message.jobId);
        return;
    }
  };
}
