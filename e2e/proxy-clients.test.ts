/**
 * `wirescope proxy` with real Node clients: socket.io, mqtt.js (aedes broker) and graphql-ws,
 * plus a raw `ws` client for text, binary, 1 MiB and fragmented messages and close codes
 * both ways. What each upstream socket exchanged must be exactly what the proxy recorded,
 * the apps must get their answers byte for byte, the proxy's inspector page (Chromium) must
 * list the connections live, and the recorded file must import with every frame.
 * Needs npm run build:cli and npm run build:app.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { createClient } from 'graphql-ws';
import mqtt from 'mqtt';
import { io as socketIo } from 'socket.io-client';
import WebSocket from 'ws';
import { importCaptureFile } from '../inspector-app/src/state/import-file.js';
import { artifactPath, launchChromium } from './support/env.js';
import { startProxyProcess, type ProxyProcess } from './support/proxy-process.js';
import { startUpstreams, type Upstreams } from './support/proxy-upstreams.js';

let upstreams: Upstreams;
let proxy: ProxyProcess;
let browser: Browser;
const recordFile = path.join(mkdtempSync(path.join(tmpdir(), 'wirescope-proxy-')), 'session.wirescope');

beforeAll(async () => {
  upstreams = await startUpstreams();
  proxy = await startProxyProcess(['--target', upstreams.url, '--record', recordFile]);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  if (proxy) await proxy.stop();
  await upstreams?.close();
});

const MIB = Buffer.alloc(1 << 20);
for (let i = 0; i < MIB.length; i++) MIB[i] = (i * 7 + (i >> 11)) & 255;

const until = async (check: () => boolean, what: string, ms = 20_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('wirescope proxy with real clients', () => {
  it('lists the proxied connections live on its inspector page while the clients run', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(proxy.http);
    expect(new URL(page.url()).search).toBe('?source=proxy');
    await page.locator('[data-testid=status-host]').filter({ hasText: 'wirescope proxy' }).waitFor();

    // socket.io: an event with text and a 1 MiB binary attachment, acked back.
    const sio = socketIo(proxy.http, { transports: ['websocket'], reconnection: false });
    await new Promise<void>((resolve, reject) => {
      sio.on('connect', () => resolve());
      sio.on('connect_error', reject);
    });
    const [text, bytes] = (await sio.timeout(20_000).emitWithAck('echo', 'héllo ✓', MIB)) as [string, Buffer];
    expect(text).toBe('héllo ✓');
    expect(Buffer.from(bytes).equals(MIB)).toBe(true);
    sio.disconnect();

    // mqtt.js against aedes: subprotocol "mqtt", a text and a 1 MiB binary publish come back.
    const client = await mqtt.connectAsync(`${proxy.ws}mqtt`, { reconnectPeriod: 0, clientId: 'wirescope-e2e' });
    await client.subscribeAsync('t/#', { qos: 1 });
    const got: Buffer[] = [];
    client.on('message', (_topic, payload) => got.push(payload));
    await client.publishAsync('t/text', 'temp 21.5 ☀', { qos: 1 });
    await client.publishAsync('t/bin', MIB, { qos: 1 });
    await until(() => got.length === 2, 'two mqtt messages');
    expect(got[0].toString()).toBe('temp 21.5 ☀');
    expect(got[1].equals(MIB)).toBe(true);
    await client.endAsync();

    // graphql-ws: a query and a subscription over graphql-transport-ws.
    const gql = createClient({ url: `${proxy.ws}graphql`, webSocketImpl: WebSocket, lazy: true, retryAttempts: 0 });
    const hello = await new Promise<unknown>((resolve, reject) => {
      gql.subscribe(
        { query: '{ hello(name: "proxy") }' },
        { next: (r) => resolve(r), error: reject, complete: () => {} },
      );
    });
    expect(hello).toEqual({ data: { hello: 'hello proxy' } });
    const counts: number[] = [];
    await new Promise<void>((resolve, reject) => {
      gql.subscribe(
        { query: 'subscription { countdown(from: 3) }' },
        { next: (r) => counts.push((r.data as { countdown: number }).countdown), error: reject, complete: resolve },
      );
    });
    expect(counts).toEqual([3, 2, 1, 0]);
    await gql.dispose();

    // The page, opened before any of them, lists all three.
    for (const name of ['socket.io', 'mqtt', 'graphql']) {
      await page.locator('[data-testid=connection-status]', { hasText: name }).first().waitFor({ timeout: 20_000 });
    }
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=frame-row]').length >= 10, undefined, {
      timeout: 20_000,
    });
    await page.screenshot({ path: artifactPath('proxy-inspector-live.png') });
    await page.close();
  });

  it('passes text, binary, 1 MiB and fragmented messages and close codes both ways, byte-exact', async () => {
    const client = new WebSocket(`${proxy.ws}raw?case=1`, { perMessageDeflate: false });
    await new Promise((resolve) => client.once('open', resolve));
    const received: { data: Buffer; isBinary: boolean }[] = [];
    client.on('message', (data: Buffer, isBinary) => received.push({ data, isBinary }));
    client.send('text ✓');
    client.send(Buffer.from([0, 0xff, 0x80, 0x7f]));
    client.send(MIB);
    client.send(MIB.subarray(0, 1000), { fin: false });
    client.send(MIB.subarray(1000, 70_000), { fin: false });
    client.send(MIB.subarray(70_000, 70_001), { fin: true });
    await until(() => received.length === 4, 'four echoes');
    expect(received[0]).toMatchObject({ isBinary: false });
    expect(received[0].data.toString()).toBe('text ✓');
    expect([...received[1].data]).toEqual([0, 0xff, 0x80, 0x7f]);
    expect(received[2].data.equals(MIB)).toBe(true);
    expect(received[3].data.equals(MIB.subarray(0, 70_001))).toBe(true);
    // The upstream closes with 4002: the client gets it.
    const closed = new Promise<[number, string]>((resolve) =>
      client.once('close', (code, reason) => resolve([code, reason.toString()])),
    );
    client.send('close me 4002');
    expect(await closed).toEqual([4002, 'asked to']);
    // The client closes with 4321: the upstream gets it.
    const second = new WebSocket(`${proxy.ws}raw?case=2`);
    await new Promise((resolve) => second.once('open', resolve));
    second.close(4321, 'client bye');
    await until(() => upstreams.sockets.filter((s) => s.path === '/raw')[1]?.closed !== null, 'the upstream close');
    expect(upstreams.sockets.filter((s) => s.path === '/raw')[1].closed).toEqual({ code: 4321, reason: 'client bye' });
  });

  it('recorded every message exactly as the upstreams exchanged it, with subprotocols, and the file imports with every frame', async () => {
    await until(() => upstreams.sockets.every((s) => s.closed !== null), 'every upstream socket closed');
    const sioSocket = upstreams.sockets.find((s) => s.path === '/socket.io/');
    expect(sioSocket).toBeDefined();
    // Stop the proxy (SIGINT writes what is pending), then read the file as the app imports it.
    expect(await proxy.stop()).toBe(0);
    const imported = importCaptureFile(new Uint8Array(readFileSync(recordFile)));
    if ('error' in imported) throw new Error(imported.error);
    expect(imported.errors).toEqual([]);
    const total = upstreams.sockets.reduce((n, s) => n + s.messages.length, 0);
    expect(imported.frames).toHaveLength(total);
    expect(imported.connections).toHaveLength(upstreams.sockets.length);
    for (const socket of upstreams.sockets) {
      const connection = imported.connections.find(
        (c) => new URL(c.url).pathname === socket.path && !claimed.has(c.connectionId),
      );
      expect(connection, socket.path).toBeDefined();
      claimed.add(connection!.connectionId);
      expect(connection!.protocol).toBe(socket.protocol);
      const frames = imported.frames.filter((f) => f.connectionId === connection!.connectionId);
      for (const direction of ['sent', 'received'] as const) {
        expect(
          frames
            .filter((f) => f.direction === direction)
            .map((f) => `${f.opcode} ${Buffer.from(f.data).toString('hex')}`),
          `${socket.path} ${direction}`,
        ).toEqual(socket.messages.filter((m) => m.direction === direction).map((m) => `${m.opcode} ${m.hex}`));
      }
    }
    expect(imported.connections.find((c) => c.url.endsWith('/mqtt'))!.protocol).toBe('mqtt');
    expect(imported.connections.find((c) => c.url.endsWith('/graphql'))!.protocol).toBe('graphql-transport-ws');
  });
});

const claimed = new Set<string>();
