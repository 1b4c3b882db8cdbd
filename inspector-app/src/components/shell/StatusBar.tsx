import type { ReactElement } from 'react';
import type { HeldConnection } from '../../protocol/messages.js';
import type { CaptureSnapshot, ConnectionState } from '../../state/capture-model.js';
import { shortConnectionUrl } from './connection-label.js';
import { formatBytes, formatTime, plural } from './format.js';

/** Connections shown (the newest); a page that opens thousands must not make the bar render them all. */
export const STATUS_CONNECTIONS = 8;

/** The last `n` values of a map, in order, without copying it. */
function lastValues<V>(map: ReadonlyMap<string, V>, n: number): V[] {
  const out: V[] = [];
  let skip = map.size - n;
  for (const v of map.values()) if (skip-- <= 0) out.push(v);
  return out;
}

/** Counts that must never be silent: evicted by the cap, dropped by the host. */
export function StatusBar(props: {
  snapshot: CaptureSnapshot;
  hostName: string;
  capBytes: number;
  onShowHeld?: () => void;
}): ReactElement {
  const { snapshot, hostName, capBytes, onShowHeld } = props;
  return (
    <div className="ws-status" role="status" aria-live="polite">
      {snapshot.hostHeld && (
        // A flood gets its own line: the held count, "Show now" and the rates stay whole in a
        // narrow docked panel instead of pushing the bar's other counts out of view.
        <div className="ws-status-row ws-status-flood" data-testid="flood-row">
          <span
            data-testid="held-notice"
            title={`${formatBytes(snapshot.hostHeld.bytes)} wait in the extension while the page floods, so the page keeps its CPU; nothing is dropped${snapshot.hostHeld.arriving !== undefined ? `\n${rate(snapshot.hostHeld.arriving)} arriving · ${rate(snapshot.shownPerSecond)} shown · ${rate(snapshot.hostHeld.heldPerSecond ?? 0)} held` : ''}\nthe list ends with a live tail: the newest frames of each connection, marked "live"`}
          >
            flood: {plural(snapshot.hostHeld.frames, 'frame')} held in the extension — shown when it calms{' '}
            {onShowHeld && (
              <button type="button" className="ws-link-button" onClick={onShowHeld}>
                Show now
              </button>
            )}
          </span>
          {snapshot.hostHeld?.arriving !== undefined && (
            <span
              data-testid="flood-rates"
              className="ws-status-shrink"
              title={`${rate(snapshot.hostHeld.arriving)} arriving · ${rate(snapshot.shownPerSecond)} shown · ${rate(snapshot.hostHeld.heldPerSecond ?? 0)} held: frames per second over the last second, arriving in the extension, listed here (the live tail while it holds), held for later`}
            >
              {rate(snapshot.hostHeld.arriving)} arriving · {rate(snapshot.shownPerSecond)} shown ·{' '}
              {rate(snapshot.hostHeld.heldPerSecond ?? 0)} held
            </span>
          )}
        </div>
      )}
      <div className="ws-status-row">
        <span data-testid="frame-count">
          {snapshot.visible.length === snapshot.rows.length
            ? plural(snapshot.rows.length, 'frame')
            : `${snapshot.visible.length.toLocaleString('en-US')} of ${plural(snapshot.rows.length, 'frame')}`}
          {snapshot.tail.length > 0 ? ` + ${snapshot.tail.length.toLocaleString('en-US')} live` : ''}
        </span>
        {snapshot.waitingRows > 0 && (
          <span
            data-testid="waiting-rows"
            title="under a flood, frames are listed first and read after it calms (rows in view are read at once): nothing is dropped"
          >
            {snapshot.waitingRows.toLocaleString('en-US')} to read
          </span>
        )}
        <span title={`raw frame bytes held in the decode worker (cap ${formatBytes(capBytes)})`}>
          {formatBytes(snapshot.bytesHeld)} / {formatBytes(capBytes)}
        </span>
        <span
          data-testid="evicted-count"
          className={snapshot.evictedTotal ? 'ws-warn' : undefined}
          title="frames evicted by the memory cap"
        >
          {snapshot.evictedTotal} evicted
        </span>
        {snapshot.droppedByHost > 0 && (
          <span data-testid="dropped-count" className="ws-warn" title={snapshot.dropReasons.join('; ')}>
            {snapshot.droppedByHost} lost before reaching the inspector ({snapshot.dropReasons.join('; ')})
          </span>
        )}
        {snapshot.debuggerCapture &&
          (snapshot.debuggerCapture.state !== 'off' || snapshot.debuggerCapture.message !== 'debugger capture off') && (
            <span
              data-testid="debugger-status"
              data-state={snapshot.debuggerCapture.state}
              className={snapshot.debuggerCapture.state === 'error' ? 'ws-warn' : undefined}
            >
              {snapshot.debuggerCapture.message}
            </span>
          )}
        {snapshot.uncaptured.length > 0 && (
          <span
            data-testid="uncaptured-notice"
            className="ws-warn"
            title={[
              ...snapshot.uncaptured.map(
                (u) =>
                  `${u.kind} ${u.url || '(script URL not known)'}${u.documentUrl ? ` (started by ${u.documentUrl})` : ''}`,
              ),
              ...new Set(snapshot.uncaptured.map((u) => u.reason)),
            ].join('\n')}
          >
            {plural(snapshot.uncaptured.length, 'worker')}: sockets not captured
          </span>
        )}
        {snapshot.connections.size > STATUS_CONNECTIONS && (
          <span data-testid="connections-more" title="the newest connections are shown">
            {plural(snapshot.connections.size - STATUS_CONNECTIONS, 'more connection', 'more connections')}
          </span>
        )}
        {lastValues(snapshot.connections, STATUS_CONNECTIONS).map((c, i, shown) => {
          const held = heldOf(snapshot, c.connectionId);
          return (
            <span
              key={c.connectionId}
              title={[c.url, c.detail, c.document ? `opened by ${c.document}` : '', missedNote(c)]
                .filter(Boolean)
                .join('\n')}
              data-testid="connection-status"
              className="ws-status-connection"
              data-status={c.status}
              data-document={c.document}
            >
              {shortConnectionUrl(c.url, shown[i - 1]?.url)}: {c.status}
              {c.detail && c.status !== 'open' ? ` (${c.detail})` : ''}
              {c.seenFrom !== undefined ? ` (${missedNote(c)})` : ''}
              {held && (
                <span
                  data-testid="connection-held"
                  title="frames of this connection held in the extension, and arriving"
                >
                  {' '}
                  · {held.frames.toLocaleString('en-US')} held, {rate(held.perSecond)}
                </span>
              )}
            </span>
          );
        })}
        <span className="ws-status-host" data-testid="status-host">
          {hostName}
        </span>
      </div>
    </div>
  );
}

/** Frames per second, e.g. "10,000/s". */
function rate(perSecond: number): string {
  return `${Math.round(perSecond).toLocaleString('en-US')}/s`;
}

/** What the host holds of a connection under a flood, when it says. */
function heldOf(snapshot: CaptureSnapshot, connectionId: string): HeldConnection | undefined {
  return snapshot.hostHeld?.connections?.find((c) => c.connectionId === connectionId);
}

/** A connection seen only after it opened (a late debugger attach) says what it missed. */
function missedNote(c: ConnectionState): string {
  return c.seenFrom === undefined
    ? ''
    : `opened before capture started: frames before ${formatTime(c.seenFrom).slice(0, 8)} not seen`;
}
