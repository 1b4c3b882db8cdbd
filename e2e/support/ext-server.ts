/**
 * The extension tests' local servers (127.0.0.1, port 0):
 * - `startCaptureServer(steps)`: HTTP for capture.html and api.html, WebSockets on
 *   `/conv/A`, `/conv/B` (the server's half of the conversation: it sends its frames in
 *   turn and checks each frame the page sends, byte for byte) and `/api` (echo; negotiates
 *   the `chat.v2` subprotocol and permessage-deflate).
 * - `startSocketIoServer()`: a socket.io 4 server serving its own client bundle at
 *   /socket.io/socket.io.js and sio.html; `echo` acks with a reply and a binary attachment.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server as SocketIoServer } from 'socket.io';
import { WebSocketServer, type WebSocket } from 'ws';
import { apiPage, capturePage, socketIoPage } from './ext-pages.js';
import { stepsForPage, type SocketName, type Step } from './ext-fixtures.js';

export interface CaptureServer {
  readonly httpUrl: string;
  /** What the server saw go wrong (a frame with other bytes than the page should have sent). */
  readonly problems: string[];
  /** Frames the server received, per socket name, in order. */
  readonly received: Record<SocketName, number>;
  close(): Promise<void>;
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

function listen(server: http.Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)),
  );
}

function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

export async function startCaptureServer(steps: readonly Step[]): Promise<CaptureServer> {
  const pages: Record<string, string> = { '/capture.html': capturePage(stepsForPage(steps)), '/api.html': apiPage() };
  const server = http.createServer((req, res) => {
    const page = pages[new URL(req.url ?? '/', 'http://x').pathname];
    if (!page) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page);
  });
  const problems: string[] = [];
  const received: Record<SocketName, number> = { A: 0, B: 0 };
  const conv = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  const api = new WebSocketServer({
    noServer: true,
    perMessageDeflate: true,
    handleProtocols: (offered) => (offered.has('chat.v2') ? 'chat.v2' : false),
  });

  // The server's half of the conversation on one socket: send while it is the server's turn,
  // then wait for the page's next frame and check it.
  conv.on('connection', (ws: WebSocket, _req: http.IncomingMessage, name: SocketName) => {
    const mine = steps.filter((s) => s.socket === name);
    let i = 0;
    const advance = () => {
      while (i < mine.length && mine[i]!.direction === 'received') {
        const s = mine[i++]!;
        if (s.opcode === 'text') ws.send(Buffer.from(s.bytes).toString('utf8'));
        else ws.send(s.bytes, { binary: true });
      }
    };
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      const s = mine[i];
      received[name]++;
      if (s?.direction !== 'sent') {
        problems.push(`socket ${name}: unexpected frame ${hex(data)}`);
        return;
      }
      i++;
      if (isBinary !== (s.opcode === 'binary'))
        problems.push(`socket ${name}, ${s.label}: arrived as ${isBinary ? 'binary' : 'text'}`);
      if (hex(data) !== hex(s.bytes))
        problems.push(`socket ${name}, ${s.label}: server got ${hex(data)}, expected ${hex(s.bytes)}`);
      advance();
    });
    ws.on('error', (e) => problems.push(`socket ${name}: ${e.message}`));
    advance();
  });
  api.on('connection', (ws: WebSocket) => {
    ws.on('message', (data: Buffer, isBinary: boolean) =>
      ws.send(isBinary ? data : data.toString('utf8'), { binary: isBinary }),
    );
    ws.on('error', () => ws.terminate());
  });

  server.on('upgrade', (req, socket, head) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const m = /^\/conv\/([AB])$/.exec(path);
    if (m) conv.handleUpgrade(req, socket, head, (ws) => conv.emit('connection', ws, req, m[1]));
    else if (path === '/api') api.handleUpgrade(req, socket, head, (ws) => api.emit('connection', ws, req));
    else socket.destroy();
  });

  const httpUrl = await listen(server);
  return {
    httpUrl,
    problems,
    received,
    close: async () => {
      for (const c of [...conv.clients, ...api.clients]) c.terminate();
      conv.close();
      api.close();
      await closeServer(server);
    },
  };
}

export interface SocketIoTestServer {
  readonly httpUrl: string;
  /** What the server's `echo` handler received: [payload, attachment bytes]. */
  readonly echoes: [unknown, number[]][];
  close(): Promise<void>;
}

/** `attachment` goes into sio.html (the page emits it); `replyBytes` is what the ack sends back. */
export async function startSocketIoServer(attachment: Uint8Array, replyBytes: Uint8Array): Promise<SocketIoTestServer> {
  const page = socketIoPage(Buffer.from(attachment).toString('base64'));
  const server = http.createServer((req, res) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/sio.html') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page);
  });
  const io = new SocketIoServer(server, { serveClient: true });
  const echoes: [unknown, number[]][] = [];
  io.on('connection', (socket) => {
    socket.on('echo', (payload: unknown, bin: Buffer, ack: (...args: unknown[]) => void) => {
      echoes.push([payload, [...bin]]);
      ack({ got: payload, size: bin.length }, Buffer.from(replyBytes));
    });
  });
  const httpUrl = await listen(server);
  return {
    httpUrl,
    echoes,
    close: async () => {
      io.disconnectSockets(true);
      await new Promise<void>((resolve) => io.close(() => resolve()));
      await closeServer(server).catch(() => {});
    },
  };
}
