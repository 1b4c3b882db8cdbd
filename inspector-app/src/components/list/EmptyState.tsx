import type { ReactElement } from 'react';

export interface EmptyStateProps {
  /** The standalone inspector can connect: offer the URL field and the demo. */
  readonly onFocusUrl?: () => void;
  readonly onConnectDemo?: () => void;
  readonly demoUrl?: string;
  /** Hosts with files: offer a HAR / capture import. */
  readonly onImport?: () => void;
  /** The extension panel: frames come from the inspected page. */
  readonly panel?: boolean;
  /** Served by `wirescope proxy`: the address clients connect to. */
  readonly proxyAddress?: string;
}

/** What an empty inspector offers instead of a blank list. */
export function EmptyState(props: EmptyStateProps): ReactElement {
  return (
    <div className="ws-empty-state" data-testid="empty-state">
      <strong>No frames yet.</strong>
      {props.panel ? <p>Frames appear here as the inspected page sends and receives WebSocket messages.</p> : null}
      {props.proxyAddress ? (
        <p data-testid="proxy-address">
          Frames appear here as clients connect through the proxy at{' '}
          <span className="ws-mono">{props.proxyAddress}</span> (any path) and as processes started with{' '}
          <span className="ws-mono">wirescope run --proxy</span> stream in.
        </p>
      ) : null}
      <ul>
        {props.onFocusUrl && (
          <li>
            <button type="button" onClick={props.onFocusUrl}>
              Connect to a WebSocket URL
            </button>{' '}
            (the field above)
          </li>
        )}
        {props.onConnectDemo && (
          <li>
            <button type="button" onClick={props.onConnectDemo}>
              Connect to the demo
            </button>{' '}
            <span className="ws-mono">{props.demoUrl}</span> (CBOR, MessagePack, JSON and json-joy traffic)
          </li>
        )}
        {!props.panel && (
          <li>
            <a href="paste.html">Paste a frame</a> as hex or base64 on the paste page
          </li>
        )}
        {props.onImport && (
          <li>
            <button type="button" onClick={props.onImport}>
              Import a HAR or capture…
            </button>{' '}
            (Chrome DevTools' HAR keeps WebSocket messages)
          </li>
        )}
      </ul>
    </div>
  );
}
