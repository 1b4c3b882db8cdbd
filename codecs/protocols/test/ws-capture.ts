/**
 * Frames as a real library puts them on the wire: a `ws` proxy between a client library and
 * its server records every WebSocket message in order (text or binary, which side sent it)
 * while forwarding it unchanged. Tests drive the real client and server through it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer, type RawData } from 'ws';

export interface CapturedFrame {
  readonly direction: 'sent' | 'received';
  readonly opcode: 'text' | 'binary';
  readonly data: Uint8Array;
  /** The subprotocol the connection negotiated. */
  readonly subprotocol: string;
}

export interface WsCapture {
  /** ws://… of the proxy: point the client here (the path and query are forwarded). */
  readonly url: string;
  readonly frames: CapturedFrame[];
  close(): Promise<void>;
}

const asBytes = (data: RawData): Uint8Array =>
  Array.isArray(data)
    ? new Uint8Array(Buffer.concat(data))
    : data instanceof ArrayBuffer
      ? new Uint8Array(data)
      : new Uint8Array(data);

/** A recording proxy to `target` (`ws://127.0.0.1:1234`). */
export async function captureProxy(target: string): Promise<WsCapture> {
  const frames: CapturedFrame[] = [];
  const server = http.createServer();
  const wss = new WebSocketServer({
    server,
    perMessageDeflate: false,
    handleProtocols: (offered) => offered.values().next().value ?? false,
  });
  const sockets = new Set<WebSocket>();
  wss.on('connection', (client, request) => {
    const offered = String(request.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const upstream = new WebSocket(target + (request.url ?? '/'), offered, { perMessageDeflate: false });
    sockets.add(client).add(upstream);
    const queue: [RawData, boolean][] = [];
    const subprotocol = client.protocol;
    client.on('message', (data, isBinary) => {
      frames.push({ direction: 'sent', opcode: isBinary ? 'binary' : 'text', data: asBytes(data), subprotocol });
      if (upstream.readyState === WebSocket.OPEN) upstream.send(data, { binary: isBinary });
      else queue.push([data, isBinary]);
    });
    upstream.on('open', () => {
      for (const [data, isBinary] of queue.splice(0)) upstream.send(data, { binary: isBinary });
    });
    upstream.on('message', (data, isBinary) => {
      frames.push({ direction: 'received', opcode: isBinary ? 'binary' : 'text', data: asBytes(data), subprotocol });
      if (client.readyState === WebSocket.OPEN) client.send(data, { binary: isBinary });
    });
    const end = () => {
      client.close();
      upstream.close();
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `ws://127.0.0.1:${port}`,
    frames,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.terminate();
        wss.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Waits until `check` holds (polling), or fails after `ms`. */
export async function until(check: () => boolean, ms = 5000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error('timed out waiting for frames');
    await new Promise((r) => setTimeout(r, 10));
  }
}
