/**
 * `bench:ext`'s own server (127.0.0.1, port 0): HTTP for its two pages, the flood's
 * WebSocket endpoint `/flood` (raw-flood.ts: framed once, written in large chunks, so the
 * server takes next to no CPU from the browser it measures) and `/result`, where a flood
 * page posts its timing. The stream that feeds the panel comes from bench-server.ts.
 *
 * - flood.html: the page sends `go <count> <size>` (a text frame); the server answers with
 *   `count` binary messages of `size` bytes. Opened as `flood.html?count=N&size=S&run=ID`
 *   it floods on load and posts its result to `/result?run=ID` (`waitForResult(ID)`), so a
 *   timed run needs no automation attached to the page; `window.__flood(count, size)`
 *   resolves with the same result for pages a test drives.
 *   With `floor=1` the page adds, itself, the least a page-world capture must do: a second
 *   listener that reads every message and copies its bytes once.
 *   (Whether the extension ran in the page is read by the bench over CDP once the result is
 *   in: its content-script world; the page itself sees none of the capture traffic.)
 * - stream.html: connects to `?ws=` only when `window.__connect()` is called (after the
 *   panel is open), counts messages in `window.__received`; `?floor=` adds the page's own
 *   minimal observation of each message (stream-cost.ts).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { serveFlood } from './raw-flood.js';

export interface FloodResult {
  readonly n: number;
  readonly bytes: number;
  readonly msFirstToLast: number;
  readonly msGoToLast: number;
}

export interface FloodServer {
  readonly httpUrl: string;
  /** The result a page opened with `run=id` posts; rejects after `timeoutMs`. */
  waitForResult(id: string, timeoutMs: number): Promise<FloodResult>;
  close(): Promise<void>;
}

const FLOOD_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>bench:ext flood</title></head><body><script>
'use strict';
// floor=1: the page itself adds what any page-world capture must at least do, without an
// extension: a second 'message' listener, registered before the page's own (as a hook's is),
// that reads each message and copies its bytes into a buffer.
const floor = new URLSearchParams(location.search).get('floor') === '1';
const floorSlab = new Uint8Array(1 << 20);
let floorAt = 0;
window.__flood = (count, size) => new Promise((resolve, reject) => {
  const ws = new WebSocket('ws://' + location.host + '/flood');
  ws.binaryType = 'arraybuffer';
  if (floor) ws.addEventListener('message', (e) => {
    const bytes = new Uint8Array(e.data);
    if (floorAt + bytes.length > floorSlab.length) floorAt = 0;
    floorSlab.set(bytes, floorAt);
    floorAt += bytes.length;
  });
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
      setTimeout(() => resolve({ n, bytes, msFirstToLast: last - first, msGoToLast: last - go }), 100);
    }
  };
});
const q = new URLSearchParams(location.search);
if (q.has('run')) {
  const report = (result) => fetch('/result?run=' + encodeURIComponent(q.get('run')), { method: 'POST', body: JSON.stringify(result) });
  window.__flood(Number(q.get('count')), Number(q.get('size'))).then(report, (e) => report({ error: String(e) }));
}
</script></body></html>`;

const STREAM_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>bench:ext stream</title></head><body><script>
'use strict';
window.__received = 0;
window.__connect = () => new Promise((resolve, reject) => {
  const ws = new WebSocket(new URLSearchParams(location.search).get('ws'));
  ws.binaryType = 'arraybuffer';
  ws.onopen = resolve;
  ws.onerror = () => reject(new Error('stream socket failed'));
  // ?floor= (stream-cost.ts), without the extension: what observing each message costs by itself.
  // read: one more listener that reads each message's data (what any capture from the page's
  // world must do); copy: and copies its bytes into a 1 MiB slab, a fresh one when full (the
  // hook's batching, without posting); reuse: the same into one slab, reused (no new memory);
  // page: the page's own handler reads the data, as a real
  // page does (with the extension too: then the hook's read finds the data's wrapper made).
  const floor = new URLSearchParams(location.search).get('floor');
  let slab = new Uint8Array(1 << 20);
  let at = 0;
  if (floor === 'page') ws.addEventListener('message', (e) => { window.__bytes = (window.__bytes ?? 0) + e.data.byteLength; });
  else if (floor) ws.addEventListener('message', (e) => {
    const data = e.data;
    if (floor !== 'copy' && floor !== 'reuse') return;
    const n = data.byteLength;
    if (at + n > slab.length) [slab, at] = [floor === 'copy' ? new Uint8Array(1 << 20) : slab, 0];
    slab.set(new Uint8Array(data, 0, n), at);
    at += n;
  });
  ws.onmessage = () => { window.__received++; };
});
</script></body></html>`;

export async function startFloodServer(options: { burst?: number } = {}): Promise<FloodServer> {
  const burst = options.burst ?? 2048;
  const results = new Map<string, (r: FloodResult) => void>();
  const early = new Map<string, FloodResult>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/result' && req.method === 'POST') {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString('utf8')));
      req.on('end', () => {
        const id = url.searchParams.get('run') ?? '';
        const result = JSON.parse(body) as FloodResult;
        const waiter = results.get(id);
        if (waiter) waiter(result);
        else early.set(id, result);
        res.writeHead(204).end();
      });
      return;
    }
    const page = url.pathname === '/flood.html' ? FLOOD_PAGE : url.pathname === '/stream.html' ? STREAM_PAGE : null;
    if (!page) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page);
  });
  // Upgraded sockets leave the HTTP server's books: close() ends them from this set.
  const upgraded = new Set<Duplex>();
  server.on('upgrade', (req, socket: Duplex) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/flood') return void socket.destroy();
    upgraded.add(socket);
    socket.on('close', () => upgraded.delete(socket));
    serveFlood(req, socket, burst);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    httpUrl: `http://127.0.0.1:${port}/`,
    waitForResult: (id, timeoutMs) =>
      new Promise<FloodResult>((resolve, reject) => {
        const done = (r: FloodResult & { error?: string }) => {
          clearTimeout(timer);
          results.delete(id);
          if (r.error) reject(new Error(`flood run ${id}: ${r.error}`));
          else resolve(r);
        };
        const timer = setTimeout(() => {
          results.delete(id);
          reject(new Error(`flood run ${id}: no result within ${timeoutMs} ms`));
        }, timeoutMs);
        const got = early.get(id);
        if (got) {
          early.delete(id);
          done(got);
        } else results.set(id, done);
      }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of upgraded) socket.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
