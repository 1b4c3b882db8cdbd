import { describe, expect, it } from 'vitest';
import { Socket as PhoenixSocket } from 'phoenix';
import { createClient } from 'graphql-ws';
import { Centrifuge } from 'centrifuge';
import { decodeFrame, type FrameFormat } from '../index.js';
import { recognizeProtocol } from './recognize.js';

/**
 * Framing protocols recognized from frames the real client libraries send.
 * Each client gets a fake WebSocket that opens at once and records what is sent; the test
 * plays the server's replies where the client waits for one.
 */
class RecordingSocket {
  static sent: string[] = [];
  static last: RecordingSocket | null = null;
  readonly protocol: string;
  readyState = 0;
  binaryType = 'blob';
  onopen: ((e: unknown) => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onclose: ((e: unknown) => void) | null = null;
  onerror: ((e: unknown) => void) | null = null;
  private listeners = new Map<string, ((e: unknown) => void)[]>();
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  constructor(
    readonly url: string,
    protocols?: string | string[],
  ) {
    this.protocol = Array.isArray(protocols) ? (protocols[0] ?? '') : (protocols ?? '');
    RecordingSocket.last = this;
    setTimeout(() => {
      this.readyState = 1;
      this.emit('open', {});
    }, 0);
  }
  addEventListener(type: string, fn: (e: unknown) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  removeEventListener(type: string, fn: (e: unknown) => void): void {
    this.listeners.set(
      type,
      (this.listeners.get(type) ?? []).filter((f) => f !== fn),
    );
  }
  emit(type: string, e: unknown): void {
    (this as unknown as Record<string, ((e: unknown) => void) | null>)[`on${type}`]?.(e);
    for (const fn of this.listeners.get(type) ?? []) fn(e);
  }
  send(data: string): void {
    RecordingSocket.sent.push(data);
  }
  close(): void {
    this.readyState = 3;
  }
  /** The server says something. */
  receive(data: string): void {
    this.emit('message', { data });
  }
}

const tick = (ms = 5) => new Promise((r) => setTimeout(r, ms));
const utf8 = (s: string) => new TextEncoder().encode(s);
function recognize(text: string, subprotocol?: string) {
  const frame = decodeFrame(utf8(text), { isText: true });
  return recognizeProtocol(frame.index, frame.format as FrameFormat, { subprotocol });
}

describe('framing protocols from real clients', () => {
  it('graphql-ws: connection_init, subscribe with its operation name and id, next, complete, ping', async () => {
    RecordingSocket.sent = [];
    const client = createClient({
      url: 'ws://test/graphql',
      webSocketImpl: RecordingSocket,
      lazy: false,
      retryAttempts: 0,
    });
    await tick();
    RecordingSocket.last!.receive(JSON.stringify({ type: 'connection_ack' }));
    client.subscribe(
      { query: 'subscription OnMessage { message { text } }' },
      { next: () => {}, error: () => {}, complete: () => {} },
    );
    await tick();
    const [init, subscribe] = RecordingSocket.sent.map((t) => recognize(t, 'graphql-transport-ws'));
    expect(init).toMatchObject({ protocol: 'graphql-ws', message: 'connection_init' });
    expect(subscribe).toMatchObject({ protocol: 'graphql-ws', message: 'subscribe', event: 'OnMessage' });
    const id = JSON.parse(RecordingSocket.sent[1]).id as string;
    expect(subscribe!.id).toBe(id);
    expect(
      recognize(JSON.stringify({ id, type: 'next', payload: { data: { message: { text: 'hi' } } } })),
    ).toMatchObject({ protocol: 'graphql-ws', message: 'next', id });
    expect(recognize(JSON.stringify({ type: 'ping' }), 'graphql-transport-ws')).toMatchObject({
      protocol: 'graphql-ws',
      message: 'ping',
      quiet: true,
    });
    void client.dispose();
  });

  it('subscriptions-transport-ws (the older protocol): start, data, ka', () => {
    expect(
      recognize(
        JSON.stringify({ id: '1', type: 'start', payload: { query: 'subscription Feed { feed }' } }),
        'graphql-ws',
      ),
    ).toMatchObject({ protocol: 'subscriptions-transport-ws', message: 'start', event: 'Feed', id: '1' });
    expect(recognize(JSON.stringify({ type: 'ka' }))).toMatchObject({
      protocol: 'subscriptions-transport-ws',
      quiet: true,
    });
  });

  it('phoenix: join, push and heartbeat in the v2 array serializer', async () => {
    RecordingSocket.sent = [];
    const socket = new PhoenixSocket('ws://test/socket', {
      transport: RecordingSocket as never,
      heartbeatIntervalMs: 10_000,
    });
    socket.connect();
    await tick();
    const channel = socket.channel('room:lobby', { token: 'x' });
    channel.join();
    await tick();
    const joinText = RecordingSocket.sent.find((t) => t.includes('phx_join'))!;
    expect(recognize(joinText)).toMatchObject({ protocol: 'phoenix', message: 'phx_join', event: 'room:lobby' });
    const [joinRef] = JSON.parse(joinText) as [string];
    RecordingSocket.last!.receive(
      JSON.stringify([joinRef, joinRef, 'room:lobby', 'phx_reply', { status: 'ok', response: {} }]),
    );
    await tick();
    channel.push('new_msg', { body: 'hello' });
    await tick();
    const push = RecordingSocket.sent.find((t) => t.includes('new_msg'))!;
    expect(recognize(push)).toMatchObject({ protocol: 'phoenix', message: 'new_msg', event: 'room:lobby' });
    expect(recognize(JSON.stringify([null, '9', 'phoenix', 'heartbeat', {}]))).toMatchObject({
      protocol: 'phoenix',
      quiet: true,
    });
    socket.disconnect();
  });

  it('centrifugo: the JSON connect and subscribe commands, pushes and the empty ping', async () => {
    RecordingSocket.sent = [];
    const client = new Centrifuge('ws://test/connection/websocket', {
      websocket: RecordingSocket,
      minReconnectDelay: 60_000,
    });
    client.newSubscription('news').subscribe();
    client.connect();
    await tick(20);
    const sent = RecordingSocket.sent.flatMap((t) => t.split('\n')).filter(Boolean);
    expect(recognize(sent[0])).toMatchObject({ protocol: 'centrifugo', message: 'connect' });
    expect(recognize(JSON.stringify({ push: { channel: 'news', pub: { data: { title: 'x' } } } }))).toMatchObject({
      protocol: 'centrifugo',
      message: 'push',
      event: 'news',
    });
    expect(recognize('{}', 'centrifugo-json')).toMatchObject({ protocol: 'centrifugo', quiet: true });
    // Several commands in one frame: newline-delimited JSON.
    const batch = decodeFrame(
      utf8(`${JSON.stringify({ id: 1, connect: {} })}\n${JSON.stringify({ id: 2, subscribe: { channel: 'news' } })}`),
      { isText: true },
    );
    expect(batch.format).toBe('ndjson');
    expect(recognizeProtocol(batch.index, batch.format)).toMatchObject({
      protocol: 'centrifugo',
      message: 'connect +1',
      event: 'news',
      id: '1',
    });
    client.disconnect();
  });

  it('wamp: HELLO by shape, the rest by subprotocol', () => {
    expect(recognize(JSON.stringify([1, 'realm1', { roles: { subscriber: {} } }]))).toMatchObject({
      protocol: 'wamp',
      message: 'HELLO',
      event: 'realm1',
    });
    expect(recognize(JSON.stringify([16, 7, {}, 'com.example.topic', ['hi']]), 'wamp.2.json')).toMatchObject({
      protocol: 'wamp',
      message: 'PUBLISH',
      event: 'com.example.topic',
    });
    expect(recognize(JSON.stringify([16, 7, {}, 'x']))).toBeNull();
  });

  it('socket.io and engine.io packets', () => {
    expect(recognize('42["chat",{"a":1}]')).toMatchObject({ protocol: 'socket.io', message: 'EVENT', event: 'chat' });
    expect(recognize('3probe')).toMatchObject({ protocol: 'engine.io', message: 'pong', quiet: true });
  });
});
