import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { Model } from 'json-joy/lib/json-crdt/model/Model.js';
import { Patch } from 'json-joy/lib/json-crdt-patch/Patch.js';
import { decodeFrame } from '../codecs/index.js';
import { startDemoServer, type DemoServer } from './server.js';
import { createTraffic } from './traffic.js';

const SEED = 42;
const LARGE_EVERY = 100;
const MALFORMED_CHANCE = 0.05;
const INDEX_HTML = '<!doctype html><title>wirescope test app</title>';

interface ReceivedFrame {
  readonly bytes: Buffer;
  readonly isBinary: boolean;
}

let server: DemoServer;
let staticDir: string;

beforeAll(async () => {
  staticDir = mkdtempSync(path.join(os.tmpdir(), 'wirescope-demo-'));
  writeFileSync(path.join(staticDir, 'index.html'), INDEX_HTML);
  mkdirSync(path.join(staticDir, 'assets'));
  writeFileSync(path.join(staticDir, 'assets', 'app.js'), 'export {};\n');
  server = await startDemoServer({
    port: 0,
    staticDir,
    messagesPerSecond: 250,
    largeEvery: LARGE_EVERY,
    seed: SEED,
    malformedChance: MALFORMED_CHANCE,
  });
});

afterAll(async () => {
  await server?.close();
  rmSync(staticDir, { recursive: true, force: true });
});

function open(url: string, protocols?: string[]): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, protocols);
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Frames from `url` until `count` arrived or `ms` passed. */
function collect(url: string, count: number, ms: number): Promise<ReceivedFrame[]> {
  const frames: ReceivedFrame[] = [];
  // Listen before 'open' resolves anything: the server's first frame can arrive in the same
  // read as the handshake, and ws emits it synchronously right after 'open'.
  const socket = new WebSocket(url);
  return new Promise((resolve, reject) => {
    let finished = false;
    const done = () => {
      finished = true;
      clearTimeout(timer);
      socket.terminate();
      resolve(frames);
    };
    const timer = setTimeout(done, ms);
    socket.once('error', reject);
    socket.on('message', (data, isBinary) => {
      if (finished) return; // frames already read from the socket still arrive after terminate()
      frames.push({ bytes: data as Buffer, isBinary });
      if (frames.length === count) done();
    });
  });
}

function get(urlPath: string): Promise<{ status: number; type: string; body: string }> {
  const { port } = server;
  return new Promise((resolve, reject) => {
    // http.request sends the path verbatim (no URL normalisation), so `/../x` reaches the server as is.
    const request = http.request({ host: '127.0.0.1', port, path: urlPath }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, type: String(response.headers['content-type']), body }),
      );
    });
    request.on('error', reject);
    request.end();
  });
}

describe('demo server: /demo stream', () => {
  it('streams the seeded traffic: model snapshot first, then every kind decodes as labelled', async () => {
    const frames = await collect(server.wsUrl, 230, 2500);
    expect(frames.length).toBeGreaterThan(LARGE_EVERY + 1);

    // The server replays the seeded stream per connection: walk the generator in lockstep.
    const expected = createTraffic({ seed: SEED, largeEvery: LARGE_EVERY, malformedChance: MALFORMED_CHANCE });
    const seen = new Map<string, number>();
    let largest = 0;
    for (const [i, frame] of frames.entries()) {
      const message = expected.next();
      const label = `#${i} ${message.label}`;
      seen.set(message.kind, (seen.get(message.kind) ?? 0) + 1);
      largest = Math.max(largest, frame.bytes.length);
      expect(frame.isBinary, label).toBe(message.opcode === 'binary');
      const decoded = decodeFrame(frame.bytes, { isText: !frame.isBinary, depth: 1 });
      switch (message.kind) {
        case 'crdt-model':
          expect(Model.fromBinary(frame.bytes).view(), label).toMatchObject({ todos: expect.any(Array) });
          expect(Buffer.compare(frame.bytes, message.data as Uint8Array), label).toBe(0);
          break;
        case 'crdt-patch':
          expect(Patch.fromBinary(frame.bytes).ops.length, label).toBeGreaterThan(0);
          expect(Buffer.compare(frame.bytes, message.data as Uint8Array), label).toBe(0);
          break;
        case 'malformed':
          expect(decoded.error, label).not.toBeNull();
          expect(decoded.error!.offset, label).toBeGreaterThan(0);
          continue;
        case 'attachment':
          // Raw bytes announced by the Socket.IO event before it.
          expect(frames[i - 1].bytes.toString()).toMatch(/^451-/);
          continue;
      }
      expect(decoded.error, label).toBeNull();
      expect(decoded.format, label).toBe(message.kind);
    }
    expect(frames[0].isBinary).toBe(true);
    expect(() => Model.fromBinary(frames[0].bytes)).not.toThrow();
    for (const kind of [
      'crdt-model',
      'crdt-patch',
      'cbor',
      'msgpack',
      'json',
      'socketio',
      'protobuf',
      'attachment',
      'malformed',
    ])
      expect(seen.get(kind), kind).toBeGreaterThan(0);
    expect(largest).toBeGreaterThan(1_000_000);
  });

  it('echoes client frames, text and binary', async () => {
    const socket = await open(server.wsUrl);
    const probe = Buffer.from('wirescope-echo-probe-\u00ff\u0000', 'latin1');
    const echoes = new Promise<{ binary: boolean; text: boolean }>((resolve) => {
      const got = { binary: false, text: false };
      socket.on('message', (data, isBinary) => {
        const bytes = data as Buffer;
        if (isBinary && bytes.equals(probe)) got.binary = true;
        if (!isBinary && bytes.toString('utf8') === '{"hello":"wirescope"}') got.text = true;
        if (got.binary && got.text) resolve(got);
      });
    });
    socket.send(probe, { binary: true });
    socket.send('{"hello":"wirescope"}');
    expect(await echoes).toEqual({ binary: true, text: true });
    socket.terminate();
  });

  it('accepts the first subprotocol the client offers', async () => {
    const socket = await open(server.wsUrl, ['wirescope.v1', 'other.v2']);
    expect(socket.protocol).toBe('wirescope.v1');
    socket.terminate();
  });

  it('/demo/json streams JSON text frames only', async () => {
    const frames = await collect(server.wsUrl.replace(/\/demo$/, '/demo/json'), 20, 1000);
    expect(frames.length).toBe(20);
    for (const frame of frames) {
      expect(frame.isBinary).toBe(false);
      expect(JSON.parse(frame.bytes.toString('utf8'))).toHaveProperty('type');
    }
  });

  it('refuses unknown WebSocket paths', async () => {
    await expect(open(server.wsUrl.replace(/\/demo$/, '/nope'))).rejects.toThrow(/404/);
  });
});

describe('demo server: static files', () => {
  it('serves index.html at / and assets with their content types', async () => {
    const index = await get('/');
    expect(index).toMatchObject({ status: 200, body: INDEX_HTML });
    expect(index.type).toMatch(/^text\/html/);
    const script = await get('/assets/app.js?v=1');
    expect(script.status).toBe(200);
    expect(script.type).toMatch(/^text\/javascript/);
    expect((await get('/missing.html')).status).toBe(404);
  });

  it('refuses paths outside the directory', async () => {
    for (const attempt of [
      '/../package.json',
      '/..%2fpackage.json',
      '/assets/../../package.json',
      '/%2e%2e/%2e%2e/etc/passwd',
    ]) {
      const response = await get(attempt);
      expect([403, 404], attempt).toContain(response.status);
      expect(response.body, attempt).not.toContain('"name"');
    }
    expect((await get('/../package.json')).status).toBe(403);
  });

  it('answers a plain GET on the WebSocket path with 426', async () => {
    expect((await get('/demo')).status).toBe(426);
  });
});

describe('demo server: close', () => {
  it('terminates clients and stops listening', async () => {
    const own = await startDemoServer({ port: 0, messagesPerSecond: 50 });
    const socket = await open(own.wsUrl);
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    await own.close();
    await closed;
    await expect(open(own.wsUrl)).rejects.toThrow();
  });
});
