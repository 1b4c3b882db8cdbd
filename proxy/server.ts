/**
 * `wirescope proxy`'s server: one port for everything.
 * - WebSocket upgrades under `/__wirescope/feed` are inspector pages watching the live feed;
 *   under `/__wirescope/ingest` a hooked Node process (`wirescope run --proxy`) streams its
 *   sockets in; every other upgrade is a client to relay to the target (relay.ts).
 * - HTTP GET serves the built inspector app; `/` opens it on the proxy's live feed.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { decodeLiveEvent } from '../codecs/capture/live-feed.js';
import { serveStatic } from '../demo-server/static-files.js';
import type { Hub } from './hub.js';
import { relayUpgrade } from './relay.js';

export const FEED_PATH = '/__wirescope/feed';
export const INGEST_PATH = '/__wirescope/ingest';

export interface ProxyServerOptions {
  readonly target: URL;
  readonly insecure: boolean;
  readonly hub: Hub;
  /** dist/app, or null when the app is not built (the page then says so). */
  readonly appDir: string | null;
  readonly now?: () => number;
  readonly highWater?: number;
  readonly warn?: (line: string) => void;
}

export interface ProxyServer {
  readonly server: Server;
  /** Listens; rejects with the listen error (EADDRINUSE, EACCES). */
  listen(host: string, port: number): Promise<AddressInfo>;
  close(): Promise<void>;
}

export function createProxyServer(options: ProxyServerOptions): ProxyServer {
  const { hub } = options;
  const now = options.now ?? (() => performance.timeOrigin + performance.now());
  const chosenProtocol = new WeakMap<IncomingMessage, string>();
  const relayServer = new WebSocketServer({
    noServer: true,
    perMessageDeflate: true,
    autoPong: false,
    handleProtocols: (_offered, request) => chosenProtocol.get(request) || false,
  });
  const sideServer = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  let next = 1;
  const context = {
    target: options.target,
    insecure: options.insecure,
    hub,
    server: relayServer,
    chosenProtocol,
    now,
    nextId: () => `proxy-${next++}`,
    highWater: options.highWater,
  };

  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?', 1)[0];
    if (path === '/' && !/[?&]source=proxy(&|$)/.test(request.url ?? '')) {
      response.writeHead(302, { Location: '/?source=proxy' });
      response.end();
      return;
    }
    void serveStatic(options.appDir, request, response);
  });

  server.on('upgrade', (request, socket, head) => {
    const path = (request.url ?? '/').split('?', 1)[0];
    if (path === FEED_PATH) {
      sideServer.handleUpgrade(request, socket, head, (page) => {
        const remove = hub.addViewer(page);
        page.on('close', remove);
        page.on('error', remove);
      });
      return;
    }
    if (path === INGEST_PATH) {
      sideServer.handleUpgrade(request, socket, head, (hooked) => {
        hooked.on('error', () => {});
        hooked.on('message', (data: Buffer, isBinary: boolean) => {
          if (isBinary) return;
          const event = decodeLiveEvent(data.toString());
          if ('error' in event) options.warn?.(`wirescope: a hooked process sent a bad feed message: ${event.error}`);
          else hub.publish(event);
        });
      });
      return;
    }
    relayUpgrade(request, socket, head, context);
  });

  return {
    server,
    listen: (host, port) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve(server.address() as AddressInfo);
        });
      }),
    // Resolves once every relayed connection's close has been handled (its last frames and its
    // close given to the hub), so a recording closed after this misses nothing.
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const c of relayServer.clients) c.terminate();
      for (const c of sideServer.clients) c.terminate();
      server.closeAllConnections();
      await closed;
      const deadline = Date.now() + 5000;
      while ((relayServer.clients.size > 0 || sideServer.clients.size > 0) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 5));
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}
