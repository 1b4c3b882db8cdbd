import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocket as NodeWebSocket } from 'ws';
import {
  createWebSocketTransport,
  type WebSocketConstructor,
  type WebSocketTransportOptions,
} from './websocket-transport.js';
import { PROTOCOL_VERSION, type HostMessage, type WireFrame } from '../protocol/messages.js';

// Both real WebSocket classes fit the injected seam (checked by tsc, not at run time).
export const seamFits: (WebSocketConstructor | undefined)[] = [globalThis.WebSocket, NodeWebSocket];

/** Listeners take the event shapes the seam declares; the fake dispatches plain objects. */
type Listener = (event: never) => void;

/** A WebSocket the test drives by hand: the server side is the `open`/`receive`/`serverClose` calls. */
class FakeSocket {
  binaryType = 'blob';
  readyState = 0;
  protocol = '';
  extensions = '';
  readonly sent: (string | Uint8Array)[] = [];
  closedWith: [number | undefined, string | undefined] | null = null;
  private readonly listeners = new Map<string, Listener[]>();
  constructor(
    readonly url: string,
    readonly protocols?: string | string[],
  ) {
    sockets.push(this);
  }
  addEventListener(type: string, listener: Listener): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  send(data: string | Uint8Array): void {
    if (this.readyState === 0) throw new Error('InvalidStateError: still connecting');
    this.sent.push(data);
  }
  close(code?: number, reason?: string): void {
    if (code !== undefined && code !== 1000 && (code < 3000 || code > 4999))
      throw new Error(`InvalidAccessError: close code ${code}`);
    this.closedWith = [code, reason];
    this.readyState = 2;
  }
  private emit(type: string, event: unknown): void {
    for (const l of this.listeners.get(type) ?? []) (l as (event: unknown) => void)(event);
  }
  open(protocol = '', extensions = ''): void {
    Object.assign(this, { readyState: 1, protocol, extensions });
    this.emit('open', {});
  }
  receive(data: unknown): void {
    this.emit('message', { data });
  }
  fail(): void {
    this.emit('error', {});
  }
  serverClose(code: number, reason: string, wasClean: boolean): void {
    this.readyState = 3;
    this.emit('close', { code, reason, wasClean });
  }
}
let sockets: FakeSocket[] = [];

/** A clock and timer the test advances by hand. */
function manualTime() {
  let time = 1_000;
  let pending: { fn: () => void; at: number } | null = null;
  const options: WebSocketTransportOptions = {
    WebSocketImpl: FakeSocket,
    now: () => time,
    setTimer: (fn, ms) => (pending = { fn, at: time + ms }),
    clearTimer: () => (pending = null),
  };
  const advance = (ms: number) => {
    time += ms;
    if (pending && pending.at <= time) {
      const { fn } = pending;
      pending = null;
      fn();
    }
  };
  return { options, advance, hasTimer: () => pending !== null };
}

function setup(extra: WebSocketTransportOptions = {}) {
  sockets = [];
  const clock = manualTime();
  const transport = createWebSocketTransport({ ...clock.options, ...extra });
  const seen: HostMessage[] = [];
  transport.listen((m) => seen.push(m));
  seen.length = 0; // the hello has its own test
  return { transport, seen, ...clock };
}

const bytes = (...b: number[]) => Uint8Array.from(b);
const texts = (frames: readonly WireFrame[]) =>
  frames.map((f) => `${f.connectionId} ${f.direction} ${f.opcode} ${Buffer.from(f.data).toString('hex')}`);
const framesIn = (m: HostMessage | undefined) => (m?.type === 'frames' ? m.frames : []);
const types = (seen: HostMessage[]) => seen.map((m) => (m.type === 'frames' ? `frames(${m.frames.length})` : m.type));

afterEach(() => {
  vi.useRealTimers();
});

describe('createWebSocketTransport', () => {
  it('says hello with the protocol version, then what happened before anyone listened', () => {
    sockets = [];
    const transport = createWebSocketTransport({ WebSocketImpl: FakeSocket, now: () => 5, hostName: 'web' });
    transport.send({ type: 'connect', url: 'http://nope/', protocols: [] });
    const seen: HostMessage[] = [];
    transport.listen((m) => seen.push(m));
    expect(seen).toEqual([
      { type: 'hello', protocolVersion: PROTOCOL_VERSION, host: 'web' },
      {
        type: 'connection-error',
        connectionId: 'ws-1',
        message: 'a WebSocket URL starts with ws:// or wss://, not http://',
        time: 5,
      },
    ]);
    transport.close();
  });

  it('opens a connection, reports its life, and batches frames per flush interval', () => {
    const { transport, seen, advance } = setup();
    transport.send({ type: 'connect', url: 'wss://rt.example/s', protocols: ['cbor', 'json'] });
    const [socket] = sockets;
    expect(socket).toMatchObject({ url: 'wss://rt.example/s', protocols: ['cbor', 'json'], binaryType: 'arraybuffer' });
    expect(seen).toEqual([{ type: 'connection-opening', connectionId: 'ws-1', url: 'wss://rt.example/s', time: 1000 }]);
    advance(5);
    socket.open('cbor', 'permessage-deflate');
    expect(seen[1]).toEqual({
      type: 'connection-opened',
      connectionId: 'ws-1',
      url: 'wss://rt.example/s',
      protocol: 'cbor',
      extensions: 'permessage-deflate',
      time: 1005,
    });
    socket.receive(bytes(0x83, 1, 2, 3).buffer);
    socket.receive('hé');
    socket.receive(new Uint8Array([9, 8, 7, 6]).subarray(1, 3)); // a view (Node's ws hands out Buffers)
    expect(seen).toHaveLength(2); // still gathering
    advance(16);
    expect(seen[2]).toEqual({
      type: 'frames',
      frames: [
        { connectionId: 'ws-1', direction: 'received', time: 1005, opcode: 'binary', data: bytes(0x83, 1, 2, 3) },
        {
          connectionId: 'ws-1',
          direction: 'received',
          time: 1005,
          opcode: 'text',
          data: new TextEncoder().encode('hé'),
        },
        { connectionId: 'ws-1', direction: 'received', time: 1005, opcode: 'binary', data: bytes(8, 7) },
      ],
    });
    socket.receive(bytes(1).buffer);
    socket.fail();
    socket.serverClose(1006, '', false);
    // The close waits for no timer, and the frame before it comes first.
    expect(types(seen)).toEqual([
      'connection-opening',
      'connection-opened',
      'frames(3)',
      'frames(1)',
      'connection-error',
      'connection-closed',
    ]);
    expect(seen.at(-1)).toEqual({
      type: 'connection-closed',
      connectionId: 'ws-1',
      code: 1006,
      reason: '',
      wasClean: false,
      time: 1021,
    });
    transport.close();
  });

  it('10,000 frames in a second become ~60 messages, in order (default timers, faked)', () => {
    vi.useFakeTimers();
    sockets = [];
    const transport = createWebSocketTransport({ WebSocketImpl: FakeSocket, now: () => Date.now() });
    const seen: HostMessage[] = [];
    transport.listen((m) => seen.push(m));
    transport.send({ type: 'connect', url: 'ws://localhost:8080/', protocols: [] });
    sockets[0].open();
    for (let i = 0; i < 10_000; i++) {
      sockets[0].receive(Uint32Array.of(i).buffer);
      if (i % 10 === 9) vi.advanceTimersByTime(1);
    }
    vi.advanceTimersByTime(16);
    const batches = seen.filter((m) => m.type === 'frames');
    expect(batches.length).toBeGreaterThanOrEqual(55);
    expect(batches.length).toBeLessThanOrEqual(65);
    const order = batches.flatMap((m) => m.frames.map((f) => new Uint32Array(f.data.slice().buffer)[0]));
    expect(order).toEqual(Array.from({ length: 10_000 }, (_, i) => i));
    transport.close();
  });

  it('a Blob frame keeps its place while its bytes are read', async () => {
    const { transport, seen, advance } = setup();
    transport.send({ type: 'connect', url: 'ws://h/', protocols: [] });
    const socket = sockets[0];
    socket.open();
    let release!: () => void;
    const slowBlob = {
      arrayBuffer: () => new Promise<ArrayBuffer>((resolve) => (release = () => resolve(bytes(1, 1).buffer))),
    };
    socket.receive(slowBlob);
    socket.receive(bytes(2).buffer);
    socket.serverClose(1000, 'bye', true);
    advance(16);
    expect(types(seen)).toEqual(['connection-opening', 'connection-opened']); // held behind the Blob
    release();
    await new Promise((r) => setTimeout(r, 0)); // let the Blob's promise settle
    advance(16);
    expect(types(seen)).toEqual(['connection-opening', 'connection-opened', 'frames(2)', 'connection-closed']);
    expect(texts(framesIn(seen[2]))).toEqual(['ws-1 received binary 0101', 'ws-1 received binary 02']);
    transport.close();
  });

  it('reads real Blobs, and reports an unreadable one as dropped', async () => {
    const { transport, seen, advance } = setup();
    transport.send({ type: 'connect', url: 'ws://h/', protocols: [] });
    sockets[0].open();
    sockets[0].receive(new Blob([bytes(0xca, 0xfe)]));
    sockets[0].receive({ arrayBuffer: () => Promise.reject(new Error('gone')) });
    await new Promise((r) => setTimeout(r, 10));
    advance(16);
    expect(seen[2]).toMatchObject({ type: 'frames', frames: [{ opcode: 'binary', data: bytes(0xca, 0xfe) }] });
    expect(seen[3]).toEqual({
      type: 'dropped',
      count: 1,
      reason: 'a Blob frame on ws-1 could not be read: Error: gone',
    });
    transport.close();
  });

  it('records frames the app sends, after socket.send, as copies', () => {
    const { transport, seen, advance } = setup();
    transport.send({ type: 'connect', url: 'ws://h/', protocols: [] });
    const socket = sockets[0];
    transport.send({ type: 'send-frame', connectionId: 'ws-1', opcode: 'binary', data: bytes(1) });
    expect(seen.at(-1)).toMatchObject({
      type: 'connection-error',
      message: 'frame not sent: the connection is not open',
    });
    socket.open();
    const mine = bytes(0xa1, 0x61, 0x61, 0x01);
    transport.send({ type: 'send-frame', connectionId: 'ws-1', opcode: 'binary', data: mine });
    transport.send({
      type: 'send-frame',
      connectionId: 'ws-1',
      opcode: 'text',
      data: new TextEncoder().encode('{"ü":1}'),
    });
    transport.send({ type: 'send-frame', connectionId: 'ws-1', opcode: 'text', data: bytes(0x61, 0xff) });
    mine[0] = 0; // the app reuses its buffer
    expect(socket.sent).toEqual([bytes(0xa1, 0x61, 0x61, 0x01), '{"ü":1}']);
    // The error goes out at once, so the two frames recorded before it go out first.
    expect(seen.at(-1)).toMatchObject({
      type: 'connection-error',
      message: 'frame not sent: a text frame must be valid UTF-8 (invalid byte at offset 1)',
    });
    expect(texts(framesIn(seen.at(-2)))).toEqual([
      'ws-1 sent binary a1616101',
      `ws-1 sent text ${Buffer.from('{"ü":1}').toString('hex')}`,
    ]);
    transport.send({ type: 'send-frame', connectionId: 'ws-1', opcode: 'binary', data: new Uint8Array(0) });
    advance(16);
    expect(texts(framesIn(seen.at(-1)))).toEqual(['ws-1 sent binary ']);
    transport.send({ type: 'send-frame', connectionId: 'ws-9', opcode: 'binary', data: bytes(1) });
    expect(seen.at(-1)).toMatchObject({ type: 'connection-error', connectionId: 'ws-9' });
    transport.close();
  });

  it('answers a frame action: a send on an open socket is recorded and ok, a closed socket or a delivery says why not', () => {
    const { transport, seen } = setup();
    transport.send({ type: 'connect', url: 'ws://h/', protocols: [] });
    const socket = sockets[0];
    const act = (requestId: number, action: 'send' | 'deliver') =>
      transport.send({
        type: 'frame-action',
        requestId,
        action,
        connectionId: 'ws-1',
        opcode: 'binary',
        data: bytes(7),
      });
    act(1, 'send');
    expect(seen.at(-1)).toEqual({
      type: 'frame-action-result',
      requestId: 1,
      ok: false,
      error: 'frame not sent: the connection is not open',
    });
    socket.open();
    act(2, 'send');
    expect(socket.sent).toEqual([bytes(7)]);
    expect(seen.at(-1)).toEqual({ type: 'frame-action-result', requestId: 2, ok: true });
    expect(texts(framesIn(seen.at(-2)))).toEqual(['ws-1 sent binary 07']);
    act(3, 'deliver');
    expect(seen.at(-1)).toMatchObject({ type: 'frame-action-result', requestId: 3, ok: false });
    expect(socket.sent).toHaveLength(1);
    transport.close();
  });

  it('a handler that sends while receiving sees every message once, in order', () => {
    sockets = [];
    const transport = createWebSocketTransport({ WebSocketImpl: FakeSocket, now: () => 0 });
    const seen: string[] = [];
    transport.listen((m) => {
      seen.push(m.type === 'frames' ? texts(m.frames).join() : m.type);
      if (m.type === 'connection-opened') {
        transport.send({ type: 'send-frame', connectionId: 'ws-1', opcode: 'binary', data: bytes(1) });
        transport.send({ type: 'send-frame', connectionId: 'ws-9', opcode: 'binary', data: bytes(2) });
      }
    });
    transport.send({ type: 'connect', url: 'ws://h/', protocols: [] });
    sockets[0].open();
    expect(seen).toEqual([
      'hello',
      'connection-opening',
      'connection-opened',
      'ws-1 sent binary 01',
      'connection-error',
    ]);
    transport.close();
  });

  it('rejects URLs a WebSocket cannot open, and constructor failures, as connection errors', () => {
    const { transport, seen } = setup();
    for (const url of ['not a url', 'https://h/', 'ws://h/#frag', 'ws://h/#'])
      transport.send({ type: 'connect', url, protocols: [] });
    expect(sockets).toHaveLength(0);
    expect(seen.map((m) => (m.type === 'connection-error' ? `${m.connectionId}: ${m.message}` : m.type))).toEqual([
      'ws-1: not a valid URL: "not a url"',
      'ws-2: a WebSocket URL starts with ws:// or wss://, not https://',
      'ws-3: a WebSocket URL cannot have a #fragment',
      'ws-4: a WebSocket URL cannot have a #fragment',
    ]);
    const throwing = createWebSocketTransport({
      WebSocketImpl: class extends FakeSocket {
        constructor(url: string) {
          super(url);
          throw new SyntaxError("The subprotocol 'a b' is invalid.");
        }
      },
      now: () => 0,
    });
    const out: HostMessage[] = [];
    throwing.listen((m) => out.push(m));
    throwing.send({ type: 'connect', url: 'ws://h/', protocols: ['a b'] });
    expect(types(out)).toEqual(['hello', 'connection-opening', 'connection-error']);
    expect(out[2]).toMatchObject({ message: "could not open the connection: The subprotocol 'a b' is invalid." });
    const noSocket = createWebSocketTransport({ WebSocketImpl: undefined, now: () => 0 });
    const none: HostMessage[] = [];
    noSocket.listen((m) => none.push(m));
    if (!globalThis.WebSocket) {
      noSocket.send({ type: 'connect', url: 'ws://h/', protocols: [] });
      expect(none[1]).toMatchObject({ type: 'connection-error', message: 'this environment has no WebSocket' });
    }
    for (const t of [transport, throwing, noSocket]) t.close();
  });

  it('disconnects with a code and reason; bad codes and unknown ids are errors', () => {
    const { transport, seen } = setup();
    transport.send({ type: 'connect', url: 'ws://h/', protocols: [] });
    sockets[0].open();
    transport.send({ type: 'disconnect', connectionId: 'ws-1', code: 1001, reason: 'x' });
    expect(seen.at(-1)).toMatchObject({
      type: 'connection-error',
      message: 'could not close: InvalidAccessError: close code 1001',
    });
    transport.send({ type: 'disconnect', connectionId: 'ws-1', code: 4000, reason: 'done' });
    expect(sockets[0].closedWith).toEqual([4000, 'done']);
    transport.send({ type: 'disconnect', connectionId: 'ws-7' });
    expect(seen.at(-1)).toMatchObject({ type: 'connection-error', connectionId: 'ws-7', message: 'not connected' });
    transport.close();
  });

  it('keeps several connections apart and their frames in arrival order', () => {
    const { transport, seen, advance } = setup();
    transport.send({ type: 'connect', url: 'ws://a/', protocols: [] });
    transport.send({ type: 'connect', url: 'ws://b/', protocols: [] });
    const [a, b] = sockets;
    a.open();
    b.open();
    a.receive(bytes(1).buffer);
    b.receive(bytes(2).buffer);
    a.receive(bytes(3).buffer);
    advance(16);
    expect(texts(framesIn(seen.at(-1)))).toEqual([
      'ws-1 received binary 01',
      'ws-2 received binary 02',
      'ws-1 received binary 03',
    ]);
    b.serverClose(1000, '', true);
    a.receive(bytes(4).buffer);
    advance(16);
    expect(types(seen).slice(-2)).toEqual(['connection-closed', 'frames(1)']);
    transport.close();
  });

  it('close() delivers what is ready, closes every socket and goes quiet', () => {
    const { transport, seen } = setup();
    transport.send({ type: 'connect', url: 'ws://a/', protocols: [] });
    sockets[0].open();
    sockets[0].receive(bytes(1).buffer);
    transport.close();
    expect(types(seen)).toEqual(['connection-opening', 'connection-opened', 'frames(1)']);
    expect(sockets[0].closedWith).toEqual([1000, 'inspector closed']);
    sockets[0].receive(bytes(2).buffer);
    sockets[0].serverClose(1000, '', true);
    transport.send({ type: 'connect', url: 'ws://b/', protocols: [] });
    expect(seen).toHaveLength(3);
    expect(sockets).toHaveLength(1);
  });
});
