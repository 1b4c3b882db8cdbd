/**
 * `bench:ext`'s own server (127.0.0.1, port 0): HTTP for its two pages and the WebSocket
 * `/flood` endpoint. The stream that feeds the panel comes from bench-server.ts (bench:ui's).
 *
 * - flood.html + `/flood`: the page sends `go <count> <size>` (a text frame); the server
 *   answers with `count` binary messages of `size` bytes, in bursts of `burst`: the next
 *   burst only once the last one's bytes were handed to the kernel (ws's send callback),
 *   so at most about one burst waits in user space however slowly the page reads.
 *   `window.__flood(count, size)` resolves with the page's own timing.
 * - stream.html: connects to `?ws=` only when `window.__connect()` is called (after the
 *   panel is open), counts messages in `window.__received`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export interface FloodServer {
  readonly httpUrl: string;
  readonly wsUrl: string;
  close(): Promise<void>;
}

const FLOOD_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>bench:ext flood</title></head><body><script>
'use strict';
window.__flood = (count, size) => new Promise((resolve, reject) => {
  const ws = new WebSocket('ws://' + location.host + '/flood');
  ws.binaryType = 'arraybuffer';
  let n = 0, bytes = 0, first = 0, go = 0;
  ws.onopen = () => { go = performance.now(); ws.send('go ' + count + ' ' + size); };
  ws.onerror = () => reject(new Error('flood socket failed'));
  ws.onmessage = (e) => {
    if (n === 0) first = performance.now();
    n++;
    bytes += e.data.byteLength;
    if (n === count) {
      const last = performance.now();
      ws.close();
      resolve({ n, bytes, msFirstToLast: last - first, msGoToLast: last - go });
    }
  };
});
</script></body></html>`;

const STREAM_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>bench:ext stream</title></head><body><script>
'use strict';
window.__received = 0;
window.__connect = () => new Promise((resolve, reject) => {
  const ws = new WebSocket(new URLSearchParams(location.search).get('ws'));
  ws.binaryType = 'arraybuffer';
  ws.onopen = resolve;
  ws.onerror = () => reject(new Error('stream socket failed'));
  ws.onmessage = () => { window.__received++; };
});
</script></body></html>`;

export async function startFloodServer(options: { burst?: number } = {}): Promise<FloodServer> {
  const burst = options.burst ?? 2000;
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const page = path === '/flood.html' ? FLOOD_PAGE : path === '/stream.html' ? STREAM_PAGE : null;
    if (!page) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page);
  });
  const wss = new WebSocketServer({ server, path: '/flood', perMessageDeflate: false });
  wss.on('connection', (ws: WebSocket) => {
    ws.on('error', () => ws.terminate());
    ws.once('message', (data: Buffer) => {
      const [, count, size] = data.toString('utf8').split(' ').map(Number);
      if (!count || !size) return ws.close(1008, 'expected "go <count> <size>"');
      // 64 distinct payloads (the hook copies bytes, it decodes nothing: their content does not matter).
      const pool = Array.from({ length: 64 }, (_, k) => {
        const b = Buffer.alloc(size);
        for (let i = 0; i < size; i++) b[i] = (i * 31 + k * 7) & 0xff;
        return b;
      });
      let sent = 0;
      const pump = () => {
        const end = Math.min(count, sent + burst);
        while (sent < end && ws.readyState === ws.OPEN) {
          const last = sent === end - 1;
          ws.send(pool[sent % 64]!, { binary: true }, last && end < count ? () => setImmediate(pump) : undefined);
          sent++;
        }
      };
      pump();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    httpUrl: `http://127.0.0.1:${port}/`,
    wsUrl: `ws://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        wss.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
