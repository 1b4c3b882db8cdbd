/**
 * Real socket.io 2.x traffic (Engine.IO protocol v3, Socket.IO protocol v4): the socket.io
 * 2.5 server and client (installed as `socket.io-v2` / `socket.io-client-v2`) talk over a
 * real WebSocket (`transports: ['websocket']`) through the recording proxy.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import createServer from 'socket.io-v2';
import connect from 'socket.io-client-v2';
import { captureProxy, until, type WsCapture } from './ws-capture.js';

export interface V2Traffic {
  readonly capture: WsCapture;
  /** The URL the client opened (with `EIO=3`), as a capture would record it. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Plays a session: the default namespace's events with binary attachments both ways and
 * acks, a namespace joined with a query, one refused by middleware (ERROR), and a few
 * client pings.
 */
export async function v2Session(): Promise<V2Traffic> {
  const httpServer = http.createServer();
  const io = createServer(httpServer, {
    transports: ['websocket'],
    pingInterval: 150,
    pingTimeout: 5000,
  } as never) as any;
  io.on('connection', (socket: any) => {
    socket.on('file', (name: string, bytes: Buffer, ack: (reply: unknown) => void) =>
      ack({ ok: true, name, echo: bytes.subarray(0, 4) }),
    );
    socket.on('hello', () =>
      socket.emit(
        'upload',
        { name: 'avatar.png', data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]) },
        Buffer.from('second'),
      ),
    );
  });
  io.of('/admin').on('connection', (socket: any) => socket.emit('welcome', { query: socket.handshake.query.token }));
  io.of('/locked').use((_socket: unknown, next: (err?: Error) => void) => next(new Error('Not authorized')));
  await new Promise<void>((r) => httpServer.listen(0, '127.0.0.1', r));
  const capture = await captureProxy(`ws://127.0.0.1:${(httpServer.address() as AddressInfo).port}`);
  const client = (connect as any)(capture.url, { transports: ['websocket'], forceNew: true });
  await new Promise<void>((resolve) => client.on('connect', resolve));
  const uploaded = new Promise<void>((resolve) => client.on('upload', () => resolve()));
  client.emit('hello');
  await uploaded;
  await new Promise<void>((resolve) => client.emit('file', 'notes.bin', Buffer.from([9, 8, 7, 6, 5]), () => resolve()));
  // Namespaces share the manager's one WebSocket.
  const admin = client.io.socket('/admin', { query: 'token=abc' });
  await new Promise<void>((resolve) => admin.on('welcome', () => resolve()));
  const locked = client.io.socket('/locked');
  await new Promise<void>((resolve) => locked.on('error', () => resolve()));
  // The client pings every pingInterval: wait for two round trips.
  await until(
    () => capture.frames.filter((f) => f.opcode === 'text' && f.data.length === 1 && f.data[0] === 0x33).length >= 2,
  );
  const url = client.io.engine.transport.ws?.url ?? `${capture.url}/socket.io/?EIO=3&transport=websocket`;
  return {
    capture,
    url,
    async close() {
      client.close();
      await capture.close();
      io.close();
      httpServer.closeAllConnections();
    },
  };
}
