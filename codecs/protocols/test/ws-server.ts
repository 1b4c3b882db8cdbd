/** Tests only: a WebSocket server on this machine for the real client libraries to talk to. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type ServerOptions } from 'ws';

export interface LocalWsServer {
  readonly wss: WebSocketServer;
  /** `ws://127.0.0.1:<port>` */
  readonly url: string;
  /** Ends every client, the WebSocket server and the HTTP server (after `closeFirst`). */
  close(): Promise<void>;
}

/** A subprotocol choice: the first one the client offers, or none. */
export const firstOffered = (offered: Set<string>): string | false => offered.values().next().value ?? false;

/**
 * A WebSocket server on 127.0.0.1 at a free port, without compression unless `options` say;
 * `closeFirst` is what else must end before the HTTP server closes (a broker on it).
 */
export async function localWsServer(
  options: Omit<ServerOptions, 'server' | 'port' | 'noServer'> = {},
  closeFirst: () => Promise<void> = async () => {},
): Promise<LocalWsServer> {
  const server = http.createServer();
  const wss = new WebSocketServer({ server, perMessageDeflate: false, ...options });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    wss,
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        wss.close();
        server.closeAllConnections();
        void closeFirst().then(() => server.close(() => resolve()));
      }),
  };
}
