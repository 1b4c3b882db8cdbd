import { useEffect, useRef, useState, type ReactElement } from 'react';
import type { ConnectionState, ListFilters, SearchState } from '../../state/capture-model.js';
import { parsePath } from '../../worker/path-filter.js';
import { FRAME_FORMATS } from '../../../../codecs/core/frame-formats.js';
import { shortConnectionUrl } from '../shell/connection-label.js';

export const FORMAT_OPTIONS = ['all', ...FRAME_FORMATS, 'error', 'unknown', 'empty'] as const;

/** The framing protocols the recognizers name (codecs/protocols), and 'none'. */
export const PROTOCOL_OPTIONS = [
  'all',
  'socket.io',
  'engine.io',
  'phoenix',
  'graphql-ws',
  'subscriptions-transport-ws',
  'centrifugo',
  'wamp',
  'stomp',
  'mqtt',
  'yjs',
  'signalr',
  'sockjs',
  'pusher',
  'actioncable',
  'nostr',
  'none',
] as const;

export interface FilterBarProps {
  readonly filters: ListFilters;
  readonly connections: ReadonlyMap<string, ConnectionState>;
  readonly connectionLabels: ReadonlyMap<string, string>;
  /** Only what changed: the session merges it into the newest filters. */
  readonly onChange: (patch: Partial<ListFilters>) => void;
  /** The content search in the worker, while it runs (and after). */
  readonly search: SearchState | null;
}

/** Connections offered by the filter: the newest ones (a page may open thousands), and the one selected. */
export const FILTER_CONNECTIONS = 500;

function filterChoices(connections: ReadonlyMap<string, ConnectionState>, selected: string): ConnectionState[] {
  const out: ConnectionState[] = [];
  let skip = connections.size - FILTER_CONNECTIONS;
  for (const c of connections.values()) if (skip-- <= 0 || c.connectionId === selected) out.push(c);
  return out;
}

/**
 * Filters above the frame list. Dropdowns apply at once; text and path wait for a pause in
 * typing, then search in the worker with a progress line (typing again supersedes it).
 */
export function FilterBar(props: FilterBarProps): ReactElement {
  const { filters, connections, connectionLabels, onChange, search } = props;
  const [text, setText] = useState(filters.text);
  const [path, setPath] = useState(filters.path);
  const [event, setEvent] = useState(filters.event);
  // Held here too: the list's filters come back with the next snapshot (a frame later), and a
  // controlled checkbox would show its old state until then.
  const [hideQuiet, setHideQuiet] = useState(filters.hideQuiet);
  const textRef = useRef<HTMLInputElement>(null);
  const parsed = path.trim() ? parsePath(path) : null;
  const latest = useRef(props);
  latest.current = props;

  // `/` focuses the filter, as in DevTools' search boxes.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      const typing =
        target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.isContentEditable);
      if (e.key === '/' && !typing) {
        e.preventDefault();
        textRef.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on what the user typed; the filters it compares with are read as they are then
  useEffect(() => {
    // A path that does not parse (yet: `users[` while typing) filters nothing: the list shows
    // what the text filter alone keeps, and the bar says what is wrong with the path.
    const applied = parsed && !parsed.ok ? '' : path;
    if (text === filters.text && applied === filters.path) return;
    const timer = setTimeout(() => latest.current.onChange({ text, path: applied }), 200);
    return () => clearTimeout(timer);
  }, [text, path]);

  // The event filter runs on the list rows (no worker): a short pause is enough.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on what the user typed
  useEffect(() => {
    if (event === filters.event) return;
    const timer = setTimeout(() => latest.current.onChange({ event }), 120);
    return () => clearTimeout(timer);
  }, [event]);

  return (
    <div className="ws-filter-bar" role="search" aria-label="Filter frames">
      <input
        ref={textRef}
        type="search"
        placeholder="Filter decoded content  ( / )"
        aria-label="Filter frames by decoded content"
        data-testid="filter-input"
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <input
        type="search"
        placeholder="path: users[*].name or /users/0"
        title="path: users[*].name or a JSON Pointer such as /users/0"
        aria-label="Filter frames by path"
        data-testid="path-filter-input"
        value={path}
        onChange={(e) => setPath(e.target.value)}
        className="ws-filter-path"
      />
      <select
        aria-label="Direction"
        value={filters.direction}
        onChange={(e) => onChange({ direction: e.target.value as ListFilters['direction'] })}
      >
        <option value="all">↑↓ all</option>
        <option value="sent">↑ sent</option>
        <option value="received">↓ received</option>
      </select>
      <select
        aria-label="Format"
        data-testid="format-filter"
        value={filters.format}
        onChange={(e) => onChange({ format: e.target.value })}
      >
        {FORMAT_OPTIONS.map((f) => (
          <option key={f} value={f}>
            {f === 'all' ? 'all formats' : f === 'error' ? 'malformed' : f}
          </option>
        ))}
      </select>
      {/* A connection reads short, as in the status bar (the select is as wide as its choice); its URL is the tooltip. */}
      <select
        aria-label="Connection"
        className="ws-filter-connection"
        value={filters.connection}
        title={connections.get(filters.connection)?.url ?? 'all connections'}
        onChange={(e) => onChange({ connection: e.target.value })}
      >
        <option value="all">all connections</option>
        {filterChoices(connections, filters.connection).map((c) => (
          <option key={c.connectionId} value={c.connectionId} title={c.url}>
            {connectionLabels.get(c.connectionId)} {shortConnectionUrl(c.url)}
          </option>
        ))}
      </select>
      <select
        aria-label="Protocol"
        data-testid="protocol-filter"
        value={filters.protocol}
        onChange={(e) => onChange({ protocol: e.target.value })}
        className="ws-filter-protocol"
      >
        {PROTOCOL_OPTIONS.map((p) => (
          <option key={p} value={p}>
            {p === 'all' ? 'all protocols' : p === 'none' ? 'no protocol' : p}
          </option>
        ))}
      </select>
      <input
        type="search"
        placeholder="event / topic"
        aria-label="Filter frames by event name or topic"
        data-testid="event-filter"
        value={event}
        onChange={(e) => setEvent(e.target.value)}
        className="ws-filter-event"
      />
      <label className="ws-filter-check" title="Hide ping / pong, heartbeats and other keep-alives">
        <input
          type="checkbox"
          data-testid="hide-keepalives"
          checked={hideQuiet}
          onChange={(e) => {
            setHideQuiet(e.target.checked);
            onChange({ hideQuiet: e.target.checked });
          }}
        />{' '}
        hide keep-alives
      </label>
      {search && !search.done && (
        <span className="ws-filter-progress" data-testid="filter-progress">
          <progress aria-label="Searching frames" max={Math.max(1, search.total)} value={search.searched} /> searching{' '}
          {search.searched.toLocaleString('en-US')} / {search.total.toLocaleString('en-US')}
        </span>
      )}
      {parsed && !parsed.ok && (
        <div className="ws-filter-error" role="alert">
          path: {parsed.error} at character {parsed.offset + 1} (not applied)
        </div>
      )}
    </div>
  );
}
