/**
 * The inspector page a `wirescope proxy` serves: its host is the proxy's live feed (a
 * WebSocket to `/__wirescope/feed` on the page's own origin). Connection events and frames
 * of every proxied connection (and of hooked Node processes) arrive as feed messages
 * (codecs/capture/live-feed.ts) and reach the app as host messages. The page only watches:
 * it opens no connections and sends no frames. If the feed drops, the page reconnects and
 * says so (reload to watch again).
 */
import { PROTOCOL_VERSION, type HostMessage } from '../protocol/messages.js';
import type { Transport } from '../protocol/transport.js';
import { decodeLiveEvent } from '../../../codecs/capture/live-feed.js';

/** The parts of a WebSocket the feed uses (the DOM's and `ws`'s both fit). */
export interface FeedSocket {
  addEventListener(type: 'message', listener: (event: { readonly data: unknown }) => void): void;
  addEventListener(type: 'close', listener: (event: { readonly code: number; readonly reason: string }) => void): void;
  close(): void;
}

export interface ProxyFeedOptions {
  /** ws:// URL of the feed. */
  readonly url: string;
  readonly WebSocketImpl?: new (url: string) => FeedSocket;
  readonly hostName?: string;
}

export type ProxyFeedTransport = Transport & { close(): void };

export function feedUrlFor(location: { readonly protocol: string; readonly host: string }): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/__wirescope/feed`;
}

export function createProxyFeedTransport(options: ProxyFeedOptions): ProxyFeedTransport {
  const WebSocketImpl =
    options.WebSocketImpl ?? (globalThis as unknown as { WebSocket: new (url: string) => FeedSocket }).WebSocket;
  const hostName = options.hostName ?? 'wirescope proxy';
  const handlers = new Set<(message: HostMessage) => void>();
  const backlog: HostMessage[] = [];

  function deliver(message: HostMessage): void {
    if (handlers.size === 0) backlog.push(message);
    else for (const handler of handlers) handler(message);
  }

  const socket = new WebSocketImpl(options.url);
  socket.addEventListener('message', (event) => {
    if (typeof event.data !== 'string') return;
    const decoded = decodeLiveEvent(event.data);
    if ('error' in decoded) {
      deliver({
        type: 'dropped',
        count: 1,
        reason: `the proxy sent a feed message this page cannot read (${decoded.error})`,
      });
      return;
    }
    deliver(decoded);
  });
  socket.addEventListener('close', (event) => {
    // Shown as a notice: traffic from now on is not seen by this page (the proxy still forwards and records it).
    deliver({
      type: 'uncaptured',
      kind: 'proxy feed',
      url: options.url,
      time: Date.now(),
      reason: `the connection to the proxy closed (${event.code}${event.reason ? `: ${event.reason}` : ''}); reload the page to watch again`,
    });
  });

  return {
    listen(handler) {
      handlers.add(handler);
      handler({ type: 'hello', protocolVersion: PROTOCOL_VERSION, host: hostName });
      for (const m of backlog.splice(0)) handler(m);
      return () => handlers.delete(handler);
    },
    // The page watches only: connect / send-frame are not in its capabilities.
    send() {},
    close() {
      socket.close();
    },
  };
}
