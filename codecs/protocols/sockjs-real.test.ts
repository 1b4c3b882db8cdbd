/**
 * SockJS as its real server (the `sockjs` package) puts it on the wire: open, the app's
 * messages echoed in `a[…]` frames and a close frame, with the client's frames as
 * sockjs-client writes them (`["…"]`), over the WebSocket transport's URL. Every frame is read
 * with its connection's context (the URL names SockJS) as the inspector's list reads it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sockjs from 'sockjs';
import { WebSocket } from 'ws';
import { newReadState, readInOrder } from '../reading/read-in-order.js';
import { recognizeProtocol } from './recognize.js';
import { nestedValue } from '../nested/nested-value.js';
import { assertTiles } from './test/tiles.js';

interface Frame {
  readonly direction: 'sent' | 'received';
  readonly text: string;
}

const frames: Frame[] = [];
let url = '';
let close: () => Promise<void> = async () => {};

beforeAll(async () => {
  const server = http.createServer();
  const echo = sockjs.createServer({ log: () => {} });
  echo.on(
    'connection',
    (conn: {
      on: (e: string, f: (m: string) => void) => void;
      write: (m: string) => void;
      close: (c: number, r: string) => void;
    }) => {
      conn.on('data', (message: string) => {
        if (message === 'bye') setTimeout(() => conn.close(3000, 'Go away!'), 100);
        else conn.write(message);
      });
    },
  );
  echo.installHandlers(server, { prefix: '/echo' });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/echo/123/abcdefgh/websocket`;
  const ws = new WebSocket(url);
  const done = new Promise<void>((resolve) => ws.on('close', () => resolve()));
  ws.on('message', (data) => frames.push({ direction: 'received', text: data.toString() }));
  await new Promise<void>((r) => ws.on('open', () => r()));
  // What sockjs-client sends for send(...): a JSON array of the messages.
  const send = (...messages: string[]) => {
    const text = JSON.stringify(messages);
    frames.push({ direction: 'sent', text });
    ws.send(text);
  };
  await new Promise((r) => setTimeout(r, 30));
  send(JSON.stringify({ room: 'room-42', user: 'ada', text: 'hello ☕' }));
  send(JSON.stringify({ type: 'typing' }), JSON.stringify({ type: 'read', upTo: 3 }));
  await new Promise((r) => setTimeout(r, 100));
  send('bye');
  await done;
  close = async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  };
}, 20_000);

afterAll(() => close());

describe('SockJS from its real server', () => {
  it('every frame reads as SockJS, none malformed, spans tiling', () => {
    const kinds = frames.map((f) => f.text[0]);
    expect(kinds[0]).toBe('o');
    // (On the WebSocket transport this server keeps the connection alive with ping control frames, not `h`.)
    expect(kinds.filter((k) => k === 'a').length).toBeGreaterThanOrEqual(2);
    expect(frames.at(-1)!.text).toBe('c[3000,"Go away!"]');
    const state = newReadState();
    state.formats.setUrl('c', url);
    const labels = frames.map((f) => {
      const data = new TextEncoder().encode(f.text);
      const { decoded } = readInOrder({ connectionId: 'c', direction: f.direction, opcode: 'text', data }, state, 1);
      if (decoded.verdict === 'decoded') state.formats.record('c', decoded.format, data.length);
      expect(decoded.verdict, f.text).toBe('decoded');
      decoded.index!.expandAll(decoded.index!.root);
      assertTiles(decoded.index!);
      const info = recognizeProtocol(decoded.index, decoded.format, {
        connectionFormat: state.formats.preferred('c'),
      });
      return `${f.direction} ${decoded.format} ${info?.protocol} ${info?.message}`;
    });
    expect(labels).toEqual(
      frames.map((f) =>
        f.direction === 'sent'
          ? `sent json sockjs ${JSON.parse(f.text).length === 1 ? 'send' : 'send ×2'}`
          : `received sockjs sockjs ${{ o: 'open', h: 'heartbeat', c: 'close' }[f.text[0]] ?? (JSON.parse(f.text.slice(1)).length === 1 ? 'message' : 'messages ×2')}`,
      ),
    );
  });

  it("opens the app's messages inside the array frames", () => {
    const echoed = frames.find((f) => f.direction === 'received' && f.text.includes('room-42'))!;
    const state = newReadState();
    state.formats.setUrl('c', url);
    const data = new TextEncoder().encode(echoed.text);
    const { decoded } = readInOrder({ connectionId: 'c', direction: 'received', opcode: 'text', data }, state, 9);
    const index = decoded.index!;
    const messages = index.children(index.root).at(-1)!;
    const inner = nestedValue(index, index.children(messages)[0]);
    expect(inner!.index.value(0)).toEqual({ room: 'room-42', user: 'ada', text: 'hello ☕' });
  });
});
