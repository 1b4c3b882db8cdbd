import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { parseCapture } from '../codecs/capture/capture-file.js';
import type { RecordSink } from './recorder.js';
import { memorySink, once, proxyTo, startUpstream } from './test/fixtures.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A raw TCP client past the WebSocket handshake, to send frames `ws` would never send. */
async function rawClient(port: number): Promise<{ socket: Socket; received: () => Buffer; ended: Promise<void> }> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  socket.write(
    'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
  );
  let data = Buffer.alloc(0);
  const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  await new Promise<void>((resolve) =>
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      if (data.includes('\r\n\r\n')) resolve();
    }),
  );
  const headEnd = data.indexOf('\r\n\r\n') + 4;
  expect(data.subarray(0, 12).toString()).toBe('HTTP/1.1 101');
  data = data.subarray(headEnd);
  return { socket, received: () => data, ended };
}

/** A masked client frame (mask 0: the payload goes as is). */
const masked = (first: number, payload: Buffer) =>
  Buffer.concat([Buffer.from([first, 0x80 | payload.length, 0, 0, 0, 0]), payload]);
const closeCodeOf = (bytes: Buffer) => (bytes[0] === 0x88 ? bytes.readUInt16BE(2) : -1);

async function echoProxy(sink?: RecordSink) {
  const upstream = await startUpstream();
  upstream.server.on('connection', (s) => s.on('message', (d, b) => s.send(d, { binary: b })));
  cleanups.push(() => upstream.close());
  const proxy = await proxyTo(upstream.url, { sink });
  cleanups.push(() => proxy.stop());
  return { upstream, proxy };
}

describe('wirescope proxy faults', () => {
  it('closes the client with 1014 and a reason when the upstream dies mid-message', async () => {
    const upstream = await startUpstream();
    cleanups.push(() => upstream.close());
    const proxy = await proxyTo(upstream.url);
    cleanups.push(() => proxy.stop());
    const client = new WebSocket(proxy.ws);
    await once(client, 'open');
    const tcp = (upstream.accepted[0].socket as unknown as { _socket: Socket })._socket;
    const closed = once<[number, Buffer]>(client, 'close');
    // The start of a 1000-byte binary frame, then the connection is gone.
    tcp.write(Buffer.from([0x82, 126, 0x03, 0xe8, 1, 2, 3]));
    setTimeout(() => tcp.destroy(), 20);
    const [code, reason] = await closed;
    expect(code).toBe(1014);
    expect(reason.toString()).toMatch(/upstream connection lost/);
  });

  it.each([
    ['an unmasked frame', Buffer.from([0x81, 2, 0x68, 0x69]), 1002],
    // Control frames carry at most 125 bytes (RFC 6455 5.5).
    [
      'a ping with a 126-byte payload',
      Buffer.concat([Buffer.from([0x89, 0x80 | 126, 0, 126, 0, 0, 0, 0]), Buffer.alloc(126)]),
      1002,
    ],
    ['text that is not UTF-8', masked(0x81, Buffer.from([0xc3, 0x28])), 1007],
  ])(
    'closes a client that sends %s with its code, records that code, and keeps serving the others',
    async (_what, frame, expected) => {
      const sink = memorySink();
      const { proxy } = await echoProxy(sink);
      const other = new WebSocket(proxy.ws);
      await once(other, 'open');
      const raw = await rawClient(proxy.port);
      raw.socket.write(frame);
      await raw.ended;
      expect(closeCodeOf(raw.received())).toBe(expected);
      const echoed = once<[Buffer]>(other, 'message');
      other.send('still here');
      expect((await echoed)[0].toString()).toBe('still here');
      const otherClosed = once(other, 'close');
      other.close(1000);
      await otherClosed;
      await proxy.stop();
      const closeCodes = sink
        .text()
        .split('\n')
        .filter((line) => line.startsWith('{"closed"'))
        .map((line) => (JSON.parse(line) as { closed: { code: number } }).closed.code);
      // The broken connection's close is recorded with the code the client was sent, not ws's local 1006.
      expect(closeCodes).toContain(expected);
      expect(closeCodes).not.toContain(1006);
    },
  );

  it('stops recording with one warning when the disk is full, and goes on forwarding', async () => {
    let written = '';
    let failing = false;
    const sink: RecordSink = {
      write(text, done) {
        if (failing) {
          const error = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
          setImmediate(() => done(error));
          return;
        }
        written += text;
        setImmediate(() => done(null));
      },
      writeNow(text) {
        written += text;
      },
    };
    const { proxy } = await echoProxy(sink);
    const client = new WebSocket(proxy.ws);
    await once(client, 'open');
    const echo = async (text: string) => {
      const got = once<[Buffer]>(client, 'message');
      client.send(text);
      return (await got)[0].toString();
    };
    expect(await echo('before')).toBe('before');
    await proxy.recorder!.drained();
    failing = true;
    for (let i = 0; i < 5; i++) expect(await echo(`after ${i}`)).toBe(`after ${i}`);
    await proxy.recorder!.drained();
    expect(proxy.warnings).toEqual([expect.stringMatching(/recording stopped: the disk is full \(ENOSPC\)/)]);
    expect(await echo('later')).toBe('later');
    const capture = parseCapture(written);
    expect(capture.errors).toEqual([]);
    expect(capture.frames.map((f) => new TextDecoder().decode(f.data))).toEqual(['before', 'before']);
  });
});
