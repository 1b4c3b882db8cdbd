import { useCallback, useEffect, useMemo, useRef, useState, type ReactElement } from 'react';
import type { CompareRowView, FormatChoice } from '../../worker/api.js';
import type { WorkerClient } from '../../worker/client.js';
import { CompareCharts } from './CompareCharts.js';
import { CompareTable } from './CompareTable.js';
import { copyText, type ClipboardLike } from '../shell/copyText.js';
import { formatBytes, sortRows, type SortKey, type SortState } from './format.js';
import './detail.css';

/** codecs/compare's registry size; the worker's `total` replaces it once rows arrive. */
const CODEC_COUNT = 16;
const TOAST_MS = 1600;

export interface CompareTabProps {
  readonly client: Pick<WorkerClient, 'compare'>;
  readonly frameId: number;
  readonly format: FormatChoice;
  readonly nodeId: number;
  /** JSON path of the node (`$.users`); '' or '$' means the whole frame. */
  readonly nodeLabel: string;
  /** Byte size of the node in the frame's own encoding: the "vs. frame" baseline. */
  readonly originalSize: number;
  /** Defaults to `navigator.clipboard`; the copy falls back to execCommand without it. */
  readonly clipboard?: ClipboardLike | null;
}

type Phase = 'idle' | 'running' | 'done' | 'cancelled' | 'error';

interface RunState {
  /** The frame / format / node this state belongs to: anything else shows as idle. */
  readonly key: string;
  readonly phase: Phase;
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

const idle = (key: string): RunState => ({ key, phase: 'idle', rows: [], done: 0, total: CODEC_COUNT, error: null, markdown: '' });

const defaultClipboard = (): ClipboardLike | null => (typeof navigator !== 'undefined' && navigator.clipboard ? navigator.clipboard : null);

/** Re-encode comparison of the selected node in all codecs: run on demand, cancellable. */
export function CompareTab({ client, frameId, format, nodeId, nodeLabel, originalSize, clipboard = defaultClipboard() }: CompareTabProps): ReactElement {
  const key = `${frameId}:${format}:${nodeId}`;
  const [stored, setState] = useState<RunState>(() => idle(key));
  const state = stored.key === key ? stored : idle(key);
  const [sort, setSort] = useState<SortState>({ key: 'size', dir: 'asc' });
  const [toast, setToast] = useState<string | null>(null);
  const jobRef = useRef<Job | null>(null);
  const toastTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // A new frame / node (or unmounting) cancels the running job; its late messages are ignored.
  useEffect(
    () => () => {
      const job = jobRef.current;
      jobRef.current = null;
      if (job?.running) job.cancel();
    },
    [client, key],
  );
  useEffect(() => () => clearTimeout(toastTimer.current), []);

  const run = useCallback(() => {
    const previous = jobRef.current;
    if (previous?.running) previous.cancel();
    const job: Job = { cancel: () => {}, acceptRows: true, running: true };
    jobRef.current = job;
    setState({ ...idle(key), phase: 'running' });
    job.cancel = client.compare(frameId, format, nodeId, {
      onRow(row, done, total) {
        if (jobRef.current !== job || !job.acceptRows) return;
        setState((s) => (s.key === key ? { ...s, rows: [...s.rows, row], done, total } : s));
      },
      onEnd(cancelled, error, markdown) {
        job.running = false;
        if (jobRef.current !== job) return;
        setState((s) => {
          if (s.key !== key) return s;
          // An aborted run may end with the abort's own error: the cancel note says it all.
          if (s.phase === 'cancelled' || cancelled) return { ...s, phase: 'cancelled', error: null, markdown };
          return { ...s, phase: error !== null ? 'error' : 'done', error, markdown };
        });
      },
    });
  }, [client, frameId, format, nodeId, key]);

  const cancel = useCallback(() => {
    const job = jobRef.current;
    if (!job?.running) return;
    job.acceptRows = false;
    job.cancel();
    setState((s) => (s.key === key ? { ...s, phase: 'cancelled' } : s));
  }, [key]);

  const copy = useCallback(async () => {
    const ok = await copyText(state.markdown, clipboard);
    clearTimeout(toastTimer.current);
    setToast(ok ? 'Copied as Markdown' : 'Copy failed');
    toastTimer.current = setTimeout(() => setToast(null), TOAST_MS);
  }, [state.markdown, clipboard]);

  const onSort = useCallback((column: SortKey) => {
    setSort((s) => (s.key === column ? { key: column, dir: s.dir === 'asc' ? 'desc' : 'asc' } : { key: column, dir: column === 'encode' || column === 'decode' ? 'desc' : 'asc' }));
  }, []);

  const rows = useMemo(() => sortRows(state.rows, sort), [state.rows, sort]);
  const scope = nodeLabel.trim() === '' || nodeLabel.trim() === '$' ? 'of the whole frame' : `of ${nodeLabel}`;
  const running = state.phase === 'running';
  const pct = state.total > 0 ? Math.min(100, (state.done / state.total) * 100) : 0;

  return (
    <section className="ws-detail" data-testid="compare-tab" aria-label="Codec comparison">
      <div className="ws-toolbar">
        <button type="button" className="ws-button ws-primary" onClick={run} disabled={running} aria-label={`Run comparison ${scope}`}>
          {/* One wording before and after a run: the visible text is the accessible name. */}
          Run comparison {scope}
        </button>
        {running ? (
          <button type="button" className="ws-button" onClick={cancel} aria-label="Cancel comparison">
            Cancel
          </button>
        ) : null}
        <button type="button" className="ws-button" onClick={copy} disabled={running || state.markdown === ''} aria-label="Copy comparison as Markdown">
          Copy comparison as Markdown
        </button>
        <span className="ws-muted">original: {formatBytes(originalSize)} B</span>
      </div>
      {running ? (
        <div className="ws-progress">
          <div
            className="ws-progress-track"
            role="progressbar"
            aria-label="Comparison progress"
            aria-valuemin={0}
            aria-valuemax={state.total}
            aria-valuenow={state.done}
          >
            <div className="ws-progress-fill" style={{ width: `${pct}%` }} />
          </div>
          <span data-testid="compare-progress">
            {state.done} / {state.total} codecs
          </span>
        </div>
      ) : null}
      <p className="ws-note" role="status" data-testid="compare-status">
        {state.phase === 'idle'
          ? 'Encodes the value in every codec and times it; this takes a few seconds on big frames.'
          : state.phase === 'cancelled'
            ? `cancelled after ${state.rows.length} codecs`
            : state.phase === 'done' || state.phase === 'error'
              ? `${state.rows.length} codecs compared`
              : ''}
      </p>
      {state.error !== null ? (
        <p className="ws-error" role="alert">
          {state.error}
        </p>
      ) : null}
      {state.rows.length > 0 ? (
        <>
          <CompareTable rows={rows} originalSize={originalSize} sort={sort} onSort={onSort} />
          <CompareCharts rows={rows} />
        </>
      ) : null}
      {toast !== null ? (
        <div className="ws-toast" role="status" aria-live="polite" data-testid="compare-toast">
          {toast}
        </div>
      ) : null}
    </section>
  );
}
