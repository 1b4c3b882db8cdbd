import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Centrifuge } from 'centrifuge';
import { WebSocket } from 'ws';
import { MsgPackEncoder } from '@jsonjoy.com/json-pack/lib/msgpack/MsgPackEncoder.js';
import { decodeFrame, recognizeProtocol } from '../index.js';
import { captureProxy, until, type CapturedFrame } from './test/ws-capture.js';
import { localWsServer } from './test/ws-server.js';

let frames: CapturedFrame[] = [];
let close: () => Promise<void>;

beforeAll(async () => {
  const server = await localWsServer();
  server.wss.on('connection', (socket) => {
    socket.on('message', (data: Buffer) => {
      const replies: string[] = [];
      for (const line of data.toString().split('\n').filter(Boolean)) {
        const cmd = JSON.parse(line) as Record<string, unknown>;
        if (cmd.connect)
          replies.push(
            JSON.stringify({ id: cmd.id, connect: { client: 'c-1', version: '5.0.0', ping: 25, pong: true } }),
          );
        if (cmd.subscribe) {
          const channel = (cmd.subscribe as { channel: string }).channel;
          replies.push(JSON.stringify({ id: cmd.id, subscribe: {} }));
          replies.push(JSON.stringify({ push: { channel, pub: { data: { price: 12.5, channel } } } }));
        }
        if (cmd.publish) replies.push(JSON.stringify({ id: cmd.id, publish: {} }));
      }
      // Centrifugo batches replies the same way: one frame, one JSON value per line.
      if (replies.length) socket.send(replies.join('\n'));
    });
  });
  const capture = await captureProxy(server.url);
  const client = new Centrifuge(`${capture.url}/connection/websocket`, {
    websocket: WebSocket,
    name: 'wirescope-test',
  });
  const got: unknown[] = [];
  const a = client.newSubscription('prices:ACME');
  const b = client.newSubscription('prices:INIT');
  a.on('publication', (ctx) => got.push(ctx.data));
  b.on('publication', (ctx) => got.push(ctx.data));
  a.subscribe();
  b.subscribe();
  client.connect();
  await until(() => got.length === 2);
  await client.publish('chat:lobby', { text: 'hi' });
  client.disconnect();
  frames = capture.frames.slice();
  close = async () => {
    await capture.close();
    await server.close();
  };
}, 20_000);
afterAll(() => close?.());

describe('Centrifugo JSON protocol (real centrifuge-js client)', () => {
  it('commands and replies are named, with channel and id; batched frames read as ndjson', () => {
    const read = frames.map((f) => {
      const d = decodeFrame(f.data, { isText: f.opcode === 'text' });
      return { d, info: recognizeProtocol(d.index, d.format) };
    });
    for (const { info } of read) expect(info?.protocol).toBe('centrifugo');
    const infos = read.map((r) => r.info!);
    expect(infos).toContainEqual(expect.objectContaining({ message: 'publish', event: 'chat:lobby' }));
    // The client's batch: connect and two subscribes; the server's: five replies and pushes.
    expect(infos).toContainEqual(
      expect.objectContaining({ message: 'connect +2', event: 'prices:ACME prices:INIT', id: '1' }),
    );
    expect(infos).toContainEqual(expect.objectContaining({ message: 'connect +4', event: 'prices:ACME prices:INIT' }));
    // Several replies in one frame: newline-delimited JSON, each value with its span.
    const batched = read.find((r) => r.d.format === 'ndjson')!;
    expect(batched, read.map((r) => r.d.format).join()).toBeTruthy();
    const values = batched.d.index!.value(0) as unknown[];
    expect(values.length).toBeGreaterThan(1);
  });
});

describe('WAMP', () => {
  const hello = [1, 'realm1', { roles: { subscriber: {}, publisher: {} } }];
  const publish = [16, 239714735, {}, 'com.myapp.mytopic1', ['Hello, world!']];
  it('JSON: HELLO by its shape, PUBLISH with the subprotocol; message codes named with the topic', () => {
    const json = (v: unknown) => decodeFrame(new TextEncoder().encode(JSON.stringify(v)), { isText: true });
    const h = json(hello);
    expect(recognizeProtocol(h.index, h.format)).toMatchObject({ protocol: 'wamp', message: 'HELLO', event: 'realm1' });
    const p = json(publish);
    expect(recognizeProtocol(p.index, p.format, { subprotocol: 'wamp.2.json' })).toMatchObject({
      protocol: 'wamp',
      message: 'PUBLISH',
      event: 'com.myapp.mytopic1',
    });
  });

  it('MessagePack serialization (wamp.2.msgpack) reads the same', () => {
    const mp = (v: unknown) => decodeFrame(new MsgPackEncoder().encode(v));
    const h = mp(hello);
    expect(h.format).toBe('msgpack');
    expect(recognizeProtocol(h.index, h.format)).toMatchObject({ protocol: 'wamp', message: 'HELLO', event: 'realm1' });
    const p = mp(publish);
    expect(recognizeProtocol(p.index, p.format, { subprotocol: 'wamp.2.msgpack' })).toMatchObject({
      protocol: 'wamp',
      message: 'PUBLISH',
      event: 'com.myapp.mytopic1',
    });
  });
});
