/**
 * Servers for e2e/protocol-clients.test.ts: the real client libraries of framing protocols in
 * the page, a protocol-exact server (or the library's own server) here, each recording every
 * WebSocket frame it exchanged with its bytes and the socket's URL and negotiated subprotocol,
 * so a test can hold the panel to the wire and write the wire as a capture file for the CLI.
 * - SignalR (@microsoft/signalr): a minimal hub, JSON and MessagePack hub protocols;
 * - SockJS (sockjs-client) against the real `sockjs` server behind a recording WebSocket relay;
 * - Pusher Channels (pusher-js): a minimal protocol-7 server;
 * - Action Cable (@rails/actioncable): a minimal server speaking `actioncable-v1-json`;
 * - Yjs over y-websocket: a minimal server built with y-protocols (sync and awareness).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeMulti, encode } from '@msgpack/msgpack';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import sockjs from 'sockjs';
import { WebSocket, WebSocketServer } from 'ws';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';
import { serializeCapture } from '../../codecs/capture/capture-file.js';
import type { ConnectionInfo, WireFrame } from '../../codecs/capture/types.js';
import { bundleForPage, html, record, serve, type ClientServer, type WireRecord } from './client-servers.js';

/** A server of this file: also the URL and subprotocol of every socket it accepted. */
export interface ProtocolServer extends ClientServer {
  readonly sockets: Map<WebSocket, { readonly url: string; readonly protocol: string }>;
}

/** The client libraries as one classic script for pages: `window.clients = { signalR, MessagePackHubProtocol, … }`. */
export function bundleProtocolClients(): Promise<string> {
  return bundleForPage(`import * as signalR from '@microsoft/signalr';
import { MessagePackHubProtocol } from '@microsoft/signalr-protocol-msgpack';
import SockJS from 'sockjs-client';
import Pusher from 'pusher-js';
import * as ActionCable from '@rails/actioncable';
import * as Y from 'yjs';
import { WebsocketProvider } from 'y-websocket';
window.clients = { signalR, MessagePackHubProtocol, SockJS, Pusher, ActionCable, Y, WebsocketProvider };`);
}

/** The frames a server recorded, as a wirescope capture file (one connection per socket, in accept order). */
export function captureOfServer(server: ProtocolServer): Uint8Array {
  const ids = new Map<WebSocket, string>();
  const connections: ConnectionInfo[] = [];
  for (const [socket, { url, protocol }] of server.sockets) {
    const connectionId = `c${ids.size + 1}`;
    ids.set(socket, connectionId);
    connections.push({ connectionId, url, protocol, extensions: '', time: 1_800_000_000_000 });
  }
  const frames: WireFrame[] = server.frames.map((f, i) => ({
    connectionId: ids.get(f.socket) ?? 'c0',
    direction: f.direction,
    time: 1_800_000_000_000 + i,
    opcode: f.opcode,
    data: f.data,
  }));
  return serializeCapture(connections, frames);
}

/** `serve` with a WebSocket server on `path` (null: every path) whose sockets are recorded, URL and subprotocol too. */
async function serveSockets(
  title: string,
  clientsJs: string,
  script: string,
  path: string | null,
  onSocket: (ws: WebSocket, req: http.IncomingMessage) => void,
  options: { handleProtocols?: (offered: Set<string>) => string | false; onRequest?: http.RequestListener } = {},
): Promise<ProtocolServer> {
  const sockets: ProtocolServer['sockets'] = new Map();
  let host = '';
  const server = await serve(
    { '/clients.js': ['text/javascript', clientsJs], '/page.html': html(title, script) },
    (httpServer, frames: WireRecord[]) => {
      if (options.onRequest) httpServer.on('request', options.onRequest);
      const wss = new WebSocketServer({
        server: httpServer,
        ...(path ? { path } : {}),
        perMessageDeflate: false,
        ...(options.handleProtocols ? { handleProtocols: options.handleProtocols } : {}),
      });
      wss.on('connection', (ws, req) => {
        record(ws, frames);
        sockets.set(ws, { url: `ws://${host}${req.url ?? path ?? '/'}`, protocol: ws.protocol });
        onSocket(ws, req);
      });
      return () => {
        for (const c of wss.clients) c.terminate();
        wss.close();
      };
    },
  );
  host = new URL(server.httpUrl).host;
  return { ...server, sockets };
}

// ---------------------------------------------------------------------------------------------
// SignalR

const RS = '\u001e';

/** A varint length prefix, as the MessagePack hub protocol writes one before each record. */
function lengthPrefixed(record: Uint8Array): Buffer {
  const head: number[] = [];
  let n = record.length;
  do {
    head.push((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
    n >>>= 7;
  } while (n > 0);
  return Buffer.concat([Buffer.from(head), record]);
}

/** The records of a MessagePack hub protocol frame. */
function msgpackRecords(data: Buffer): unknown[][] {
  const out: unknown[][] = [];
  let at = 0;
  while (at < data.length) {
    let size = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = data[at++]!;
      size |= (byte & 0x7f) << shift;
      shift += 7;
    } while (byte & 0x80);
    out.push(...(decodeMulti(data.subarray(at, at + size)) as Iterable<unknown[]>));
    at += size;
  }
  return out;
}

/**
 * SignalR: negotiate over HTTP, then the hub on a WebSocket. The hub answers the handshake,
 * pings, calls the client's `news` once, and answers `Echo` (its arguments) and `Add` (their
 * sum) with completions. `protocol`: the JSON hub protocol (text frames, records ended by
 * 0x1e) or the MessagePack one (binary frames of length-prefixed records).
 */
export function startSignalR(clientsJs: string, protocol: 'json' | 'messagepack'): Promise<ProtocolServer> {
  const script = `window.__done = (async () => {
  const { signalR, MessagePackHubProtocol } = window.clients;
  const builder = new signalR.HubConnectionBuilder()
    .withUrl('/hub', { transport: signalR.HttpTransportType.WebSockets })
    .configureLogging(signalR.LogLevel.None);
  ${protocol === 'messagepack' ? 'builder.withHubProtocol(new MessagePackHubProtocol());' : ''}
  const connection = builder.build();
  const news = new Promise((resolve) => connection.on('news', (...args) => resolve(args)));
  await connection.start();
  const echo = await connection.invoke('Echo', 'hi ✓', 7);
  const sum = await connection.invoke('Add', 2, 3);
  const got = await news;
  await connection.stop();
  return { echo, sum, news: got };
})();`;
  const answer = (target: string, args: unknown[]): unknown =>
    target === 'Add' ? (args as number[]).reduce((a, b) => a + b, 0) : { echoed: args };
  const onRequest: http.RequestListener = (req, res) => {
    if (!req.url?.startsWith('/hub/negotiate')) return;
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        negotiateVersion: 1,
        connectionId: 'conn-1',
        connectionToken: 'token-1',
        availableTransports: [{ transport: 'WebSockets', transferFormats: ['Text', 'Binary'] }],
      }),
    );
  };
  return serveSockets(
    `signalr ${protocol}`,
    clientsJs,
    script,
    '/hub',
    (ws) => {
      let shaken = false;
      const sendJson = (m: object) => ws.send(JSON.stringify(m) + RS);
      const sendPack = (m: unknown[]) => ws.send(lengthPrefixed(encode(m)), { binary: true });
      ws.on('message', (data: Buffer, isBinary: boolean) => {
        if (!shaken) {
          // The handshake request (text); the response comes in the transfer format.
          shaken = true;
          if (protocol === 'json') {
            ws.send(`{}${RS}`);
            sendJson({ type: 6 });
            sendJson({ type: 1, target: 'news', arguments: ['hello', 42] });
          } else {
            ws.send(Buffer.from(`{}${RS}`), { binary: true });
            sendPack([6]);
            sendPack([1, {}, null, 'news', ['hello', 42]]);
          }
          return;
        }
        if (protocol === 'json' && !isBinary) {
          for (const text of data.toString('utf8').split(RS).filter(Boolean)) {
            const m = JSON.parse(text) as { type: number; invocationId?: string; target?: string; arguments?: [] };
            if (m.type === 1 && m.invocationId !== undefined)
              sendJson({ type: 3, invocationId: m.invocationId, result: answer(m.target!, m.arguments ?? []) });
          }
        } else if (protocol === 'messagepack' && isBinary) {
          for (const m of msgpackRecords(data)) {
            if (m[0] === 1 && typeof m[2] === 'string')
              sendPack([3, {}, m[2], 3, answer(m[3] as string, m[4] as unknown[])]);
          }
        }
      });
    },
    { onRequest },
  );
}

// ---------------------------------------------------------------------------------------------
// SockJS

interface SockJsConnection {
  on(event: 'data', listener: (message: string) => void): void;
  write(message: string): void;
  close(code: number, reason: string): void;
}

/**
 * SockJS: sockjs-client (WebSocket transport only) against the real `sockjs` server, which
 * echoes every message and closes the session (3000 "Go away!") on `bye`. `sockjs` writes
 * through its own WebSocket code, so it sits behind a relay here: the page's `/echo/info`
 * request and its socket go through this server, which records every frame it passes on.
 */
export async function startSockJs(clientsJs: string): Promise<ProtocolServer> {
  const upstream = http.createServer();
  const echo = sockjs.createServer({ log: () => {} });
  echo.on('connection', (conn: SockJsConnection) => {
    conn.on('data', (message) => {
      if (message === 'bye') conn.close(3000, 'Go away!');
      else conn.write(message);
    });
  });
  echo.installHandlers(upstream, { prefix: '/echo' });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', () => resolve()));
  const upstreamPort = (upstream.address() as AddressInfo).port;
  const script = `window.__done = (async () => {
  const sock = new window.clients.SockJS('/echo', null, { transports: ['websocket'] });
  const echoes = [];
  const closed = new Promise((resolve) => { sock.onclose = (e) => resolve([e.code, e.reason]); });
  const two = new Promise((resolve) => { sock.onmessage = (e) => { echoes.push(e.data); if (echoes.length === 2) resolve(); }; });
  await new Promise((resolve, reject) => { sock.onopen = resolve; sock.onerror = reject; });
  const transport = sock.transport;
  sock.send('hello ✓');
  sock.send(JSON.stringify({ room: 'lobby', n: 1 }));
  await two;
  sock.send('bye');
  return { transport, echoes, closed: await closed };
})();`;
  // The page's HTTP requests under /echo (its `info` request) go to the sockjs server.
  const onRequest: http.RequestListener = (req, res) => {
    if (!req.url?.startsWith('/echo')) return;
    const forward = http.request(
      { host: '127.0.0.1', port: upstreamPort, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.writeHead(502).end());
    req.pipe(forward);
  };
  const server = await serveSockets(
    'sockjs',
    clientsJs,
    script,
    null,
    (ws, req) => {
      const relay = new WebSocket(`ws://127.0.0.1:${upstreamPort}${req.url}`, { perMessageDeflate: false });
      const early: [Buffer, boolean][] = [];
      ws.on('message', (data: Buffer, isBinary: boolean) => {
        if (relay.readyState === WebSocket.OPEN) relay.send(data, { binary: isBinary });
        else early.push([data, isBinary]);
      });
      relay.on('open', () => {
        for (const [data, isBinary] of early.splice(0)) relay.send(data, { binary: isBinary });
      });
      relay.on('message', (data: Buffer, isBinary: boolean) => ws.send(isBinary ? data : data.toString('utf8')));
      relay.on('close', (code, reason) => ws.close(code === 1005 ? 1000 : code, reason));
      ws.on('close', () => relay.close());
    },
    { onRequest },
  );
  return {
    ...server,
    close: async () => {
      await server.close();
      await new Promise<void>((resolve) => {
        upstream.close(() => resolve());
        upstream.closeAllConnections();
      });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Pusher

/**
 * Pusher Channels (protocol 7): pusher-js against a minimal server on `/app/<key>`. It
 * establishes the connection, confirms `pusher:subscribe`, answers the client's `pusher:ping`
 * (sent once the connection has been quiet for the client's 300 ms activity timeout) with
 * `pusher:pong`, then sends an event on the channel.
 */
export function startPusher(clientsJs: string): Promise<ProtocolServer> {
  const script = `window.__done = (async () => {
  const pusher = new window.clients.Pusher('app-key', {
    cluster: 'local', wsHost: location.hostname, wsPort: Number(location.port), forceTLS: false,
    enabledTransports: ['ws'], disableStats: true, activityTimeout: 300, pongTimeout: 10000,
  });
  const channel = pusher.subscribe('room-1');
  const subscribed = new Promise((resolve) => channel.bind('pusher:subscription_succeeded', () => resolve(true)));
  const news = new Promise((resolve) => channel.bind('news', resolve));
  const result = { subscribed: await subscribed, socketId: pusher.connection.socket_id, news: await news };
  pusher.disconnect();
  return result;
})();`;
  return serveSockets('pusher', clientsJs, script, '/app/app-key', (ws) => {
    const send = (m: object) => ws.send(JSON.stringify(m));
    send({
      event: 'pusher:connection_established',
      data: JSON.stringify({ socket_id: '1234.5678', activity_timeout: 120 }),
    });
    ws.on('message', (data: Buffer) => {
      const m = JSON.parse(data.toString('utf8')) as { event: string; data?: { channel?: string } };
      if (m.event === 'pusher:subscribe')
        send({ event: 'pusher_internal:subscription_succeeded', data: '{}', channel: m.data?.channel });
      else if (m.event === 'pusher:ping') {
        send({ event: 'pusher:pong', data: '{}' });
        send({ event: 'news', channel: 'room-1', data: JSON.stringify({ text: 'hello ✓', n: 1 }) });
      }
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Action Cable

/**
 * Action Cable: @rails/actioncable against a minimal server on `/cable` that accepts the
 * `actioncable-v1-json` subprotocol: welcome, `subscribe` → `confirm_subscription` and a ping,
 * and a `message` command (the subscription's `perform`) answered with a broadcast to it.
 */
export function startActionCable(clientsJs: string): Promise<ProtocolServer> {
  const script = `window.__done = (async () => {
  const consumer = window.clients.ActionCable.createConsumer('ws://' + location.host + '/cable');
  let subscription;
  const received = await new Promise((resolve, reject) => {
    subscription = consumer.subscriptions.create({ channel: 'ChatChannel', room: 'lobby' }, {
      connected() { this.perform('speak', { text: 'hi ✓' }); },
      received: resolve,
      rejected: () => reject(new Error('subscription rejected')),
    });
  });
  const protocol = consumer.connection.getProtocol();
  subscription.unsubscribe();
  consumer.disconnect();
  return { protocol, received };
})();`;
  return serveSockets(
    'actioncable',
    clientsJs,
    script,
    '/cable',
    (ws) => {
      const send = (m: object) => ws.send(JSON.stringify(m));
      send({ type: 'welcome' });
      ws.on('message', (data: Buffer) => {
        const m = JSON.parse(data.toString('utf8')) as { command: string; identifier: string; data?: string };
        if (m.command === 'subscribe') {
          send({ identifier: m.identifier, type: 'confirm_subscription' });
          send({ type: 'ping', message: 1_800_000_000 });
        } else if (m.command === 'message') {
          const { action, ...rest } = JSON.parse(m.data ?? '{}') as { action: string };
          send({ identifier: m.identifier, message: { ...rest, action, from: 'server' } });
        }
      });
    },
    { handleProtocols: (offered) => (offered.has('actioncable-v1-json') ? 'actioncable-v1-json' : false) },
  );
}

// ---------------------------------------------------------------------------------------------
// Yjs over y-websocket

/**
 * Yjs: y-websocket's provider against a minimal server on `/yjs/room-1` built with y-protocols,
 * as y-websocket's own server speaks: sync step 1 both ways and step 2 answers, its awareness
 * on connecting, updates and awareness updates relayed to the other clients. The server's document starts with
 * "world" and its awareness holds its own state; it answers the first edit a client makes
 * with one of its own (" ✓" at the end).
 */
export function startYjs(clientsJs: string): Promise<ProtocolServer> {
  const script = `window.__done = (async () => {
  const { Y, WebsocketProvider } = window.clients;
  const doc = new Y.Doc();
  const provider = new WebsocketProvider('ws://' + location.host + '/yjs', 'room-1', doc, { disableBc: true });
  provider.awareness.setLocalStateField('user', 'ann');
  await new Promise((resolve) => provider.on('sync', (synced) => synced && resolve()));
  const text = doc.getText('notes');
  const initial = text.toString();
  const answered = new Promise((resolve) => text.observe(() => text.toString().endsWith(' ✓') && resolve()));
  text.insert(0, 'hello ');
  await answered;
  const users = () => [...provider.awareness.getStates().values()].map((s) => s.user).sort();
  if (users().length < 2) await new Promise((resolve) => provider.awareness.on('change', () => users().length >= 2 && resolve()));
  const result = { initial, final: text.toString(), users: users() };
  provider.destroy();
  return result;
})();`;
  const doc = new Y.Doc();
  doc.getText('notes').insert(0, 'world');
  const awareness = new awarenessProtocol.Awareness(doc);
  awareness.setLocalState({ user: 'server' });
  const clients = new Set<WebSocket>();
  const message = (type: number, write: (e: encoding.Encoder) => void) => {
    const e = encoding.createEncoder();
    encoding.writeVarUint(e, type);
    write(e);
    return encoding.toUint8Array(e);
  };
  let answered = false;
  doc.on('update', (update: Uint8Array, origin: unknown) => {
    const m = message(0, (e) => syncProtocol.writeUpdate(e, update));
    for (const c of clients) if (c !== origin) c.send(m);
    if (origin instanceof WebSocket && !answered) {
      answered = true;
      queueMicrotask(() => doc.getText('notes').insert(doc.getText('notes').length, ' ✓'));
    }
  });
  // To the other clients only: a client's last awareness update (its state removed) comes as it
  // closes, and an echo of it would reach a socket the page has already closed.
  awareness.on('update', ({ added, updated, removed }: Record<string, number[]>, origin: unknown) => {
    const m = message(1, (e) =>
      encoding.writeVarUint8Array(
        e,
        awarenessProtocol.encodeAwarenessUpdate(awareness, [...added!, ...updated!, ...removed!]),
      ),
    );
    for (const c of clients) if (c !== origin) c.send(m);
  });
  return serveSockets('yjs', clientsJs, script, '/yjs/room-1', (ws) => {
    clients.add(ws);
    ws.on('close', () => clients.delete(ws));
    ws.send(message(0, (e) => syncProtocol.writeSyncStep1(e, doc)));
    ws.send(
      message(1, (e) =>
        encoding.writeVarUint8Array(
          e,
          awarenessProtocol.encodeAwarenessUpdate(awareness, [...awareness.getStates().keys()]),
        ),
      ),
    );
    ws.on('message', (data: Buffer) => {
      const decoder = decoding.createDecoder(new Uint8Array(data));
      const type = decoding.readVarUint(decoder);
      if (type === 0) {
        const reply = encoding.createEncoder();
        encoding.writeVarUint(reply, 0);
        syncProtocol.readSyncMessage(decoder, reply, doc, ws);
        if (encoding.length(reply) > 1) ws.send(encoding.toUint8Array(reply));
      } else if (type === 1) {
        awarenessProtocol.applyAwarenessUpdate(awareness, decoding.readVarUint8Array(decoder), ws);
      }
    });
  });
}
