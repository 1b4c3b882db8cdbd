import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, FrameImpl, Parser } from '@stomp/stompjs';
import { WebSocket } from 'ws';
import { decodeFrame, recognizeProtocol, stompFrames, stompWalker } from '../index.js';
import { captureProxy, until, type CapturedFrame } from './test/ws-capture.js';
import { assertTiles } from './test/tiles.js';
import { checkMutationsAndTruncations } from './test/mutations.js';
import { firstOffered, localWsServer } from './test/ws-server.js';

/** A broker that answers CONNECT, delivers each SEND to the subscription and acknowledges receipts. */
async function broker(): Promise<{ url: string; close(): Promise<void> }> {
  const server = await localWsServer({ handleProtocols: firstOffered });
  server.wss.on('connection', (socket) => {
    const send = (command: string, headers: Record<string, string>, body: string | Uint8Array = '') =>
      socket.send(
        FrameImpl.marshall({
          command,
          headers,
          ...(typeof body === 'string' ? { body } : { binaryBody: body }),
          escapeHeaderValues: command !== 'CONNECTED',
        }),
      );
    let subscription = '';
    let n = 0;
    const parser = new Parser(
      (raw) => {
        const frame = FrameImpl.fromRawFrame(raw, raw.command !== 'CONNECT');
        const h = frame.headers;
        if (frame.command === 'CONNECT' || frame.command === 'STOMP')
          send('CONNECTED', { version: '1.2', 'heart-beat': '0,100', server: 'test-broker/1.0' });
        if (frame.command === 'SUBSCRIBE') subscription = h.id;
        if (frame.command === 'SEND')
          send(
            'MESSAGE',
            {
              destination: h.destination,
              'message-id': `m-${++n}`,
              subscription,
              'content-type': h['content-type'] ?? 'text/plain',
              'x-note': 'a:b\nc',
            },
            frame.isBinaryBody ? frame.binaryBody : frame.body,
          );
        if (h.receipt) send('RECEIPT', { 'receipt-id': h.receipt });
      },
      () => {},
    );
    socket.on('message', (data: Buffer, isBinary: boolean) =>
      parser.parseChunk(isBinary ? new Uint8Array(data).buffer : data.toString('utf8')),
    );
  });
  return server;
}

let frames: CapturedFrame[] = [];
let close: () => Promise<void>;
beforeAll(async () => {
  const b = await broker();
  const capture = await captureProxy(b.url);
  close = async () => {
    await capture.close();
    await b.close();
  };
  const got: string[] = [];
  const client = new Client({
    webSocketFactory: () => new WebSocket(`${capture.url}/stomp`, ['v12.stomp']),
    heartbeatIncoming: 0,
    heartbeatOutgoing: 50,
    reconnectDelay: 0,
    connectHeaders: { login: 'ann', passcode: 'secret', host: '/' },
  });
  await new Promise<void>((resolve) => {
    client.onConnect = () => resolve();
    client.activate();
  });
  client.subscribe('/topic/prices', (m) => got.push(m.body), { ack: 'auto' });
  client.publish({
    destination: '/topic/prices',
    body: JSON.stringify({ symbol: 'ACME', price: 12.5, tags: ['a', 'b'] }),
    headers: { 'content-type': 'application/json', receipt: 'r-1' },
  });
  client.publish({
    destination: '/topic/prices',
    body: 'plain words ☕',
    headers: { 'content-type': 'text/plain;charset=utf-8' },
  });
  client.publish({
    destination: '/topic/prices',
    binaryBody: new Uint8Array([0, 1, 2, 255]),
    headers: { 'content-type': 'application/octet-stream' },
  });
  await until(() => got.length === 3);
  // Let a few heart-beats go by.
  await new Promise((r) => setTimeout(r, 180));
  await client.deactivate();
  await until(() => capture.frames.some((f) => new TextDecoder().decode(f.data).startsWith('DISCONNECT')));
  frames = capture.frames.slice();
}, 20_000);
afterAll(() => close?.());

const decodeAll = () =>
  frames.map((f) => ({ f, d: decodeFrame(f.data, { isText: f.opcode === 'text', preferFormat: 'stomp' }) }));

describe('STOMP frames from @stomp/stompjs', () => {
  it('every frame decodes as STOMP whole, with spans that tile it', () => {
    const all = decodeAll();
    const commands = all.flatMap(({ d }) => stompFrames(d.index!).map((s) => s.command));
    for (const c of ['CONNECT', 'CONNECTED', 'SUBSCRIBE', 'SEND', 'MESSAGE', 'RECEIPT', 'DISCONNECT', 'heart-beat'])
      expect(commands).toContain(c);
    for (const { f, d } of all) {
      expect(d.format, JSON.stringify(new TextDecoder().decode(f.data))).toBe('stomp');
      expect(d.error).toBeNull();
      d.index!.expandAll(0);
      assertTiles(d.index!);
    }
  });

  it('command, headers with spans, the JSON body as a subtree with spans into the frame', () => {
    const send = decodeAll().find(
      ({ d }) => stompFrames(d.index!)[0]?.command === 'SEND' && stompFrames(d.index!)[0].body === 'json',
    )!;
    const ix = send.d.index!;
    const value = ix.value(ix.root) as Record<string, unknown>;
    expect(value.command).toBe('SEND');
    expect(value.headers).toMatchObject({
      destination: '/topic/prices',
      'content-type': 'application/json',
      receipt: 'r-1',
    });
    expect(value.body).toEqual({ symbol: 'ACME', price: 12.5, tags: ['a', 'b'] });
    const entries = ix.children(ix.root);
    const body = entries.find((c) => ix.value(ix.keyOf(c)) === 'body')!;
    const price = ix.children(body)[1];
    expect(new TextDecoder().decode(ix.bytes.subarray(ix.store.start[price], ix.store.end[price]))).toBe('12.5');
    const headers = entries.find((c) => ix.value(ix.keyOf(c)) === 'headers')!;
    const dest = ix.children(headers)[0];
    expect(
      new TextDecoder().decode(ix.bytes.subarray(ix.store.start[ix.keyOf(dest)], ix.store.end[ix.keyOf(dest)])),
    ).toBe('destination');
    expect(new TextDecoder().decode(ix.bytes.subarray(ix.store.start[dest], ix.store.end[dest]))).toBe(
      ':/topic/prices\n',
    );
    expect(recognizeProtocol(ix, 'stomp')).toMatchObject({
      protocol: 'stomp',
      message: 'SEND',
      event: '/topic/prices',
      id: 'r-1',
    });
  });

  it('text and binary bodies by content-type; escaped header values; heart-beats quiet', () => {
    const all = decodeAll();
    const messages = all
      .filter(({ d }) => stompFrames(d.index!)[0]?.command === 'MESSAGE')
      .map(({ d }) => d.index!.value(d.index!.root) as Record<string, Record<string, unknown>>);
    expect(messages.map((m) => m.body)).toEqual([
      { symbol: 'ACME', price: 12.5, tags: ['a', 'b'] },
      'plain words ☕',
      new Uint8Array([0, 1, 2, 255]),
    ]);
    expect(messages[0].headers['x-note']).toBe('a:b\nc');
    const beat = all.find(({ d }) => stompFrames(d.index!)[0]?.command === 'heart-beat')!;
    expect(recognizeProtocol(beat.d.index, beat.d.format)).toMatchObject({
      protocol: 'stomp',
      message: 'heart-beat',
      quiet: true,
    });
    // Without the connection's evidence a lone EOL is just text.
    expect(decodeFrame(beat.f.data, { isText: true }).format).not.toBe('stomp');
  });

  it('a frame without its NUL is an error at the end, parts kept; several frames in one message', () => {
    const send = frames.find((f) => new TextDecoder().decode(f.data).startsWith('SEND'))!.data;
    const cut = send.subarray(0, send.length - 1);
    const d = decodeFrame(cut, { isText: true });
    expect(d).toMatchObject({ format: 'stomp', verdict: 'malformed' });
    expect(d.error).toMatchObject({ code: 'truncated', offset: cut.length });
    expect((d.index!.value(d.index!.root) as Record<string, unknown>).command).toBe('SEND');
    const two = new Uint8Array([...send, 0x0a, ...send]);
    const both = decodeFrame(two, { isText: true });
    expect(both.error).toBeNull();
    expect(stompFrames(both.index!).map((f) => f.command)).toEqual(['SEND', 'SEND']);
    both.index!.expandAll(0);
    assertTiles(both.index!);
  });

  it('mutations and truncations never throw; spans stay inside the frame', () => {
    const real = frames.map((f) => f.data).filter((d) => d.length > 2);
    checkMutationsAndTruncations(real, stompWalker, { isText: true }, 400);
  });
});
