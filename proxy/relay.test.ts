import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { parseCapture } from '../codecs/capture/capture-file.js';
import { upstreamUrl } from './relay.js';
import { memorySink, once, proxyTo, startUpstream, type Upstream } from './test/fixtures.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function echoUpstream(options = {}): Promise<Upstream> {
  const upstream = await startUpstream({
    handleProtocols: (offered) => (offered.has('mqtt') ? 'mqtt' : false),
    ...options,
  });
  upstream.server.on('connection', (socket) => {
    socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary }));
  });
  cleanups.push(() => upstream.close());
  return upstream;
}

/** A client without permessage-deflate, through the proxy, to an echo server with it; recorded. */
async function plainClientToDeflateUpstream() {
  const upstream = await echoUpstream({ perMessageDeflate: true });
  const sink = memorySink();
  const proxy = await proxyTo(upstream.url, { sink });
  cleanups.push(() => proxy.stop());
  const client = new WebSocket(proxy.ws, { perMessageDeflate: false });
  await once(client, 'open');
  return { sink, proxy, client };
}

describe('upstreamUrl', () => {
  it('appends the client path to the target path and joins the queries', () => {
    const target = new URL('ws://up:1/base?k=1');
    expect(upstreamUrl(target, '/room/7?x=2')).toBe('ws://up:1/base/room/7?k=1&x=2');
    expect(upstreamUrl(target, '/')).toBe('ws://up:1/base?k=1');
    expect(upstreamUrl(new URL('wss://up/'), '/a?b')).toBe('wss://up/a?b');
  });
});

describe('wirescope proxy relay', () => {
  it('passes text, binary, 1 MiB and fragmented messages byte-exact both ways, with headers, subprotocol and close code', async () => {
    const upstream = await echoUpstream();
    const sink = memorySink();
    const proxy = await proxyTo(`${upstream.url}/base`, { sink });
    cleanups.push(() => proxy.stop());
    const client = new WebSocket(`${proxy.ws}room?x=1`, ['mqtt', 'other'], {
      headers: { cookie: 'session=1', authorization: 'Bearer t', 'user-agent': 'test-agent' },
      origin: 'http://app.test',
    });
    await once(client, 'open');
    expect(client.protocol).toBe('mqtt');
    const { request } = upstream.accepted[0];
    expect(request.url).toBe('/base/room?x=1');
    expect(request.headers).toMatchObject({
      cookie: 'session=1',
      authorization: 'Bearer t',
      'user-agent': 'test-agent',
      origin: 'http://app.test',
    });
    const big = Buffer.alloc(1 << 20);
    for (let i = 0; i < big.length; i++) big[i] = (i * 31) & 255;
    const received: { data: Buffer; isBinary: boolean }[] = [];
    const four = new Promise<void>((resolve) =>
      client.on('message', (data: Buffer, isBinary) => {
        received.push({ data, isBinary });
        if (received.length === 4) resolve();
      }),
    );
    client.send('héllo 水');
    client.send(Buffer.from([0, 1, 254, 255]));
    client.send(big);
    client.send('frag-', { fin: false });
    client.send('ment', { fin: true });
    await four;
    expect(received.map((r) => r.isBinary)).toEqual([false, true, true, false]);
    expect(received[0].data.toString()).toBe('héllo 水');
    expect([...received[1].data]).toEqual([0, 1, 254, 255]);
    expect(received[2].data.equals(big)).toBe(true);
    expect(received[3].data.toString()).toBe('frag-ment');
    const upstreamClosed = once<[number, Buffer]>(upstream.accepted[0].socket, 'close');
    const clientClosed = once(client, 'close');
    client.close(4000, 'done here');
    const [code, reason] = await upstreamClosed;
    expect([code, reason.toString()]).toEqual([4000, 'done here']);
    await clientClosed;
    await proxy.stop();
    const capture = parseCapture(sink.text());
    expect(capture.errors).toEqual([]);
    expect(capture.connections[0]).toMatchObject({ protocol: 'mqtt', url: `${upstream.url}/base/room?x=1` });
    expect(capture.frames).toHaveLength(8);
    expect(Buffer.from(capture.frames.filter((f) => f.direction === 'received')[2].data).equals(big)).toBe(true);
  });

  it('passes the upstream close code and reason to the client, and pings and pongs both ways', async () => {
    const upstream = await echoUpstream({ autoPong: false });
    const proxy = await proxyTo(upstream.url);
    cleanups.push(() => proxy.stop());
    const client = new WebSocket(proxy.ws, { autoPong: false });
    await once(client, 'open');
    const server = upstream.accepted[0].socket;
    const ping = once<[Buffer]>(server, 'ping');
    client.ping(Buffer.from('p1'));
    expect((await ping)[0].toString()).toBe('p1');
    const pong = once<[Buffer]>(client, 'pong');
    server.pong(Buffer.from('p2'));
    expect((await pong)[0].toString()).toBe('p2');
    const closed = once<[number, Buffer]>(client, 'close');
    server.close(1008, 'policy');
    const [code, reason] = await closed;
    expect([code, reason.toString()]).toEqual([1008, 'policy']);
  });

  it('negotiates permessage-deflate on each leg on its own and records both', async () => {
    const { sink, proxy, client } = await plainClientToDeflateUpstream();
    expect(client.extensions).toBe('');
    const closed = once(client, 'close');
    client.close();
    await closed;
    await proxy.stop();
    const [connection] = parseCapture(sink.text()).connections;
    expect(connection.extensions).toBe('');
    expect(connection.extensionsRecorded).toBe(true);
    expect(connection.upstreamExtensions).toMatch(/^permessage-deflate/);
  });

  it('records the bytes each message took on each leg: compressed on the deflate leg, plain on the other', async () => {
    const { sink, proxy, client } = await plainClientToDeflateUpstream();
    const echoes = new Promise<void>((resolve) => {
      let n = 0;
      client.on('message', () => {
        if (++n === 2) resolve();
      });
    });
    client.send('abc'.repeat(4000)); // 12,000 B of text that deflates well
    client.send(Buffer.alloc(200, 7)); // with context takeover ws compresses every message, small ones too
    await echoes;
    const closed = once(client, 'close');
    client.close();
    await closed;
    await proxy.stop();
    const frames = parseCapture(sink.text()).frames;
    const legsOf = (direction: string, size: number) =>
      frames.find((f) => f.direction === direction && f.data.length === size)!.legBytes!;
    const [sentBig, sentSmall, receivedBig, receivedSmall] = [
      legsOf('sent', 12_000),
      legsOf('sent', 200),
      legsOf('received', 12_000),
      legsOf('received', 200),
    ];
    // Client leg, plain: payload + head (2, + 2 for a 16-bit length, + 4 for a client's mask).
    expect(sentBig.client).toBe(12_000 + 2 + 2 + 4);
    expect(receivedBig.client).toBe(12_000 + 2 + 2);
    expect([sentSmall.client, receivedSmall.client]).toEqual([200 + 2 + 2 + 4, 200 + 2 + 2]);
    // Upstream leg, permessage-deflate: far fewer bytes than the payload (at least a head each).
    for (const legs of [sentBig, sentSmall, receivedBig, receivedSmall]) {
      expect(legs.upstream).toBeGreaterThan(2);
      expect(legs.upstream).toBeLessThan(100);
    }
  });

  it('answers a client whose upstream refuses the upgrade with the upstream status', async () => {
    const upstream = await startUpstream({ verifyClient: () => false });
    cleanups.push(() => upstream.close());
    const proxy = await proxyTo(upstream.url);
    cleanups.push(() => proxy.stop());
    const client = new WebSocket(proxy.ws);
    client.on('error', () => {});
    const [, response] = await once<[unknown, { statusCode: number }]>(client, 'unexpected-response');
    expect(response.statusCode).toBe(401);
  });

  it('holds a client that sends faster than the upstream reads: memory stays bounded, nothing lost', async () => {
    const upstream = await startUpstream();
    cleanups.push(() => upstream.close());
    const sink = memorySink();
    const proxy = await proxyTo(upstream.url, { highWater: 256 * 1024, sink });
    cleanups.push(() => proxy.stop());
    const client = new WebSocket(proxy.ws);
    await once(client, 'open');
    const server = upstream.accepted[0].socket;
    server.pause();
    const chunk = Buffer.alloc(64 * 1024, 1);
    const total = 640; // 40 MiB: more than the loopback socket buffers of both legs hold
    for (let i = 0; i < total; i++) client.send(chunk);
    await new Promise((resolve) => setTimeout(resolve, 500));
    // The proxy stopped reading the client: it took in only part of what was sent.
    const seenByProxy = (sink.text().match(/"d":"s"/g) ?? []).length;
    expect(seenByProxy).toBeLessThan(total);
    let count = 0;
    const all = new Promise<void>((resolve) =>
      server.on('message', () => {
        if (++count === total) resolve();
      }),
    );
    server.resume();
    await all;
    expect(count).toBe(total);
  });
});

describe('an upstream that speaks first', () => {
  it('delivers the message that came in the same packet as its 101 response, and meters it', async () => {
    // Its 101 response and first frame go out in one write, as a busy server's often do.
    const server = http.createServer();
    const upgraded: Duplex[] = [];
    server.on('upgrade', (request, socket) => {
      upgraded.push(socket);
      const accept = createHash('sha1')
        .update(`${request.headers['sec-websocket-key']}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
        .digest('base64');
      const hello = Buffer.from('hello first');
      socket.write(
        Buffer.concat([
          Buffer.from(
            `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
          ),
          Buffer.from([0x81, hello.length]),
          hello,
        ]),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          for (const socket of upgraded) socket.destroy();
          server.close(() => resolve());
        }),
    );
    const sink = memorySink();
    const proxy = await proxyTo(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`, { sink });
    cleanups.push(() => proxy.stop());
    const client = new WebSocket(proxy.ws);
    const [first] = (await once(client, 'message')) as [Buffer];
    expect(first.toString()).toBe('hello first');
    client.terminate();
    await proxy.stop();
    const frames = parseCapture(sink.text()).frames;
    expect(frames.map((f) => [f.direction, Buffer.from(f.data).toString()])).toEqual([['received', 'hello first']]);
    expect(frames[0]?.legBytes?.upstream).toBe(13);
  }, 10_000);
});

describe('a recording that cannot keep up', () => {
  it('pauses the reading of the relayed sockets, then relays and records every message once it catches up', async () => {
    const upstream = await startUpstream();
    cleanups.push(() => upstream.close());
    const arrived: number[] = [];
    upstream.server.on('connection', (socket) =>
      socket.on('message', (data: Buffer) => arrived.push(data[0]! + 256 * data[1]!)),
    );
    let held: (() => void)[] | null = [];
    let written = '';
    const sink = {
      write(text: string, done: (error?: NodeJS.ErrnoException | null) => void) {
        const finish = () => {
          written += text;
          done(null);
        };
        if (held) held.push(finish);
        else setImmediate(finish);
      },
      writeNow(text: string) {
        written += text;
      },
    };
    const proxy = await proxyTo(upstream.url, { sink, recordHighWaterChars: 20_000 });
    cleanups.push(() => proxy.stop());
    const client = new WebSocket(proxy.ws, { perMessageDeflate: false });
    await once(client, 'open');
    const count = 400;
    for (let i = 0; i < count; i++) {
      const message = Buffer.alloc(1000, 7);
      message.writeUInt16LE(i, 0);
      client.send(message);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(proxy.recorder!.backlogged()).toBe(true);
    const whileBacklogged = arrived.length;
    expect(whileBacklogged).toBeLessThan(count);
    const waiting = held;
    held = null;
    for (const finish of waiting) finish();
    const deadline = Date.now() + 10_000;
    while (arrived.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(arrived).toEqual(Array.from({ length: count }, (_, i) => i));
    await proxy.recorder!.drained();
    const sent = parseCapture(written).frames.filter((f) => f.direction === 'sent');
    expect(sent.map((f) => f.data[0]! + 256 * f.data[1]!)).toEqual(arrived);
  });
});
