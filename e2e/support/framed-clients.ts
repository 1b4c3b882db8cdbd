/**
 * The page and servers of the framed Edit and send tests (framed-actions-*.test.ts): a page
 * using the real socket.io-client and mqtt.js (their browser builds, served from
 * node_modules) that emits one Socket.IO event on namespace `/chat` and publishes one MQTT
 * message over WebSocket; a socket.io server that records every frame it receives and every
 * event its `/chat` namespace sees (as socket.io parsed it), and an aedes broker over `ws` that
 * records every frame it receives and every message published to it (as aedes read it).
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Aedes } from 'aedes';
import mqttPacket from 'mqtt-packet';
import { Server as SocketIoServer } from 'socket.io';
import { expect } from 'vitest';
import { createWebSocketStream, WebSocketServer } from 'ws';
import { recordingWsEngine, type WireRecord } from './client-servers.js';
import { REPO } from './env.js';

const MODULES = path.join(REPO, 'node_modules');

/** What the page emits and publishes. */
export const IO_EVENT = ['say', { text: 'hi', n: 1 }] as const;
export const IO_FRAME = `42/chat,${JSON.stringify(IO_EVENT)}`;
/** A binary event: a JSON argument and a binary one (sent as an attachment frame after its packet). */
export const UPLOAD_ARG = { name: 'a.bin' };
export const UPLOAD_BYTES = [1, 2, 3, 4];
export const MQTT_TOPIC = 'sensors/1';
export const MQTT_PAYLOAD = JSON.stringify({ t: 21 });

export interface FramedServers {
  readonly url: string;
  /** Text frames the socket.io server received, in order (as the wire carried them). */
  readonly ioFrames: readonly string[];
  /** `say` events the `/chat` namespace received: [event, ...args]. */
  readonly ioEvents: unknown[][];
  /** `upload` events it received, binary arguments as `{ bytes }`. */
  readonly ioUploads: unknown[][];
  /** Binary frames the MQTT broker received, in order. */
  readonly mqttFrames: Uint8Array[];
  /** Messages published to the broker by a client: topic and payload. */
  readonly published: { topic: string; payload: number[] }[];
  close(): Promise<void>;
}

const page = (mqttPort: number) => `<!doctype html><meta charset="utf-8"><title>framed clients</title>
<script src="/socket.io.min.js"></script><script src="/mqtt.min.js"></script><script>
window.__ready = (async () => {
  const socket = io('/chat', { transports: ['websocket'], reconnection: false });
  await new Promise((resolve, reject) => { socket.on('connect', resolve); socket.on('connect_error', reject); });
  socket.emit(...${JSON.stringify(IO_EVENT)});
  socket.emit('upload', ${JSON.stringify(UPLOAD_ARG)}, new Uint8Array(${JSON.stringify(UPLOAD_BYTES)}));
  const client = mqtt.connect('ws://127.0.0.1:${mqttPort}', { protocolVersion: 4, reconnectPeriod: 0, clientId: 'framed-page' });
  await new Promise((resolve, reject) => { client.on('connect', resolve); client.on('error', reject); });
  await new Promise((resolve, reject) => client.publish(${JSON.stringify(MQTT_TOPIC)}, ${JSON.stringify(MQTT_PAYLOAD)}, { qos: 0 }, (e) => (e ? reject(e) : resolve())));
  window.socket = socket;
  window.mqttClient = client;
  return true;
})();
</script>`;

export async function startFramedServers(): Promise<FramedServers> {
  const ioEvents: unknown[][] = [];
  const ioUploads: unknown[][] = [];
  const mqttFrames: Uint8Array[] = [];
  const published: FramedServers['published'] = [];

  // The MQTT broker, on its own port.
  const aedes = await Aedes.createBroker();
  aedes.on('publish', (packet, client) => {
    if (client) published.push({ topic: packet.topic, payload: [...Buffer.from(packet.payload)] });
  });
  const mqttServer = http.createServer();
  const mqttWss = new WebSocketServer({
    server: mqttServer,
    perMessageDeflate: false,
    handleProtocols: (offered) => offered.values().next().value ?? false,
  });
  mqttWss.on('connection', (ws, request) => {
    ws.on('message', (data: Buffer) => mqttFrames.push(new Uint8Array(data)));
    aedes.handle(createWebSocketStream(ws) as never, request);
  });
  await new Promise<void>((r) => mqttServer.listen(0, '127.0.0.1', r));
  const mqttPort = (mqttServer.address() as AddressInfo).port;

  const files: Record<string, [string, string | Buffer]> = {
    '/page.html': ['text/html; charset=utf-8', page(mqttPort)],
    '/socket.io.min.js': [
      'text/javascript',
      readFileSync(path.join(MODULES, 'socket.io-client/dist/socket.io.min.js')),
    ],
    '/mqtt.min.js': ['text/javascript', readFileSync(path.join(MODULES, 'mqtt/dist/mqtt.min.js'))],
  };
  const server = http.createServer((req, res) => {
    const file = files[new URL(req.url ?? '/', 'http://x').pathname];
    if (!file) return; // socket.io answers its own paths
    res.writeHead(200, { 'content-type': file[0], 'cache-control': 'no-store' }).end(file[1]);
  });
  const wire: WireRecord[] = [];
  const io = new SocketIoServer(server, {
    transports: ['websocket'],
    wsEngine: recordingWsEngine(wire) as typeof WebSocketServer,
  });
  io.of('/chat').on('connection', (socket) =>
    socket.onAny((event: string, ...args: unknown[]) =>
      (event === 'upload' ? ioUploads : ioEvents).push([
        event,
        ...args.map((a) => (Buffer.isBuffer(a) ? { bytes: [...a] } : a)),
      ]),
    ),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));

  return {
    get ioFrames() {
      return wire
        .filter((f) => f.direction === 'sent' && f.opcode === 'text')
        .map((f) => Buffer.from(f.data).toString('utf8'));
    },
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/page.html`,
    ioEvents,
    ioUploads,
    mqttFrames,
    published,
    close: async () => {
      await new Promise<void>((r) => io.close(() => r()));
      for (const c of mqttWss.clients) c.terminate();
      mqttWss.close();
      await new Promise((r) => mqttServer.close(r));
      await new Promise<void>((r) => aedes.close(() => r()));
    },
  };
}

/** The panel's rows of the page's Socket.IO event and MQTT PUBLISH, and every row in a line each (for a failure's message). */
export function framedRows<
  R extends { direction: string; protocol: string; event: string; frameId: number; preview: string },
>(rows: readonly R[]): { io: R | undefined; upload: R | undefined; mqtt: R | undefined; described: string } {
  const sent = rows.filter((r) => r.direction === 'sent');
  return {
    io: sent.find((r) => r.protocol.includes('socket.io') && r.event.includes(IO_EVENT[0])),
    upload: sent.find((r) => r.protocol.includes('socket.io') && r.event.includes('upload')),
    mqtt: sent.find((r) => r.protocol.includes('mqtt') && r.event.includes(MQTT_TOPIC)),
    described: rows.map((r) => `${r.frameId} ${r.direction} ${r.protocol} ${r.event} ${r.preview}`).join('\n'),
  };
}

/** The three rows framedRows picks, each expected to be listed (a failure shows every row listed). */
export function expectFramedRows<
  R extends { direction: string; protocol: string; event: string; frameId: number; preview: string },
>(rows: readonly R[]): { io: R; upload: R; mqtt: R } {
  const { io, upload, mqtt, described } = framedRows(rows);
  expect(upload, described).toBeDefined();
  expect(io, described).toBeDefined();
  expect(mqtt, described).toBeDefined();
  return { io: io!, upload: upload!, mqtt: mqtt! };
}

/** The Socket.IO packet's edit text, from its fields to its data. */
export const IO_EDIT_TEXT = `namespace: "/chat"\nack id: null\n--- data as JSON\n${JSON.stringify(IO_EVENT)}`;
/** The MQTT PUBLISH's edit text, from its fields to its payload. */
export const MQTT_EDIT_TEXT = `topic: "${MQTT_TOPIC}"\nqos: 0\nretain: false\ndup: false\npacket id: null\n--- payload as JSON\n${MQTT_PAYLOAD}`;

/** The PUBLISH (QoS 0) as mqtt-packet, mqtt.js's own codec, writes it. */
export const publishBytes = (topic: string, payload: Buffer, retain: boolean): number[] => [
  ...mqttPacket.generate({ cmd: 'publish', topic, payload, qos: 0, retain, dup: false }),
];
