/**
 * The benchmark's own WebSocket server (loopback, no compression), next to the demo server
 * that serves the app:
 * - `/stream`: `startDelayMs` after the connection opens, `rate` frames/s from the pool in
 *              bursts every `tickMs`, `seconds` long, then stops.
 * - `/big`:    one large frame, `delayMs` after the connection opens.
 * - `/search?count=N`: N frames from the pool as fast as the socket drains (the text-search capture).
 * - `/record-set`: one `recordSet` frame (the Text tab's 2 MB frame), `delayMs` after the connection opens.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export interface StreamStats {
  sent: number;
  /** Largest `bufferedAmount` seen after a burst: the browser not reading fast enough. */
  maxBuffered: number;
  startedAt: number;
  endedAt: number;
  /** Ticks that ran late by more than one tick. */
  lateTicks: number;
}

export interface BenchServer {
  readonly url: string;
  /** Resolves when the stream on `/stream` has sent its last frame. */
  readonly streamDone: Promise<StreamStats>;
  /** Resolves with the time (Date.now()) the big frame was handed to the socket. */
  readonly bigSent: Promise<number>;
  close(): Promise<void>;
}

export async function startBenchServer(opts: {
  pool: readonly Uint8Array[];
  rate: number;
  seconds: number;
  tickMs: number;
  big: Uint8Array;
  recordSet?: Uint8Array;
  delayMs: number;
  startDelayMs: number;
}): Promise<BenchServer> {
  const server = http.createServer((_, res) => res.writeHead(404).end());
  const wss = new WebSocketServer({ server, perMessageDeflate: false });
  let resolveStream!: (s: StreamStats) => void;
  let resolveBig!: (t: number) => void;
  const streamDone = new Promise<StreamStats>((r) => (resolveStream = r));
  const bigSent = new Promise<number>((r) => (resolveBig = r));
  const timers = new Set<NodeJS.Timeout>();

  function stream(socket: WebSocket): void {
    const total = Math.round(opts.rate * opts.seconds);
    const stats: StreamStats = { sent: 0, maxBuffered: 0, startedAt: Date.now(), endedAt: 0, lateTicks: 0 };
    let next = 0;
    let lastTick = stats.startedAt;
    let interval: NodeJS.Timeout;
    const tick = () => {
      const now = Date.now();
      if (now - lastTick > 2 * opts.tickMs) stats.lateTicks++;
      lastTick = now;
      // Catch up to the schedule (a late timer sends a bigger burst), never past the total.
      const due = Math.min(total, Math.round(((now - stats.startedAt) / 1000) * opts.rate));
      while (stats.sent < due && socket.readyState === socket.OPEN) {
        socket.send(opts.pool[next], { binary: true });
        next = (next + 1) % opts.pool.length;
        stats.sent++;
      }
      stats.maxBuffered = Math.max(stats.maxBuffered, socket.bufferedAmount);
      if (stats.sent >= total || socket.readyState !== socket.OPEN) {
        clearInterval(interval);
        timers.delete(interval);
        stats.endedAt = Date.now();
        resolveStream(stats);
      }
    };
    interval = setInterval(tick, opts.tickMs);
    timers.add(interval);
  }

  wss.on('connection', (socket: WebSocket, request) => {
    socket.on('error', () => socket.terminate());
    if (request.url?.startsWith('/big') || request.url?.startsWith('/record-set')) {
      const frame = request.url.startsWith('/big') ? opts.big : opts.recordSet!;
      const t = setTimeout(() => {
        socket.send(frame, { binary: true });
        resolveBig(Date.now());
      }, opts.delayMs);
      timers.add(t);
      return;
    }
    if (request.url?.startsWith('/search')) {
      const count = Number(new URL(request.url, 'ws://x').searchParams.get('count') ?? 0);
      let sent = 0;
      const burst = () => {
        while (sent < count && socket.readyState === socket.OPEN && socket.bufferedAmount < 8 * 1024 * 1024)
          socket.send(opts.pool[sent++ % opts.pool.length], { binary: true });
        if (sent < count && socket.readyState === socket.OPEN) timers.add(setTimeout(burst, 5));
      };
      burst();
      return;
    }
    const start = setTimeout(() => stream(socket), opts.startDelayMs);
    timers.add(start);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}`,
    streamDone,
    bigSent,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearInterval(t);
        for (const c of wss.clients) c.terminate();
        wss.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
