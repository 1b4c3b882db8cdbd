import { describe, expect, it } from 'vitest';
import { WebSocketServer, WebSocket as NodeWebSocket } from 'ws';
import { createWebSocketTransport } from './websocket-transport.js';
import type { HostMessage, WireFrame } from '../protocol/messages.js';

// The same transport with Node's `ws` client against a real server: real sockets, real timers.
const bytes = (...b: number[]) => Uint8Array.from(b);
const texts = (frames: readonly WireFrame[]) =>
  frames.map((f) => `${f.connectionId} ${f.direction} ${f.opcode} ${Buffer.from(f.data).toString('hex')}`);

describe('createWebSocketTransport against a real server (ws)', () => {
  it('echoes binary and text frames byte-exact', async () => {
    const server = new WebSocketServer({
      port: 0,
      handleProtocols: (protocols) => (protocols.has('cbor') ? 'cbor' : false),
    });
    server.on('connection', (socket) =>
      socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary })),
    );
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as { port: number };
    const transport = createWebSocketTransport({ WebSocketImpl: NodeWebSocket, flushMs: 5 });
    const seen: HostMessage[] = [];
    const received = new Promise<void>((resolve) =>
      transport.listen((m) => {
        seen.push(m);
        if (m.type === 'connection-opened') {
          transport.send({
            type: 'send-frame',
            connectionId: m.connectionId,
            opcode: 'binary',
            data: bytes(0x83, 0, 0xff),
          });
          transport.send({
            type: 'send-frame',
            connectionId: m.connectionId,
            opcode: 'text',
            data: new TextEncoder().encode('水'),
          });
        }
        const frames = seen.flatMap((x) => (x.type === 'frames' ? x.frames : []));
        if (frames.filter((f) => f.direction === 'received').length === 2) resolve();
      }),
    );
    transport.send({ type: 'connect', url: `ws://127.0.0.1:${port}/`, protocols: ['cbor'] });
    await received;
    expect(seen.find((m) => m.type === 'connection-opened')).toMatchObject({ protocol: 'cbor' });
    const frames = seen.flatMap((m) => (m.type === 'frames' ? m.frames : []));
    expect(texts(frames)).toEqual([
      'ws-1 sent binary 8300ff',
      'ws-1 sent text e6b0b4',
      'ws-1 received binary 8300ff',
      'ws-1 received text e6b0b4',
    ]);
    transport.close();
    await new Promise((resolve) => server.close(resolve));
  });
});
