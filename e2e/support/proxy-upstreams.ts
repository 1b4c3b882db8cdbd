/**
 * The upstream for e2e/proxy-clients.test.ts: one HTTP server with the real servers of three
 * client libraries (socket.io at /socket.io/, an aedes MQTT broker at /mqtt, graphql-ws at
 * /graphql) and a raw `ws` echo at /raw. Every server-side socket records each message it
 * exchanged with its bytes (direction as the client sees it: 'sent' is client → server),
 * plus its subprotocol and how it closed, so a test can hold the proxy's recording to it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Aedes } from 'aedes';
import { createRequire } from 'node:module';
import { useServer as serveGraphqlWs } from 'graphql-ws/use/ws';
import { Server as SocketIoServer } from 'socket.io';
import { createWebSocketStream, WebSocketServer, type WebSocket } from 'ws';

export interface UpstreamMessage {
  readonly direction: 'sent' | 'received';
  readonly opcode: 'text' | 'binary';
  readonly hex: string;
}

export interface UpstreamSocket {
  readonly path: string;
  readonly protocol: string;
  readonly messages: UpstreamMessage[];
  closed: { code: number; reason: string } | null;
}

export interface Upstreams {
  readonly url: string;
  readonly sockets: UpstreamSocket[];
  close(): Promise<void>;
}

const hexOf = (data: unknown): string =>
  (typeof data === 'string'
    ? Buffer.from(data)
    : Buffer.isBuffer(data)
      ? data
      : Array.isArray(data)
        ? Buffer.concat(data as Buffer[])
        : Buffer.from(data as ArrayBuffer)
  ).toString('hex');

function record(ws: WebSocket, path: string, sockets: UpstreamSocket[]): void {
  const entry: UpstreamSocket = { path, protocol: ws.protocol, messages: [], closed: null };
  sockets.push(entry);
  ws.on('message', (data, isBinary) =>
    entry.messages.push({ direction: 'sent', opcode: isBinary ? 'binary' : 'text', hex: hexOf(data) }),
  );
  ws.on('close', (code, reason) => {
    entry.closed = { code, reason: reason.toString() };
  });
  const send = ws.send.bind(ws) as (data: unknown, opts?: unknown, cb?: unknown) => void;
  (ws as unknown as { send: unknown }).send = (data: unknown, opts?: unknown, cb?: unknown) => {
    const o = typeof opts === 'object' && opts !== null ? (opts as { binary?: boolean; fin?: boolean }) : {};
    entry.messages.push({
      direction: 'received',
      opcode: (o.binary ?? typeof data !== 'string') ? 'binary' : 'text',
      hex: hexOf(data),
    });
    return send(data, opts, cb);
  };
}

export async function startUpstreams(): Promise<Upstreams> {
  const sockets: UpstreamSocket[] = [];
  const server = http.createServer();
  // socket.io (engine.io) on its own path; its ws engine records every socket.
  const io = new SocketIoServer(server, {
    transports: ['websocket'],
    destroyUpgrade: false,
    maxHttpBufferSize: 4 * 1024 * 1024,
    wsEngine: class extends WebSocketServer {
      override handleUpgrade(...args: Parameters<WebSocketServer['handleUpgrade']>): void {
        const [req, socket, head, cb] = args;
        super.handleUpgrade(req, socket, head, (ws, r) => {
          record(ws, '/socket.io/', sockets);
          cb(ws, r);
        });
      }
    },
  });
  io.on('connection', (socket) => {
    socket.on('echo', (...args: unknown[]) => {
      const ack = args.pop() as (...a: unknown[]) => void;
      ack(args); // emitWithAck resolves with the first argument: all of them as one array
    });
  });
  const aedes = await Aedes.createBroker();
  const mqttServer = new WebSocketServer({
    noServer: true,
    handleProtocols: (offered) => (offered.has('mqtt') ? 'mqtt' : false),
  });
  mqttServer.on('connection', (ws, request) => {
    record(ws, '/mqtt', sockets);
    aedes.handle(createWebSocketStream(ws) as never, request);
  });
  const graphqlServer = new WebSocketServer({ noServer: true });
  graphqlServer.on('connection', (ws) => record(ws, '/graphql', sockets));
  // graphql as graphql-ws loads it (its CommonJS build): a schema from another copy is refused.
  const { buildSchema } = createRequire(import.meta.url)('graphql') as typeof import('graphql');
  const schema = buildSchema(`
    type Query { hello(name: String!): String! }
    type Subscription { countdown(from: Int!): Int! }
  `);
  const roots = {
    query: { hello: ({ name }: { name: string }) => `hello ${name}` },
    subscription: {
      countdown: async function* ({ from }: { from: number }) {
        for (let i = from; i >= 0; i--) yield { countdown: i };
      },
    },
  };
  const disposeGraphql = serveGraphqlWs({ schema, roots }, graphqlServer);
  const rawServer = new WebSocketServer({ noServer: true, perMessageDeflate: true });
  rawServer.on('connection', (ws) => {
    record(ws, '/raw', sockets);
    ws.on('message', (data, isBinary) => {
      const text = isBinary ? '' : data.toString();
      if (text.startsWith('close me ')) ws.close(Number(text.slice(9)), 'asked to');
      else ws.send(data, { binary: isBinary });
    });
  });
  server.on('upgrade', (request, socket, head) => {
    const path = (request.url ?? '/').split('?', 1)[0];
    const target =
      path === '/mqtt' ? mqttServer : path === '/graphql' ? graphqlServer : path === '/raw' ? rawServer : null;
    if (target) target.handleUpgrade(request, socket, head, (ws) => target.emit('connection', ws, request));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sockets,
    close: async () => {
      await disposeGraphql.dispose();
      io.close();
      for (const s of [mqttServer, graphqlServer, rawServer]) for (const c of s.clients) c.terminate();
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
