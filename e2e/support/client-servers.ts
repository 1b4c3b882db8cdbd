/**
 * Servers for e2e/capture-clients*.test.ts: real client libraries in the page, their real
 * (or protocol-exact) servers here, each recording every WebSocket frame it exchanged
 * (direction as the page sees it, opcode, byte size), so a test can hold the panel to what
 * went over the wire. One HTTP server per library (127.0.0.1, port 0); the page bundle of
 * the client libraries (`clients.js`, built with esbuild) is served by each.
 * - socket.io with its default parser, and with socket.io-msgpack-parser;
 * - graphql-ws (query and subscription);
 * - protobufjs messages over a raw WebSocket;
 * - phoenix channels: a protocol-exact server (Phoenix's JSON v2 serializer, and its binary
 *   push / reply frames).
 */
import { build } from 'esbuild';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import protobuf from 'protobufjs';
import { createRequire } from 'node:module';
import { useServer } from 'graphql-ws/use/ws';
import { Server as SocketIoServer } from 'socket.io';
import msgpackParser from 'socket.io-msgpack-parser';
import { WebSocketServer, type WebSocket } from 'ws';
import { REPO } from './env.js';

export interface WireRecord {
  readonly direction: 'sent' | 'received';
  readonly opcode: 'text' | 'binary';
  readonly size: number;
  /** The frame's bytes (for writing what the server recorded as a capture file). */
  readonly data: Uint8Array;
  /** The server-side socket it went over. */
  readonly socket: WebSocket;
}

export interface ClientServer {
  readonly httpUrl: string;
  /** Every frame of every socket, as the page saw it. */
  readonly frames: WireRecord[];
  close(): Promise<void>;
}

/**
 * The client libraries bundled for the pages, with every server a test file starts for them:
 * a file's one "server" (see ext-with-server.ts), whose close() closes each server it was handed.
 */
export interface ClientPages<S extends ClientServer> {
  /** The bundle the library pages load (bundleClients, bundleProtocolClients). */
  readonly clientsJs: string;
  /** Keeps `server` to be closed with the rest; returns it. */
  keep(server: S): S;
  close(): Promise<void>;
}

/** Bundles the libraries with `bundle`; the servers come later, one per test, through keep(). */
export async function clientPagesOf<S extends ClientServer>(bundle: () => Promise<string>): Promise<ClientPages<S>> {
  const clientsJs = await bundle();
  const servers: S[] = [];
  return {
    clientsJs,
    keep: (server) => {
      servers.push(server);
      return server;
    },
    close: async () => {
      for (const s of servers) await s.close();
    },
  };
}

/** The protobuf type both sides use. */
export const PROTO_JSON = {
  nested: {
    Msg: { fields: { id: { type: 'int32', id: 1 }, text: { type: 'string', id: 2 }, data: { type: 'bytes', id: 3 } } },
  },
};

/** The client libraries as one classic script for pages: `window.clients = { io, msgpackParser, createClient, protobuf, Phoenix }`. */
export function bundleClients(): Promise<string> {
  return bundleForPage(`import { io } from 'socket.io-client';
import msgpackParser from 'socket.io-msgpack-parser';
import { createClient } from 'graphql-ws';
import protobuf from 'protobufjs';
import * as Phoenix from 'phoenix';
window.clients = { io, msgpackParser, createClient, protobuf, Phoenix };`);
}

/** `source` (a module importing the libraries and setting `window.clients`) bundled with esbuild as one classic script. */
export async function bundleForPage(source: string): Promise<string> {
  const out = await build({
    stdin: { contents: source, resolveDir: REPO, loader: 'js' },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"', global: 'globalThis' },
  });
  return out.outputFiles[0]!.text;
}

/** A copy of a frame's bytes as `ws` gives or takes them. */
const bytesOf = (data: unknown): Uint8Array =>
  typeof data === 'string'
    ? Buffer.from(data, 'utf8')
    : Array.isArray(data)
      ? Buffer.concat(data as Buffer[])
      : ArrayBuffer.isView(data)
        ? Buffer.from(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength))
        : Buffer.from((data as ArrayBuffer).slice(0));

/** Records a server-side socket's frames (what the server sends, the page receives). */
export function record(ws: WebSocket, frames: WireRecord[]): void {
  const push = (direction: WireRecord['direction'], opcode: WireRecord['opcode'], data: unknown) => {
    const bytes = bytesOf(data);
    frames.push({ direction, opcode, size: bytes.length, data: bytes, socket: ws });
  };
  ws.on('message', (data, isBinary) => push('sent', isBinary ? 'binary' : 'text', data));
  const send = ws.send.bind(ws) as (data: unknown, opts?: unknown, cb?: unknown) => void;
  (ws as unknown as { send: unknown }).send = (data: unknown, opts?: unknown, cb?: unknown) => {
    const o = typeof opts === 'object' && opts !== null ? (opts as { binary?: boolean }) : {};
    push('received', (o.binary ?? typeof data !== 'string') ? 'binary' : 'text', data);
    return send(data, opts, cb);
  };
}

/** A `ws` server class for engine.io's `wsEngine` that records every socket it upgrades. */
export function recordingWsEngine(frames: WireRecord[]): unknown {
  return class extends WebSocketServer {
    override handleUpgrade(...args: Parameters<WebSocketServer['handleUpgrade']>): void {
      const [req, socket, head, cb] = args;
      super.handleUpgrade(req, socket, head, (ws, r) => {
        record(ws, frames);
        cb(ws, r);
      });
    }
  };
}

export async function serve(
  pages: Record<string, [string, string]>,
  setup: (server: http.Server, frames: WireRecord[]) => () => Promise<void> | void,
): Promise<ClientServer> {
  const server = http.createServer((req, res) => {
    const page = pages[new URL(req.url ?? '/', 'http://x').pathname];
    if (!page) return; // socket.io's own handler answers its paths
    res.writeHead(200, { 'content-type': page[0], 'cache-control': 'no-store' }).end(page[1]);
  });
  const frames: WireRecord[] = [];
  const teardown = setup(server, frames);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    httpUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    frames,
    close: async () => {
      await teardown();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

export const html = (title: string, script: string) =>
  [
    'text/html; charset=utf-8',
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><script src="/clients.js"></script></head><body><h1>${title}</h1><script>
'use strict';
${script}
</script></body></html>`,
  ] as [string, string];

/** socket.io (`parser`: default or msgpack): emit with a binary attachment, an ack back with one. */
export function startSocketIo(clientsJs: string, parser: 'default' | 'msgpack'): Promise<ClientServer> {
  const page = html(
    `socket.io ${parser}`,
    `window.__done = (async () => {
  const { io, msgpackParser } = window.clients;
  const socket = io({ transports: ['websocket'], reconnection: false${parser === 'msgpack' ? ', parser: msgpackParser' : ''} });
  await new Promise((resolve, reject) => { socket.on('connect', resolve); socket.on('connect_error', reject); });
  const reply = await socket.timeout(10000).emitWithAck('echo', { text: 'hi ✓', n: 1 }, new Uint8Array([1, 2, 3, 4]).buffer); // ArrayBuffers: notepack (msgpack parser) encodes a Uint8Array as a map
  const bin = await socket.timeout(10000).emitWithAck('bin', new Uint8Array(300).fill(7).buffer);
  socket.disconnect();
  return { reply, bin: new Uint8Array(bin).length };
})();`,
  );
  return serve({ '/clients.js': ['text/javascript', clientsJs], '/page.html': page }, (server, frames) => {
    const io = new SocketIoServer(server, {
      wsEngine: recordingWsEngine(frames) as typeof WebSocketServer,
      ...(parser === 'msgpack' ? { parser: msgpackParser } : {}),
    });
    io.on('connection', (socket) => {
      socket.on('echo', (payload: unknown, bytes: Buffer, ack: (...a: unknown[]) => void) =>
        ack({ got: payload, size: bytes.length }),
      );
      socket.on('bin', (bytes: Buffer, ack: (...a: unknown[]) => void) => ack(Buffer.from(bytes).reverse()));
    });
    return () => new Promise<void>((resolve) => io.close(() => resolve()));
  });
}

/** graphql-ws: a query and a two-event subscription. */
export function startGraphqlWs(clientsJs: string): Promise<ClientServer> {
  const page = html(
    'graphql-ws',
    `window.__done = (async () => {
  const client = window.clients.createClient({ url: 'ws://' + location.host + '/graphql', lazy: true, retryAttempts: 0 });
  const results = [];
  for await (const r of client.iterate({ query: '{ hello }' })) results.push(r);
  for await (const r of client.iterate({ query: 'subscription { count }' })) results.push(r);
  await client.dispose();
  return results;
})();`,
  );
  return serve({ '/clients.js': ['text/javascript', clientsJs], '/page.html': page }, (server, frames) => {
    const wss = new WebSocketServer({ server, path: '/graphql' });
    wss.on('connection', (ws) => record(ws, frames));
    // graphql as graphql-ws loads it (its CommonJS build): a schema from another copy is refused.
    const { buildSchema } = createRequire(import.meta.url)('graphql') as typeof import('graphql');
    const schema = buildSchema('type Query { hello: String } type Subscription { count: Int }');
    const roots = {
      query: { hello: () => 'world' },
      subscription: {
        count: async function* count() {
          yield { count: 1 };
          yield { count: 2 };
        },
      },
    };
    const cleanup = useServer({ schema, roots }, wss);
    return async () => {
      await cleanup.dispose();
      wss.close();
    };
  });
}

/** protobufjs over a raw WebSocket: three messages each way, the server answering each. */
export function startProtobuf(clientsJs: string): Promise<ClientServer> {
  const page = html(
    'protobuf',
    `window.__done = (async () => {
  const Msg = window.clients.protobuf.Root.fromJSON(${JSON.stringify(PROTO_JSON)}).lookupType('Msg');
  const ws = new WebSocket('ws://' + location.host + '/proto');
  ws.binaryType = 'arraybuffer';
  await new Promise((resolve, reject) => { ws.onopen = resolve; ws.onerror = reject; });
  const replies = [];
  const all = new Promise((resolve) => { ws.onmessage = (e) => { replies.push(Msg.toObject(Msg.decode(new Uint8Array(e.data)), { bytes: Array })); if (replies.length === 3) resolve(); }; });
  for (let i = 1; i <= 3; i++) ws.send(Msg.encode(Msg.create({ id: i, text: 'msg ' + i, data: new Uint8Array(i * 10).fill(i) })).finish());
  await all;
  ws.close();
  return replies.map((r) => [r.id, r.text, r.data.length]);
})();`,
  );
  return serve({ '/clients.js': ['text/javascript', clientsJs], '/page.html': page }, (server, frames) => {
    const Msg = protobuf.Root.fromJSON(PROTO_JSON).lookupType('Msg');
    const wss = new WebSocketServer({ server, path: '/proto' });
    wss.on('connection', (ws) => {
      record(ws, frames);
      ws.on('message', (data: Buffer) => {
        const m = Msg.toObject(Msg.decode(data)) as { id: number; text: string; data: Uint8Array };
        ws.send(Msg.encode(Msg.create({ id: m.id * 100, text: `re: ${m.text}`, data: m.data })).finish(), {
          binary: true,
        });
      });
    });
    return () => wss.close();
  });
}

/** Phoenix channels (serializer v2): join, a JSON push and reply, a binary push and binary reply. */
export function startPhoenix(clientsJs: string): Promise<ClientServer> {
  const page = html(
    'phoenix',
    `window.__done = (async () => {
  const socket = new window.clients.Phoenix.Socket('/phoenix', { params: { token: 't' } });
  socket.connect();
  const channel = socket.channel('room:lobby', {});
  const reply = (push) => new Promise((resolve, reject) => push.receive('ok', resolve).receive('error', reject).receive('timeout', () => reject(new Error('timeout'))));
  await reply(channel.join());
  const json = await reply(channel.push('ping', { n: 1, text: 'hi' }));
  const bin = await reply(channel.push('bin', new Uint8Array([9, 8, 7, 6]).buffer));
  socket.disconnect();
  return { json, bin: Array.from(new Uint8Array(bin)) };
})();`,
  );
  return serve({ '/clients.js': ['text/javascript', clientsJs], '/page.html': page }, (server, frames) => {
    const wss = new WebSocketServer({ server, path: '/phoenix/websocket' });
    wss.on('connection', (ws) => {
      record(ws, frames);
      ws.on('message', (data: Buffer, isBinary: boolean) => {
        if (!isBinary) {
          const [joinRef, ref, topic, event, payload] = JSON.parse(data.toString('utf8')) as [
            string | null,
            string,
            string,
            string,
            unknown,
          ];
          const response = event === 'ping' ? { pong: payload } : {};
          ws.send(JSON.stringify([joinRef, ref, topic, 'phx_reply', { status: 'ok', response }]));
          return;
        }
        // A binary push: [0, joinRef size, ref size, topic size, event size, …strings, payload] → a binary reply.
        const sizes = [data[1]!, data[2]!, data[3]!, data[4]!];
        let at = 5;
        const [joinRef, ref, topic] = sizes.slice(0, 3).map((n) => {
          const s = data.subarray(at, at + n);
          at += n;
          return s;
        });
        at += sizes[3]!;
        const payload = data.subarray(at);
        const status = Buffer.from('ok');
        ws.send(
          Buffer.concat([
            Buffer.from([1, joinRef!.length, ref!.length, topic!.length, status.length]),
            joinRef!,
            ref!,
            topic!,
            status,
            payload,
          ]),
          { binary: true },
        );
      });
    });
    return () => wss.close();
  });
}
