/** Test helpers: an upstream ws server, a started proxy in front of it, and a memory sink. */
import type { IncomingMessage } from 'node:http';
import { WebSocketServer, type WebSocket, type ServerOptions } from 'ws';
import type { RecordSink } from '../recorder.js';
import { startProxy, type RunningProxy, type StartProxyOptions } from '../start-proxy.js';

export interface Upstream {
  readonly server: WebSocketServer;
  readonly url: string;
  /** Each accepted socket with its upgrade request, in order. */
  readonly accepted: { socket: WebSocket; request: IncomingMessage }[];
  close(): Promise<void>;
}

export async function startUpstream(options: ServerOptions = {}): Promise<Upstream> {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1', ...options });
  const accepted: Upstream['accepted'] = [];
  server.on('connection', (socket, request) => {
    accepted.push({ socket, request });
  });
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  return {
    server,
    url: `ws://127.0.0.1:${port}`,
    accepted,
    close: () =>
      new Promise((resolve) => {
        for (const c of server.clients) c.terminate();
        server.close(() => resolve());
      }),
  };
}

export function memorySink(): RecordSink & { text(): string } {
  let written = '';
  return {
    write(text, done) {
      written += text;
      setImmediate(() => done(null));
    },
    writeNow(text) {
      written += text;
    },
    text: () => written,
  };
}

export async function proxyTo(
  target: string,
  options: Partial<StartProxyOptions> = {},
): Promise<RunningProxy & { ws: string; warnings: string[] }> {
  const warnings: string[] = [];
  const running = await startProxy({
    target: new URL(target),
    host: '127.0.0.1',
    port: 0,
    appDir: null,
    warn: (line) => warnings.push(line),
    ...options,
  });
  return Object.assign(running, { ws: running.url.replace(/^http/, 'ws'), warnings });
}

export const once = <T extends unknown[]>(
  emitter: { once(event: string, cb: (...a: T) => void): unknown },
  event: string,
) => new Promise<T>((resolve) => emitter.once(event, (...a: T) => resolve(a)));
