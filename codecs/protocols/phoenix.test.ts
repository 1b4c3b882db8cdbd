import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Socket } from 'phoenix';
import { WebSocket } from 'ws';
import { decodeFrame, phoenixBinary, phoenixWalker, recognizeProtocol } from '../index.js';
import { captureProxy, until, type CapturedFrame } from './test/ws-capture.js';
import { assertTiles } from './test/tiles.js';
import { checkMutationsAndTruncations } from './test/mutations.js';
import { localWsServer } from './test/ws-server.js';

const utf8 = new TextEncoder();

/** A server-side binary frame in phoenix.js' layout: reply (1) or broadcast (2). */
function serverBinary(kind: 1 | 2, parts: string[], body: Uint8Array): Uint8Array {
  const strings = parts.map((s) => utf8.encode(s));
  return new Uint8Array([kind, ...strings.map((s) => s.length), ...strings.flatMap((s) => [...s]), ...body]);
}

let frames: CapturedFrame[] = [];
const received: unknown[] = [];
let close: () => Promise<void>;

beforeAll(async () => {
  const server = await localWsServer();
  server.wss.on('connection', (socket) => {
    socket.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) {
        const b = new Uint8Array(data);
        const [jr, r, t, e] = [b[1], b[2], b[3], b[4]];
        const at = 5;
        const dec = new TextDecoder();
        const joinRef = dec.decode(b.subarray(at, at + jr));
        const ref = dec.decode(b.subarray(at + jr, at + jr + r));
        const topic = dec.decode(b.subarray(at + jr + r, at + jr + r + t));
        const body = b.subarray(at + jr + r + t + e);
        socket.send(serverBinary(1, [joinRef, ref, topic, 'ok'], body));
        socket.send(serverBinary(2, [topic, 'blob_added'], body));
        return;
      }
      const [joinRef, ref, topic, event, payload] = JSON.parse(data.toString());
      if (event === 'phx_join' || event === 'heartbeat' || event === 'new_msg')
        socket.send(JSON.stringify([joinRef, ref, topic, 'phx_reply', { status: 'ok', response: {} }]));
      if (event === 'new_msg') socket.send(JSON.stringify([null, null, topic, 'new_msg', payload]));
    });
  });
  const capture = await captureProxy(server.url);
  const socket = new Socket(`${capture.url}/socket`, {
    transport: WebSocket as never,
    heartbeatIntervalMs: 40,
    reconnectAfterMs: () => 60_000,
  });
  socket.connect();
  const channel = socket.channel('room:lobby', { token: 'abc' });
  await new Promise<void>((resolve) => channel.join().receive('ok', () => resolve()));
  channel.on('new_msg', (m: unknown) => received.push(m));
  channel.on('blob_added', (m: unknown) => received.push(new Uint8Array(m as ArrayBuffer)));
  channel.push('new_msg', { body: 'hello ☕', n: 1 });
  const blob = new Uint8Array([0xa1, 0x61, 0x78, 0x01]).buffer; // CBOR {x: 1}
  const replied = new Promise<unknown>((resolve) =>
    channel.push('upload', blob).receive('ok', (r: unknown) => resolve(r)),
  );
  received.push(new Uint8Array((await replied) as ArrayBuffer));
  await until(
    () =>
      received.length === 3 &&
      capture.frames.some((f) => f.data.includes(0x68) && new TextDecoder().decode(f.data).includes('"heartbeat"')),
  );
  socket.disconnect();
  frames = capture.frames.slice();
  close = async () => {
    await capture.close();
    await server.close();
  };
}, 20_000);
afterAll(() => close?.());

describe('Phoenix channels (real phoenix.js client)', () => {
  it('JSON v2 frames: join, push, reply, broadcast, heartbeat named with topic and ref', () => {
    const infos = frames
      .filter((f) => f.opcode === 'text')
      .map((f) => {
        const d = decodeFrame(f.data, { isText: true });
        return recognizeProtocol(d.index, d.format);
      });
    expect(infos.every((i) => i?.protocol === 'phoenix')).toBe(true);
    expect(infos).toContainEqual(expect.objectContaining({ message: 'phx_join', event: 'room:lobby' }));
    expect(infos).toContainEqual(expect.objectContaining({ message: 'new_msg', event: 'room:lobby' }));
    expect(infos).toContainEqual(expect.objectContaining({ message: 'heartbeat', event: 'phoenix', quiet: true }));
    expect(infos).toContainEqual(expect.objectContaining({ message: 'phx_reply', event: 'room:lobby' }));
  });

  it('binary push, reply and broadcast: parts with spans, the payload decoded (CBOR here)', () => {
    expect(received).toEqual([
      { body: 'hello ☕', n: 1 },
      new Uint8Array([0xa1, 0x61, 0x78, 0x01]),
      new Uint8Array([0xa1, 0x61, 0x78, 0x01]),
    ]);
    const binary = frames.filter((f) => f.opcode === 'binary');
    expect(binary).toHaveLength(3);
    const decoded = binary.map((f) => decodeFrame(f.data));
    for (const d of decoded) {
      expect(d).toMatchObject({ format: 'phoenix', verdict: 'decoded', error: null });
      d.index!.expandAll(0);
      assertTiles(d.index!);
      expect((d.index!.value(0) as Record<string, unknown>).payload).toEqual({ x: 1 });
    }
    const push = phoenixBinary(decoded[0].index!)!;
    expect(push).toMatchObject({ kind: 'push', topic: 'room:lobby', event: 'upload' });
    expect(push.ref).toMatch(/^\d+$/);
    expect(phoenixBinary(decoded.find((d) => phoenixBinary(d.index!)!.kind === 'reply')!.index!)).toMatchObject({
      topic: 'room:lobby',
      event: 'ok',
      ref: push.ref,
    });
    const broadcast = decoded.find((d) => phoenixBinary(d.index!)!.kind === 'broadcast')!;
    expect(recognizeProtocol(broadcast.index, broadcast.format)).toMatchObject({
      protocol: 'phoenix',
      message: 'blob_added',
      event: 'room:lobby',
    });
    const ix = decoded[0].index!;
    const topicNode = ix.children(0).find((c) => ix.value(ix.keyOf(c)) === 'topic')!;
    expect(new TextDecoder().decode(ix.bytes.subarray(ix.store.start[topicNode], ix.store.end[topicNode]))).toBe(
      'room:lobby',
    );
  });

  it('a server push (no ref) reads with the three-string layout', () => {
    const frame = new Uint8Array([
      0,
      1,
      10,
      7,
      ...utf8.encode('3'),
      ...utf8.encode('room:lobby'),
      ...utf8.encode('new_msg'),
      ...utf8.encode('{"a":1}'),
    ]);
    const d = decodeFrame(frame);
    expect(d.format).toBe('phoenix');
    expect(phoenixBinary(d.index!)).toMatchObject({
      kind: 'push',
      joinRef: '3',
      ref: null,
      topic: 'room:lobby',
      event: 'new_msg',
    });
    expect((d.index!.value(0) as Record<string, unknown>).payload).toEqual({ a: 1 });
  });

  it('sizes past the frame are an error with an offset; mutations and truncations never throw', () => {
    const push = frames.find((f) => f.opcode === 'binary')!.data;
    const cut = decodeFrame(push.subarray(0, 8), { format: 'phoenix' });
    expect(cut).toMatchObject({ format: 'phoenix', verdict: 'malformed' });
    expect(cut.error!.offset).toBe(1);
    checkMutationsAndTruncations([push], phoenixWalker, {}, 300);
  });
});
