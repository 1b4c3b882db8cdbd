/**
 * A whole-session comparison run, kept outside the Compare tab (which remounts with every
 * frame): the scope it covers, the rows streamed in, progress, the chart and the worker's
 * time. Listeners are told of every change (useSyncExternalStore); a new run cancels the
 * one before.
 */
import type { SessionProgress } from '../../../../../codecs/compare/session/session.js';
import type { SessionRow } from '../../../../../codecs/compare/session/groups.js';
import type { SessionChartData } from '../../../../../codecs/compare/session/cumulative.js';
import type { SessionScope } from '../../../worker/api.js';
import type { WorkerClient } from '../../../worker/client.js';

export type SessionPhase = 'idle' | 'running' | 'done' | 'cancelled' | 'error';

export interface SessionRunState {
  readonly phase: SessionPhase;
  /** What was compared, in words ("connection #1 wss://…"). */
  readonly scopeLabel: string;
  readonly rows: readonly SessionRow[];
  readonly progress: SessionProgress | null;
  readonly chart: SessionChartData | null;
  readonly error: string | null;
  readonly messages: number;
  readonly workerMs: number | null;
  /** Connection id → negotiated header, for the connections of this run whose header is known. */
  readonly negotiated: Readonly<Record<string, string>>;
}

export const IDLE_SESSION: SessionRunState = {
  phase: 'idle',
  scopeLabel: '',
  rows: [],
  progress: null,
  chart: null,
  error: null,
  messages: 0,
  workerMs: null,
  negotiated: {},
};

export type CompareMode = 'frame' | 'session';

export class SessionRun {
  private state: SessionRunState = IDLE_SESSION;
  private cancelJob: (() => void) | null = null;
  private job = 0;
  private modeNow: CompareMode = 'frame';
  private readonly listeners = new Set<() => void>();

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  get = (): SessionRunState => this.state;
  mode = (): CompareMode => this.modeNow;

  setMode(mode: CompareMode): void {
    this.modeNow = mode;
    this.emit();
  }

  private set(next: SessionRunState): void {
    this.state = next;
    this.emit();
  }

  private emit(): void {
    for (const l of this.listeners) l();
  }

  start(
    client: Pick<WorkerClient, 'compareSession'>,
    scope: SessionScope,
    negotiated: Readonly<Record<string, string>>,
    scopeLabel: string,
  ): void {
    this.cancel();
    const job = ++this.job;
    const live = () => job === this.job;
    this.set({ ...IDLE_SESSION, phase: 'running', scopeLabel, negotiated });
    const rows: SessionRow[] = [];
    this.cancelJob = client.compareSession(scope, negotiated, {
      onProgress: (progress) => live() && this.set({ ...this.state, progress }),
      onRows: (batch) => {
        if (!live()) return;
        rows.push(...batch);
        this.set({ ...this.state, rows: rows.slice() });
      },
      onEnd: (end) => {
        if (!live()) return;
        this.cancelJob = null;
        this.set({
          ...this.state,
          phase: end.error !== null ? 'error' : end.cancelled ? 'cancelled' : 'done',
          chart: end.chart,
          error: end.error,
          messages: end.messages,
          workerMs: end.workerMs,
        });
      },
    });
  }

  cancel(): void {
    if (this.state.phase !== 'running' || !this.cancelJob) return;
    this.cancelJob();
    this.cancelJob = null;
    // The worker confirms with session-end (cancelled); until then the rows so far stay.
  }

  /** Forgets the run (a cleared capture). */
  reset(): void {
    this.cancel();
    this.job++;
    this.set(IDLE_SESSION);
  }
}
