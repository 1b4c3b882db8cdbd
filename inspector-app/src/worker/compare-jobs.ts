/**
 * The decode worker's comparisons: a node's re-encode comparison (compare-job.ts), the
 * Compare tab's warm-up on a large node, and the whole-session comparison
 * (session-compare-job.ts). Each runs as a job the page can cancel by its id; rows and the
 * end go back as messages. A large value is compared on lanes the page starts for the
 * worker when `lanes` is given (compare-lanes.ts), else on one lane, here.
 */
import type { FromWorker, ToWorker } from './api.js';
import type { WorkerHandlers } from './handlers.js';
import { runCompare, warmCompare, type CompareSink } from './compare-job.js';
import { LaneLinks, workerLanes } from './compare-lanes.js';
import { NodeValueMemo } from './node-value-memo.js';
import { framesOf, runSessionCompare } from './session-compare-job.js';
import { listReading } from './session-frame-reading.js';
import { loadedSchemaCodecFor } from './session-loaded-schema.js';

type Message<T extends ToWorker['type']> = Extract<ToWorker, { readonly type: T }>;

export interface CompareJobsOptions {
  readonly post: (message: FromWorker, transfer?: Transferable[]) => void;
  readonly handlers: WorkerHandlers;
  /** Lets other messages in between a session comparison's steps. */
  readonly yieldTo: (next: () => void) => void;
  /** The page starts comparison lanes when asked (`lane-open`, lane-host.ts); absent: one lane. */
  readonly lanes?: { readonly cores?: number };
}

export class CompareJobs {
  private readonly jobs = new Map<number, AbortController>();
  /** The value the Compare tab's warm-up built, for its Run (node-value-memo.ts). */
  private readonly values = new NodeValueMemo();
  private readonly laneLinks: LaneLinks | null;
  private readonly lanePool;

  constructor(private readonly options: CompareJobsOptions) {
    this.laneLinks = options.lanes ? new LaneLinks(options.post) : null;
    this.lanePool = workerLanes(this.laneLinks ? { host: this.laneLinks, cores: options.lanes?.cores } : {});
  }

  /** A node's comparison: a row per codec, then its end (an error when the frame is gone). */
  compare(message: Message<'compare'>): void {
    const { post, handlers } = this.options;
    const { jobId } = message;
    const index = handlers.store.decoded(message.frameId, message.format)?.index;
    if (!index || index.root < 0) {
      post({
        type: 'compare-end',
        jobId,
        cancelled: false,
        error: 'the frame is no longer held (evicted) or does not decode',
        markdown: '',
      });
      return;
    }
    const sink: CompareSink = {
      row: (row, done, total) => post({ type: 'compare-row', jobId, row, done, total }),
      end: (cancelled, error, markdown) => {
        this.jobs.delete(jobId);
        post({ type: 'compare-end', jobId, cancelled, error, markdown });
      },
    };
    void runCompare({
      index,
      nodeId: message.nodeId < 0 ? index.root : message.nodeId,
      signal: this.start(jobId),
      sink,
      title: `frame #${message.frameId}`,
      lanes: this.lanePool,
      values: this.values,
    });
  }

  /** Starts and warms the lanes on a large node's value, for a Run soon after; no answer. */
  warm(message: Message<'warm-compare'>): void {
    const index = this.options.handlers.store.decoded(message.frameId, message.format)?.index;
    if (index && index.root >= 0)
      void warmCompare(index, message.nodeId < 0 ? index.root : message.nodeId, this.lanePool, this.values);
  }

  /** The whole-session comparison of the frames in the message's scope. */
  session(message: Message<'session-compare'>): void {
    const { post, handlers, yieldTo } = this.options;
    const { jobId } = message;
    const frames = framesOf(handlers.store.all(), message.scope);
    void runSessionCompare(frames, {
      negotiated: message.negotiated,
      signal: this.start(jobId),
      sink: {
        progress: (progress) => post({ type: 'session-progress', jobId, progress }),
        rows: (rows) => post({ type: 'session-rows', jobId, rows }),
        end: (result) => {
          this.jobs.delete(jobId);
          post({ type: 'session-end', jobId, ...result });
        },
      },
      yieldTurn: () => new Promise<void>((resolve) => yieldTo(resolve)),
      read: listReading(handlers.store),
      loadedSchema: () => loadedSchemaCodecFor(handlers.store.schemas, frames),
    });
  }

  cancel(jobId: number): void {
    this.jobs.get(jobId)?.abort();
  }

  /** A lane the page started failed (an error in it, or it could not load). */
  laneFailed(laneId: number, reason: string): void {
    this.laneLinks?.failed(laneId, reason);
  }

  private start(jobId: number): AbortSignal {
    const controller = new AbortController();
    this.jobs.set(jobId, controller);
    return controller.signal;
  }
}
