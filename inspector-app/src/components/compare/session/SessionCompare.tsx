import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactElement } from 'react';
import {
  perConnection,
  perDirection,
  totalsOf,
  DIRECTION_LABEL,
} from '../../../../../codecs/compare/session/groups.js';
import { leftOutText } from '../../../../../codecs/compare/session/left-out.js';
import {
  sessionReportHtml,
  sessionReportMarkdown,
  type MachineInfo,
  type SessionReportInput,
} from '../../../../../codecs/compare/session/report.js';
import type { SessionScope } from '../../../worker/api.js';
import type { WorkerClient } from '../../../worker/client.js';
import { copyText, type ClipboardLike } from '../../shell/copyText.js';
import { formatBytes } from '../format.js';
import { SessionChart } from './SessionChart.js';
import { SessionTable } from './SessionTable.js';
import { IDLE_SESSION, type SessionRun } from './session-run.js';
import { navigatorMachine } from './machine.js';

export interface SessionConnection {
  readonly connectionId: string;
  /** The list's short label (#1, #2, …). */
  readonly label: string;
  readonly url: string;
  /** The negotiated Sec-WebSocket-Extensions; undefined when the capture does not record it. */
  readonly extensions?: string;
}

/** What the session view needs of the app: the connections, the list's filter result, the frames held. */
export interface SessionSource {
  readonly run: SessionRun;
  readonly connections: readonly SessionConnection[];
  /** Ids the list's filter shows; null when no filter is set. */
  readonly filteredIds: readonly number[] | null;
  /** Frames held (the whole capture). */
  readonly heldFrames: number;
  /**
   * The frames held and shown in the list (not those that arrived while paused), in arrival
   * order: the comparison covers exactly these (lost placeholders, which hold no bytes,
   * aside), so its count matches the list's.
   */
  readonly shown?: readonly { readonly frameId: number; readonly connectionId: string; readonly lost?: string }[];
  readonly machine?: MachineInfo;
  /** Offers text as a download; default: an <a download> on a Blob. */
  readonly save?: (text: string, name: string, type: string) => void;
}

type ScopeChoice = { kind: 'all' } | { kind: 'filter' } | { kind: 'connection'; connectionId: string };

const TOAST_MS = 1600;
const defaultClipboard = (): ClipboardLike | null =>
  typeof navigator !== 'undefined' && navigator.clipboard ? navigator.clipboard : null;

function saveText(text: string, name: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const choiceValue = (c: ScopeChoice): string => (c.kind === 'connection' ? `connection:${c.connectionId}` : c.kind);
function parseChoice(value: string): ScopeChoice {
  if (value.startsWith('connection:')) return { kind: 'connection', connectionId: value.slice('connection:'.length) };
  return value === 'filter' ? { kind: 'filter' } : { kind: 'all' };
}

/**
 * The whole-session comparison: pick the frames (a connection, the filter's result, the
 * whole capture), run it in the worker (progress, cancel), read the totals per codec, per
 * direction and per connection, the chart, and copy or save the report.
 */
export function SessionCompare({
  client,
  source,
  currentConnectionId,
  clipboard = defaultClipboard(),
}: {
  client: Pick<WorkerClient, 'compareSession'>;
  source: SessionSource;
  currentConnectionId?: string;
  clipboard?: ClipboardLike | null;
}): ReactElement {
  const { run, connections, filteredIds } = source;
  // Derived here, only while the session view is shown (not on every list update of the app).
  const shown = useMemo(() => source.shown?.filter((f) => f.lost === undefined), [source.shown]);
  const heldFrames = shown ? shown.length : source.heldFrames;
  const shownOf = useCallback(
    (connectionId: string) => (shown ? shown.filter((f) => f.connectionId === connectionId) : null),
    [shown],
  );
  const state = useSyncExternalStore(run.subscribe, run.get) ?? IDLE_SESSION;
  const [choice, setChoice] = useState<ScopeChoice>(() =>
    currentConnectionId !== undefined && connections.some((c) => c.connectionId === currentConnectionId)
      ? { kind: 'connection', connectionId: currentConnectionId }
      : { kind: 'all' },
  );
  const [toast, setToast] = useState<string | null>(null);
  const toastTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(toastTimer.current), []);
  const machine = source.machine ?? navigatorMachine();

  const chosenConnections =
    choice.kind === 'connection' ? connections.filter((c) => c.connectionId === choice.connectionId) : connections;
  const scopeLabel =
    choice.kind === 'all'
      ? `the whole capture (${formatBytes(heldFrames)} frames held)`
      : choice.kind === 'filter'
        ? `the current filter's ${formatBytes(filteredIds?.length ?? 0)} frames`
        : (() => {
            const c = chosenConnections[0];
            return c ? `connection ${c.label} ${c.url}` : 'a connection no longer listed';
          })();
  const scopeFrames =
    choice.kind === 'filter'
      ? (filteredIds?.length ?? 0)
      : choice.kind === 'all'
        ? heldFrames
        : (shownOf(choice.connectionId)?.length ?? null);

  const start = useCallback(() => {
    // With the shown frames known, the scope names them: frames that arrived while paused are not compared.
    const scope: SessionScope =
      choice.kind === 'filter'
        ? { kind: 'frames', frameIds: filteredIds ?? [] }
        : shown
          ? {
              kind: 'frames',
              frameIds: (choice.kind === 'all' ? shown : (shownOf(choice.connectionId) ?? [])).map((f) => f.frameId),
            }
          : choice.kind === 'all'
            ? { kind: 'all' }
            : { kind: 'connection', connectionId: choice.connectionId };
    const negotiated: Record<string, string> = {};
    for (const c of chosenConnections) if (c.extensions !== undefined) negotiated[c.connectionId] = c.extensions;
    run.start(client, scope, negotiated, scopeLabel);
  }, [choice, filteredIds, shown, shownOf, chosenConnections, run, client, scopeLabel]);

  const report = useMemo((): SessionReportInput | null => {
    if (state.phase !== 'done' && state.phase !== 'cancelled') return null;
    if (state.rows.length === 0) return null;
    const ids = new Set(state.rows.map((r) => r.connectionId).filter((id): id is string => id !== null));
    return {
      title: 'wirescope session comparison',
      scope: state.scopeLabel + (state.phase === 'cancelled' ? ' (cancelled: partial)' : ''),
      rows: state.rows,
      chart: state.chart,
      connections: connections
        .filter((c) => ids.has(c.connectionId))
        .map((c) => ({ connectionId: c.connectionId, url: c.url, extensions: c.extensions ?? null })),
      machine,
      engine: 'fflate (in the browser; zlib, as ws and Chromium run it, differs by a few percent)',
      generatedAt: new Date().toISOString(),
      elapsedMs: state.workerMs,
    };
  }, [state, connections, machine]);

  const say = (text: string) => {
    clearTimeout(toastTimer.current);
    setToast(text);
    toastTimer.current = setTimeout(() => setToast(null), TOAST_MS);
  };
  const copy = async () => {
    if (!report) return;
    say((await copyText(sessionReportMarkdown(report), clipboard)) ? 'Copied the report as Markdown' : 'Copy failed');
  };
  const save = (kind: 'html' | 'md') => {
    if (!report) return;
    const write = source.save ?? saveText;
    if (kind === 'html') write(sessionReportHtml(report), 'wirescope-session.html', 'text/html');
    else write(sessionReportMarkdown(report), 'wirescope-session.md', 'text/markdown');
  };

  const running = state.phase === 'running';
  const p = state.progress;
  const pct = p && p.total > 0 ? Math.min(100, (p.done / p.total) * 100) : 0;
  const totals = totalsOf(state.rows);
  const directions = perDirection(state.rows);
  const byConnection = perConnection(state.rows);
  const knownHeaders = Object.entries(state.negotiated);
  const nameOf = (id: string) => {
    const c = connections.find((x) => x.connectionId === id);
    return c ? `Connection ${c.label} ${c.url}` : `Connection ${id}`;
  };

  if (heldFrames === 0) {
    return (
      <p className="ws-note" data-testid="session-empty">
        No frames are held yet: connect to a server or open a capture file (HAR or wirescope capture), then compare the
        session here.
      </p>
    );
  }

  return (
    <div className="ws-session" data-testid="session-compare">
      <div className="ws-toolbar">
        <label>
          Frames{' '}
          <select
            value={choiceValue(choice)}
            onChange={(e) => setChoice(parseChoice(e.target.value))}
            disabled={running}
            data-testid="session-scope"
          >
            <option value="all">Whole capture ({formatBytes(heldFrames)} frames)</option>
            <option value="filter" disabled={filteredIds === null}>
              {filteredIds === null
                ? 'Current filter (no filter set)'
                : `Current filter (${formatBytes(filteredIds.length)} frames)`}
            </option>
            {connections.map((c) => (
              <option key={c.connectionId} value={`connection:${c.connectionId}`}>
                Connection {c.label} {c.url.length > 60 ? `${c.url.slice(0, 57)}…` : c.url}
                {shown ? ` (${formatBytes(shownOf(c.connectionId)?.length ?? 0)} frames)` : ''}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="ws-button ws-primary"
          onClick={start}
          disabled={running || scopeFrames === 0}
          data-testid="session-run"
        >
          Compare the session
        </button>
        {running ? (
          <button type="button" className="ws-button" onClick={() => run.cancel()} data-testid="session-cancel">
            Cancel
          </button>
        ) : null}
        <button
          type="button"
          className="ws-button"
          onClick={() => void copy()}
          disabled={!report}
          data-testid="session-copy"
        >
          Copy report (Markdown)
        </button>
        <button
          type="button"
          className="ws-button"
          onClick={() => save('html')}
          disabled={!report}
          data-testid="session-save-html"
        >
          Save report (HTML)
        </button>
        <button
          type="button"
          className="ws-button"
          onClick={() => save('md')}
          disabled={!report}
          data-testid="session-save-md"
        >
          Save report (Markdown)
        </button>
      </div>
      {scopeFrames === 0 ? (
        <p className="ws-note" data-testid="session-scope-empty">
          {choice.kind === 'filter'
            ? 'The filter matches no frames: change or clear it, or pick a connection or the whole capture.'
            : 'No frames to compare.'}
        </p>
      ) : null}
      {running ? (
        <div className="ws-progress">
          <div
            className="ws-progress-track"
            role="progressbar"
            aria-label="Session comparison progress"
            aria-valuemin={0}
            aria-valuemax={p?.total ?? 0}
            aria-valuenow={p?.done ?? 0}
          >
            <div className="ws-progress-fill" style={{ width: `${pct}%` }} />
          </div>
          <span data-testid="session-progress">
            {p
              ? `${p.phase === 'decode' ? 'decoding' : `encoding ${p.codec ?? ''}`} ${formatBytes(p.done)} / ${formatBytes(p.total)}`
              : 'starting…'}
          </span>
        </div>
      ) : null}
      <p className="ws-note" role="status" data-testid="session-status">
        {state.phase === 'idle'
          ? 'Compares what the chosen frames cost per codec: message sizes, each message gzipped / deflated, and on the wire with WebSocket frame headers and permessage-deflate (RFC 7692) simulated in the worker.'
          : state.phase === 'running'
            ? `Comparing ${state.scopeLabel}…`
            : state.phase === 'cancelled'
              ? `Cancelled: ${totals.length} codec totals came in before the cancel.`
              : state.phase === 'error'
                ? 'The comparison stopped on an error.'
                : `Compared ${formatBytes(state.messages)} messages of ${state.scopeLabel} in ${((state.workerMs ?? 0) / 1000).toFixed(2)} s (worker).`}
      </p>
      {state.error !== null ? (
        <p className="ws-error" role="alert">
          {state.error}
        </p>
      ) : null}
      {state.phase !== 'idle' ? (
        <p className="ws-note" data-testid="session-negotiated">
          {knownHeaders.length === 0
            ? 'The capture does not record the negotiated Sec-WebSocket-Extensions: both permessage-deflate with and without context takeover are shown.'
            : knownHeaders
                .map(([id, h]) =>
                  h === ''
                    ? `${nameOf(id)} negotiated no permessage-deflate: "wire, as negotiated" shows its "wire, plain" figures.`
                    : `${nameOf(id)} negotiated "${h}" (recorded in the capture): "wire, as negotiated" uses it.`,
                )
                .join(' ')}
        </p>
      ) : null}
      {totals.length > 0 ? (
        <SessionTable
          rows={totals}
          caption="Session totals per codec"
          testId="session-totals"
          hideNegotiated={knownHeaders.length === 0}
        />
      ) : null}
      {totals.some((r) => r.left > 0) ? (
        <details className="ws-session-left" data-testid="session-left">
          <summary>
            Messages left out (
            {totals
              .filter((r) => r.left > 0)
              .map((r) => `${r.label}: ${formatBytes(r.left)}`)
              .join(', ')}
            )
          </summary>
          <ul>
            {totals
              .filter((r) => r.left > 0)
              .map((r) => (
                <li key={r.codec}>
                  {/* Grouped by reason with counts, as the report lists them (left-out.ts, one function for both). */}
                  {r.label}: {leftOutText(r) || 'no reason recorded'}
                </li>
              ))}
          </ul>
        </details>
      ) : null}
      {state.chart ? <SessionChart data={state.chart} /> : null}
      {directions.map((d) => (
        <SessionTable
          key={d.direction}
          rows={d.rows}
          caption={`All connections, ${DIRECTION_LABEL[d.direction]}`}
          testId={`session-direction-${d.direction}`}
          hideNegotiated={knownHeaders.length === 0}
        />
      ))}
      {byConnection.length > 0 ? (
        <details className="ws-session-connections" data-testid="session-connections">
          <summary>
            Per connection ({byConnection.length}
            {byConnection.length > 50 ? ', the first 50 shown' : ''})
          </summary>
          {byConnection.slice(0, 50).map((c) => (
            <div key={c.connectionId}>
              <SessionTable
                rows={c.both}
                caption={`${nameOf(c.connectionId)}, both directions`}
                hideNegotiated={state.negotiated[c.connectionId] === undefined}
              />
              {c.directions.map((d) => (
                <SessionTable
                  key={d.direction}
                  rows={d.rows}
                  caption={`${nameOf(c.connectionId)}, ${DIRECTION_LABEL[d.direction]}`}
                  hideNegotiated={state.negotiated[c.connectionId] === undefined}
                />
              ))}
            </div>
          ))}
        </details>
      ) : null}
      {toast !== null ? (
        <div className="ws-toast" role="status" aria-live="polite" data-testid="session-toast">
          {toast}
        </div>
      ) : null}
    </div>
  );
}
