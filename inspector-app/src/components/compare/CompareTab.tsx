import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactElement } from 'react';
import type { FormatChoice } from '../../worker/api.js';
import type { WorkerClient } from '../../worker/client.js';
import { CompareCharts } from './CompareCharts.js';
import { CompareTable } from './CompareTable.js';
import { copyText, type ClipboardLike } from '../shell/copyText.js';
import { formatBytes, sortRows, type SortKey, type SortState } from './format.js';
import { CODEC_COUNT, CompareCache, compareKey, type CompareRun } from '../../state/compare-cache.js';
import './detail.css';

const TOAST_MS = 1600;
/** How long a node stays shown before the lanes are warmed for it (see the effect below). */
export const WARM_AFTER_MS = 150;

export interface CompareTabProps {
  readonly client: Pick<WorkerClient, 'compare' | 'warmCompare'>;
  readonly frameId: number;
  readonly format: FormatChoice;
  readonly nodeId: number;
  /** JSON path of the node (`$.users`); '' or '$' means the whole frame. */
  readonly nodeLabel: string;
  /** Byte size of the node in the frame's own encoding: the "vs. frame" baseline. */
  readonly originalSize: number;
  /** Defaults to `navigator.clipboard`; the copy falls back to execCommand without it. */
  readonly clipboard?: ClipboardLike | null;
  /** Where runs live beyond this tab's mount (the app keeps one per capture); default: this mount's own. */
  readonly cache?: CompareCache;
}

const codecCount = (n: number): string => `${n} ${n === 1 ? 'codec' : 'codecs'}`;

const idle: CompareRun = { phase: 'idle', rows: [], done: 0, total: CODEC_COUNT, error: null, markdown: '' };

const defaultClipboard = (): ClipboardLike | null =>
  typeof navigator !== 'undefined' && navigator.clipboard ? navigator.clipboard : null;

/** Re-encode comparison of the selected node in all codecs: run on demand, cancellable. */
export function CompareTab({
  client,
  frameId,
  format,
  nodeId,
  nodeLabel,
  originalSize,
  clipboard = defaultClipboard(),
  cache: sharedCache,
}: CompareTabProps): ReactElement {
  const key = compareKey(frameId, format, nodeId);
  const [ownCache] = useState(() => new CompareCache());
  const cache = sharedCache ?? ownCache;
  const state = useSyncExternalStore(cache.subscribe, () => cache.get(key)) ?? idle;
  const [sort, setSort] = useState<SortState>({ key: 'size', dir: 'asc' });
  const [toast, setToast] = useState<string | null>(null);
  const toastTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // Another node while shown cancels the run of the one before; leaving the tab does not.
  const shownKey = useRef(key);
  useEffect(() => {
    if (shownKey.current !== key) cache.cancel(shownKey.current);
    shownKey.current = key;
  }, [cache, key]);
  useEffect(() => () => clearTimeout(toastTimer.current), []);

  // Shown on a node: the worker starts and warms the comparison lanes if it is large, so a
  // Run soon after meets them ready (worker/compare-job.ts warmCompare). Asked after a short
  // pause: stepping through rows with this tab open would otherwise build and send every
  // large row's value in passing.
  useEffect(() => {
    const timer = setTimeout(() => client.warmCompare(frameId, format, nodeId), WARM_AFTER_MS);
    return () => clearTimeout(timer);
  }, [client, frameId, format, nodeId]);

  const run = useCallback(() => cache.run(client, frameId, format, nodeId), [cache, client, frameId, format, nodeId]);
  const cancel = useCallback(() => cache.cancel(key), [cache, key]);

  const copy = useCallback(async () => {
    const ok = await copyText(state.markdown, clipboard);
    clearTimeout(toastTimer.current);
    setToast(ok ? 'Copied as Markdown' : 'Copy failed');
    toastTimer.current = setTimeout(() => setToast(null), TOAST_MS);
  }, [state.markdown, clipboard]);

  const onSort = useCallback((column: SortKey) => {
    setSort((s) =>
      s.key === column
        ? { key: column, dir: s.dir === 'asc' ? 'desc' : 'asc' }
        : { key: column, dir: column === 'encode' || column === 'decode' ? 'desc' : 'asc' },
    );
  }, []);

  const rows = useMemo(() => sortRows(state.rows, sort), [state.rows, sort]);
  const scope = nodeLabel.trim() === '' || nodeLabel.trim() === '$' ? 'of the whole frame' : `of ${nodeLabel}`;
  const running = state.phase === 'running';
  const pct = state.total > 0 ? Math.min(100, (state.done / state.total) * 100) : 0;

  return (
    <section className="ws-detail" data-testid="compare-tab" aria-label="Codec comparison">
      <div className="ws-toolbar">
        <button
          type="button"
          className="ws-button ws-primary"
          onClick={run}
          disabled={running}
          aria-label={`Run comparison ${scope}`}
        >
          {/* One wording before and after a run: the visible text is the accessible name. */}
          Run comparison {scope}
        </button>
        {running ? (
          <button type="button" className="ws-button" onClick={cancel} aria-label="Cancel comparison">
            Cancel
          </button>
        ) : null}
        <button
          type="button"
          className="ws-button"
          onClick={copy}
          disabled={running || state.markdown === ''}
          aria-label="Copy comparison as Markdown"
        >
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
            ? `cancelled after ${codecCount(state.rows.length)}`
            : state.phase === 'done' || state.phase === 'error'
              ? `${codecCount(state.rows.length)} compared`
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
