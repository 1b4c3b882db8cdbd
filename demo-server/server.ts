/**
 * The demo server behind `npm start`: one loopback HTTP server that serves the built
 * inspector app and, on the same port, WebSocket endpoints streaming demo traffic:
 *
 * - `/demo`       the mixed stream (json-joy snapshot first, then CBOR, MessagePack, JSON
 *                 text, json-joy patches, large and malformed frames); echoes client frames
 * - `/demo/json`  a JSON text channel only; echoes too
 * - `/demo/protobuf` market.v1.Envelope frames; their schema (demo-server/protobuf/*.proto)
 *   is served at `/demo/protobuf/envelope.proto` and `/demo/protobuf/trade.proto`
 * - `/demo/mqtt`  MQTT 3.1.1 over WebSocket as a broker sends it (streams/mqtt.ts)
 * - `/demo/stomp` STOMP frames as a broker sends them (streams/stomp.ts)
 *
 * A client that offers subprotocols gets the first one it offered.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { serveStatic } from './static-files.js';
import { streamToClient, type ClientStream } from './client-stream.js';
import { createProtobufTraffic, PROTOBUF_PATH, serveDemoProto } from './streams/protobuf-schema.js';
import { createMqttTraffic, MQTT_CHANNEL_PATH } from './streams/mqtt.js';
import { createStompTraffic, STOMP_CHANNEL_PATH } from './streams/stomp.js';
import { createNestedTraffic, NESTED_PATH } from './streams/nested.js';
import {
  createJsonTraffic,
  createTraffic,
  DEFAULT_LARGE_EVERY,
  DEFAULT_MALFORMED_CHANCE,
  type DemoTraffic,
} from './traffic.js';

export interface DemoServerOptions {
  /** 0 = an ephemeral port (default 0). */
  readonly port?: number;
  /** Loopback only. */
  readonly host?: '127.0.0.1' | '::1';
  /** The built app (dist/app); without it HTTP requests get a "not built" 404. */
  readonly staticDir?: string;
  /** Per connection (default 5). */
  readonly messagesPerSecond?: number;
  /** Every Nth message on `/demo` is 1–3 MB (default 300; 0 = never). */
  readonly largeEvery?: number;
  /** Every connection replays the same seeded stream (default 1). */
  readonly seed?: number;
  /** Chance per message of a malformed frame on `/demo` (default 1/50). */
  readonly malformedChance?: number;
}

export interface DemoServer {
  readonly httpUrl: string;
  /** The `/demo` endpoint. */
  readonly wsUrl: string;
  readonly port: number;
  close(): Promise<void>;
}

export const DEMO_PATH = '/demo';
export const JSON_CHANNEL_PATH = '/demo/json';

export async function startDemoServer(options: DemoServerOptions = {}): Promise<DemoServer> {
  const host = options.host ?? '127.0.0.1';
  const messagesPerSecond = options.messagesPerSecond ?? 5;
  if (!(messagesPerSecond > 0)) throw new RangeError(`messagesPerSecond must be > 0, got ${messagesPerSecond}`);
  /** A fresh stream per connection, by endpoint path. */
  const trafficFor = new Map<string, () => DemoTraffic>([
    [
      DEMO_PATH,
      () =>
        createTraffic({
          seed: options.seed,
          largeEvery: options.largeEvery ?? DEFAULT_LARGE_EVERY,
          malformedChance: options.malformedChance ?? DEFAULT_MALFORMED_CHANCE,
          now: Date.now,
        }),
    ],
    [JSON_CHANNEL_PATH, () => createJsonTraffic({ seed: options.seed, now: Date.now })],
    [PROTOBUF_PATH, () => createProtobufTraffic({ seed: options.seed, now: Date.now })],
    [MQTT_CHANNEL_PATH, () => createMqttTraffic({ seed: options.seed, now: Date.now })],
    [STOMP_CHANNEL_PATH, () => createStompTraffic({ seed: options.seed, now: Date.now })],
    [NESTED_PATH, () => createNestedTraffic({ seed: options.seed, now: Date.now })],
  ]);

  const httpServer = http.createServer((request, response) => {
    if (trafficFor.has(pathOf(request.url))) {
      response.writeHead(426, { 'Content-Type': 'text/plain; charset=utf-8', Upgrade: 'websocket' });
      response.end('this is a WebSocket endpoint\n');
      return;
    }
    if (serveDemoProto(request, response)) return;
    serveStatic(options.staticDir ?? null, request, response).catch(() => response.destroy());
  });

  const wss = new WebSocketServer({
    noServer: true,
    // Frames reach the inspector exactly as sent: no permessage-deflate.
    perMessageDeflate: false,
    handleProtocols: (offered) => offered.values().next().value ?? false,
  });
  const streams = new Set<ClientStream>();

  httpServer.on('upgrade', (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const makeTraffic = trafficFor.get(pathOf(request.url));
    if (!makeTraffic) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (client: WebSocket) => {
      client.on('error', () => client.terminate()); // a client that vanishes must not crash the server
      const stream = streamToClient(client, makeTraffic(), messagesPerSecond);
      streams.add(stream);
      client.on('close', () => streams.delete(stream));
    });
  });

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port ?? 0, host, () => {
      httpServer.off('error', reject);
      resolve();
    });
  });

  const port = (httpServer.address() as AddressInfo).port;
  const authority = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  let closing: Promise<void> | null = null;

  return {
    httpUrl: `http://${authority}/`,
    wsUrl: `ws://${authority}${DEMO_PATH}`,
    port,
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const stream of streams) stream.stop();
        streams.clear();
        for (const client of wss.clients) client.terminate();
        wss.close();
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      });
      return closing;
    },
  };
}

function pathOf(url: string | undefined): string {
  return (url ?? '/').split(/[?#]/, 1)[0];
}
