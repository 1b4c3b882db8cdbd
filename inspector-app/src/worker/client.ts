import type {
  CompareRowView,
  FormatChoice,
  FromWorker,
  IngestFrame,
  SessionEnd,
  SessionScope,
  ToWorker,
  WorkerMethods,
} from './api.js';
import { packIngest } from './ingest-packing.js';
import type { PackedIngest } from './packed-batches.js';
import { unpackSummaries } from './summary-packing.js';
import { LaneHost, type HostedLane } from './lane-host.js';
import type { SessionProgress, SessionRow } from '../../../codecs/compare/session/session.js';

export interface SummaryBatch extends Extract<FromWorker, { type: 'summaries' }> {}
export interface FilterProgress extends Extract<FromWorker, { type: 'filter-progress' }> {}
export interface RereadBatch extends Extract<FromWorker, { type: 'reread' }> {}
export interface TailRows extends Extract<FromWorker, { type: 'tail-rows' }> {}

export interface CompareHandlers {
  onRow(row: CompareRowView, done: number, total: number): void;
  onEnd(cancelled: boolean, error: string | null, markdown: string): void;
}

export interface SessionHandlers {
  onProgress(progress: SessionProgress): void;
  onRows(rows: readonly SessionRow[]): void;
  onEnd(end: SessionEnd): void;
}

/** The main thread's side of the decode worker: typed calls as promises, summaries as events. */
export class WorkerClient {
  private nextCallId = 1;
  private nextJobId = 1;
  private readonly calls = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly jobs = new Map<number, CompareHandlers>();
  private readonly sessionJobs = new Map<number, SessionHandlers>();
  private readonly summaryListeners = new Set<(batch: SummaryBatch) => void>();
  private readonly filterListeners = new Set<(progress: FilterProgress) => void>();
  private readonly rereadListeners = new Set<(batch: RereadBatch) => void>();
  private readonly tailListeners = new Set<(rows: TailRows) => void>();

  /** The comparison lanes this page starts for the worker (lane-host.ts); none without a starter. */
  private readonly lanes: LaneHost | null;

  /** @param startLane starts a comparison lane worker when the worker asks for one (`lane-open`). */
  constructor(
    private readonly worker: Worker,
    startLane?: () => HostedLane,
  ) {
    this.lanes = startLane
      ? new LaneHost(startLane, (laneId, reason) => this.post({ type: 'lane-failed', laneId, reason }))
      : null;
    worker.onmessage = (event: MessageEvent<FromWorker>) => this.receive(event.data);
    worker.onerror = (event) => {
      this.lanes?.endAll();
      const error = new Error(`decode worker failed: ${event.message}`);
      for (const call of this.calls.values()) call.reject(error);
      this.calls.clear();
    };
  }

  private post(message: ToWorker, transfer: Transferable[] = []): void {
    this.worker.postMessage(message, transfer);
  }

  private receive(message: FromWorker): void {
    switch (message.type) {
      case 'summaries': {
        const batch = unpackSummaries(message);
        for (const l of this.summaryListeners) l(batch);
        return;
      }
      case 'filter-progress':
        for (const l of this.filterListeners) l(message);
        return;
      case 'reread':
        for (const l of this.rereadListeners) l(message);
        return;
      case 'tail-rows':
        for (const l of this.tailListeners) l(message);
        return;
      case 'result':
      case 'failure': {
        const call = this.calls.get(message.callId);
        this.calls.delete(message.callId);
        if (message.type === 'result') call?.resolve(message.result);
        else call?.reject(new Error(message.message));
        return;
      }
      case 'compare-row':
        this.jobs.get(message.jobId)?.onRow(message.row, message.done, message.total);
        return;
      case 'compare-end':
        this.jobs.get(message.jobId)?.onEnd(message.cancelled, message.error, message.markdown);
        this.jobs.delete(message.jobId);
        return;
      case 'session-progress':
        this.sessionJobs.get(message.jobId)?.onProgress(message.progress);
        return;
      case 'session-rows':
        this.sessionJobs.get(message.jobId)?.onRows(message.rows);
        return;
      case 'lane-open':
        if (this.lanes) this.lanes.open(message.laneId, message.port);
        else {
          message.port.close();
          this.post({ type: 'lane-failed', laneId: message.laneId, reason: 'this page starts no lanes' });
        }
        return;
      case 'lane-close':
        this.lanes?.end(message.laneId);
        return;
      case 'session-end': {
        const { type: _type, jobId, ...end } = message;
        this.sessionJobs.get(jobId)?.onEnd(end);
        this.sessionJobs.delete(jobId);
        return;
      }
    }
  }

  onSummaries(listener: (batch: SummaryBatch) => void): () => void {
    this.summaryListeners.add(listener);
    return () => this.summaryListeners.delete(listener);
  }

  onFilterProgress(listener: (progress: FilterProgress) => void): () => void {
    this.filterListeners.add(listener);
    return () => this.filterListeners.delete(listener);
  }

  /** Listed rows read again after a schema change, slice by slice. */
  onReread(listener: (batch: RereadBatch) => void): () => void {
    this.rereadListeners.add(listener);
    return () => this.rereadListeners.delete(listener);
  }

  /** Sets the text / path filter; the search streams back as filter-progress for this generation. */
  filter(generation: number, text: string, path: string): void {
    this.post({ type: 'filter', generation, text, path });
  }

  /** What the worker must know of a connection before its frames: its negotiated subprotocol ('' when none), its URL where known. */
  connection(connectionId: string, subprotocol: string, url?: string): void {
    this.post({ type: 'connection', connectionId, subprotocol, ...(url ? { url } : {}) });
  }

  /** The live tail's frames (a sample, held apart from the capture): answered by `onTailRows`. Bytes are copied. */
  tail(frames: readonly IngestFrame[]): void {
    this.post({ type: 'tail', frames });
  }

  onTailRows(listener: (rows: TailRows) => void): () => void {
    this.tailListeners.add(listener);
    return () => this.tailListeners.delete(listener);
  }

  /** The frames whose rows are in the list's view: the worker reads those still waiting (a flood) now. */
  view(frameIds: readonly number[]): void {
    this.post({ type: 'view', frameIds });
  }

  /** Whether rows may wait to be read under a flood (not while the list filters by what rows say). */
  deferRows(allowed: boolean): void {
    this.post({ type: 'defer-rows', allowed });
  }

  /**
   * Hands frames to the worker; their buffers are transferred (the caller must not keep them).
   * A buffer moves when this message's frames fill it exactly: a frame's own buffer, or one
   * batch buffer the frames are consecutive views of (the panel's batches, one transfer
   * instead of thousands; such a batch goes packed, a few typed arrays instead of an object
   * per frame). A view into a buffer it does not fill is copied (the caller keeps that buffer).
   */
  /**
   * Hands a packed batch (a host's, with its frame ids) to the worker as it is: its buffer is
   * transferred when the bytes fill it (the caller must not keep it), else copied.
   */
  ingestPacked(packed: PackedIngest): void {
    const b = packed.bytes;
    const bytes =
      b.byteOffset === 0 && b.byteLength === b.buffer.byteLength && b.buffer instanceof ArrayBuffer ? b : b.slice();
    this.post({ type: 'ingest-packed', packed: { ...packed, bytes } }, [bytes.buffer as ArrayBuffer]);
  }

  ingest(frames: IngestFrame[]): void {
    const packed = packIngest(frames);
    if (packed) {
      this.post({ type: 'ingest-packed', packed }, [packed.bytes.buffer as ArrayBuffer]);
      return;
    }
    const views = new Map<ArrayBuffer, { end: number; tiled: boolean }>();
    for (const f of frames) {
      const buffer = f.data.buffer;
      if (!(buffer instanceof ArrayBuffer)) continue;
      const seen = views.get(buffer);
      // Views of one buffer must follow each other, from its start, to fill it.
      if (!seen) views.set(buffer, { end: f.data.byteOffset + f.data.byteLength, tiled: f.data.byteOffset === 0 });
      else
        [seen.tiled, seen.end] = [seen.tiled && f.data.byteOffset === seen.end, f.data.byteOffset + f.data.byteLength];
    }
    const transfer: Transferable[] = [];
    for (const [buffer, v] of views) if (v.tiled && v.end === buffer.byteLength) transfer.push(buffer);
    this.post({ type: 'ingest', frames }, transfer);
  }

  call<M extends keyof WorkerMethods>(
    method: M,
    params: WorkerMethods[M]['params'],
  ): Promise<WorkerMethods[M]['result']> {
    const callId = this.nextCallId++;
    return new Promise((resolve, reject) => {
      this.calls.set(callId, { resolve: resolve as (v: unknown) => void, reject });
      this.post({ type: 'call', callId, method, params });
    });
  }

  /** Starts a comparison; returns the cancel function. */
  compare(frameId: number, format: FormatChoice, nodeId: number, handlers: CompareHandlers): () => void {
    const jobId = this.nextJobId++;
    this.jobs.set(jobId, handlers);
    this.post({ type: 'compare', jobId, frameId, format, nodeId });
    return () => this.post({ type: 'cancel-compare', jobId });
  }

  /** The Compare tab is shown on this node: the worker warms the comparison lanes when it is large. */
  warmCompare(frameId: number, format: FormatChoice, nodeId: number): void {
    this.post({ type: 'warm-compare', frameId, format, nodeId });
  }

  /** Starts a whole-session comparison of the held frames in `scope`; returns the cancel function. */
  compareSession(
    scope: SessionScope,
    negotiated: Readonly<Record<string, string>>,
    handlers: SessionHandlers,
  ): () => void {
    const jobId = this.nextJobId++;
    this.sessionJobs.set(jobId, handlers);
    this.post({ type: 'session-compare', jobId, scope, negotiated });
    return () => this.post({ type: 'cancel-compare', jobId });
  }

  terminate(): void {
    this.lanes?.endAll();
    this.worker.terminate();
  }
}

/**
 * The app's worker, bundled by Vite from decode-worker.ts, and its comparison lanes, from
 * compare-lane-worker.ts (each its own chunk in dist/app/assets).
 */
export function startDecodeWorker(): WorkerClient {
  return new WorkerClient(
    new Worker(new URL('./decode-worker.ts', import.meta.url), { type: 'module', name: 'wirescope-decode' }),
    () =>
      new Worker(new URL('./compare-lane-worker.ts', import.meta.url), {
        type: 'module',
        name: 'wirescope-compare-lane',
      }),
  );
}
