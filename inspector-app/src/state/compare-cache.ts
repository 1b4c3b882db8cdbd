import type { CompareRowView, FormatChoice } from '../worker/api.js';
import type { WorkerClient } from '../worker/client.js';
import { copyableMarkdown } from './compare-markdown.js';

/** codecs/compare's registry size; the worker's `total` replaces it once rows arrive. */
export const CODEC_COUNT = 16;

export type ComparePhase = 'idle' | 'running' | 'done' | 'cancelled' | 'error';

export interface CompareRun {
  readonly phase: ComparePhase;
  readonly rows: readonly CompareRowView[];
  readonly done: number;
  readonly total: number;
  readonly error: string | null;
  readonly markdown: string;
}

interface Job {
  cancel: () => void;
  acceptRows: boolean;
  running: boolean;
}

export const compareKey = (frameId: number, format: FormatChoice, nodeId: number) => `${frameId}:${format}:${nodeId}`;
const frameOfKey = (key: string) => Number(key.slice(0, key.indexOf(':')));

/**
 * Comparison runs by frame / format / node, kept outside the Compare tab: a run goes on while
 * the user looks at another tab or frame, and its result is there on return, until the frame
 * is evicted (retainFrames). Listeners are told of every change (useSyncExternalStore).
 */
export class CompareCache {
  private readonly runs = new Map<string, CompareRun>();
  private readonly jobs = new Map<string, Job>();
  private readonly listeners = new Set<() => void>();

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  get(key: string): CompareRun | undefined {
    return this.runs.get(key);
  }

  private set(key: string, update: (run: CompareRun) => CompareRun): void {
    const run = this.runs.get(key);
    if (!run) return;
    this.runs.set(key, update(run));
    for (const l of this.listeners) l();
  }

  /** Starts (or restarts) the comparison of one node; a run already going for it is cancelled. */
  run(client: Pick<WorkerClient, 'compare'>, frameId: number, format: FormatChoice, nodeId: number): void {
    const key = compareKey(frameId, format, nodeId);
    const previous = this.jobs.get(key);
    if (previous?.running) previous.cancel();
    const job: Job = { cancel: () => {}, acceptRows: true, running: true };
    this.jobs.set(key, job);
    this.runs.set(key, { phase: 'running', rows: [], done: 0, total: CODEC_COUNT, error: null, markdown: '' });
    for (const l of this.listeners) l();
    job.cancel = client.compare(frameId, format, nodeId, {
      onRow: (row, done, total) => {
        if (this.jobs.get(key) !== job || !job.acceptRows) return;
        this.set(key, (s) => ({ ...s, rows: [...s.rows, row], done, total }));
      },
      onEnd: (cancelled, error, markdown) => {
        job.running = false;
        if (this.jobs.get(key) !== job) return;
        // An aborted run may end with the abort's own error: the cancel note says it all.
        // Its Markdown says it is partial, and a table without rows is nothing to copy.
        this.set(key, (s) =>
          s.phase === 'cancelled' || cancelled
            ? { ...s, phase: 'cancelled', error: null, markdown: copyableMarkdown(markdown, true, s.total) }
            : {
                ...s,
                phase: error !== null ? 'error' : 'done',
                error,
                markdown: copyableMarkdown(markdown, false, s.total),
              },
        );
      },
    });
  }

  /** Stops a running comparison; rows still in flight are ignored, the end still brings its Markdown. */
  cancel(key: string): void {
    const job = this.jobs.get(key);
    if (!job?.running) return;
    job.acceptRows = false;
    job.cancel();
    this.set(key, (s) => ({ ...s, phase: 'cancelled' }));
  }

  /** Drops the runs of frames no longer held (cancelling any still going). */
  retainFrames(keep: (frameId: number) => boolean): void {
    let changed = false;
    for (const key of [...this.runs.keys()]) {
      if (keep(frameOfKey(key))) continue;
      const job = this.jobs.get(key);
      if (job?.running) job.cancel();
      this.jobs.delete(key);
      this.runs.delete(key);
      changed = true;
    }
    if (changed) for (const l of this.listeners) l();
  }
}
