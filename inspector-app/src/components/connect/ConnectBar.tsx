import { useState, type ReactElement, type Ref } from 'react';
import type { ConnectionState } from '../../state/capture-model.js';
import './connect.css';

/** The standalone inspector's connection controls: URL, subprotocols, connect / close / reconnect. */
export function ConnectBar(props: {
  initialUrl: string;
  connections: ReadonlyMap<string, ConnectionState>;
  onConnect: (url: string, protocols: string[]) => void;
  onClose: (connectionId: string) => void;
  composerOpen: boolean;
  onToggleComposer: () => void;
  /** Why the newest connect attempt failed, shown next to the URL. */
  problem?: string | null;
  urlRef?: Ref<HTMLInputElement>;
}): ReactElement {
  const [url, setUrl] = useState(props.initialUrl);
  const [protocols, setProtocols] = useState('');
  const live = [...props.connections.values()].filter((c) => c.status === 'open' || c.status === 'opening');
  const connect = () =>
    props.onConnect(
      url.trim(),
      protocols
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean),
    );
  return (
    <form
      className="ws-toolbar"
      aria-label="Connection"
      onSubmit={(e) => {
        e.preventDefault();
        connect();
      }}
    >
      <input
        ref={props.urlRef}
        aria-label="WebSocket URL"
        data-testid="url-input"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        placeholder="ws://localhost:8080/demo"
        style={{ flex: 1, minWidth: 200 }}
      />
      <input
        aria-label="Subprotocols (comma separated)"
        value={protocols}
        onChange={(e) => setProtocols(e.target.value)}
        placeholder="subprotocols"
        style={{ width: 120 }}
      />
      <button type="submit" data-testid="connect-button">
        {live.some((c) => c.url === url.trim()) ? 'Connect another' : 'Connect'}
      </button>
      <button
        type="button"
        aria-pressed={props.composerOpen}
        aria-expanded={props.composerOpen}
        data-testid="compose-toggle"
        onClick={props.onToggleComposer}
      >
        Compose…
      </button>
      {props.problem && (
        <span className="ws-connect-problem" role="alert" data-testid="connect-problem">
          {props.problem}
        </span>
      )}
      {live.map((c) => (
        <button
          key={c.connectionId}
          type="button"
          onClick={() => props.onClose(c.connectionId)}
          title={`close ${c.url}`}
        >
          Close {c.url.replace(/^wss?:\/\//, '')}
        </button>
      ))}
    </form>
  );
}
