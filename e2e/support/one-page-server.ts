/**
 * A test server for one page: every HTTP request gets the same HTML, and each WebSocket the
 * page opens is handed to the test's own handler (echo, flood, a frame on connect …).
 */
import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export interface OnePageServer {
  /** The page's URL (`http://127.0.0.1:<port>/`). */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Serves `html` on 127.0.0.1 (a free port) and hands every socket to `onSocket` with its upgrade
 * request; sockets are accepted on `path` when given, on any path otherwise.
 */
export async function startOnePageServer(
  html: string,
  onSocket: (ws: WebSocket, request: IncomingMessage) => void,
  options: { readonly path?: string } = {},
): Promise<OnePageServer> {
  const server = http.createServer((_, res) =>
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html),
  );
  const wss = new WebSocketServer({ server, path: options.path, perMessageDeflate: false });
  wss.on('connection', onSocket);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: async () => {
      wss.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
