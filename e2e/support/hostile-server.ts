/**
 * The hostile-pages test's server (127.0.0.1, port 0): `/quiet.html` (a well-behaved page),
 * `/hostile.html` (a page that attacks the extension through its own sockets and, from
 * `/forger.html` in an iframe, window messages, between two runs of ordinary frames), and a WebSocket echo on `/echo`. Any other
 * upgrade is refused. The pages set `window.__done` (and what they saw) when finished.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';

export interface HostileServer {
  readonly httpUrl: string;
  close(): Promise<void>;
}

export interface HostileOptions {
  /** Characters in the URL of each of two real sockets. */
  readonly hugeUrl: number;
  /** Real sockets opened (and failing at once) in a loop: opening, error and close events each. */
  readonly socketFlood: number;
  /** Socket events posted on the window in the capture hook's message format (forged batches). */
  readonly forgedEvents: number;
  /** Forged events carrying a 20 MB URL. */
  readonly forgedHuge: number;
}

/** Sends `n` binary frames on an echo socket and waits for their echoes: 2n frames in all. */
const ECHO_SCRIPT = `
function echoRun(url, n, tag) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.binaryType = 'arraybuffer';
    let got = 0;
    ws.onopen = () => { for (let i = 0; i < n; i++) ws.send(new Uint8Array([0xa1, 0x61, tag, i])); };
    ws.onmessage = () => { if (++got === n) { ws.close(1000, 'done'); resolve(got); } };
    ws.onerror = () => reject(new Error('echo socket failed'));
  });
}`;

function quietPage(): string {
  return `<!doctype html><meta charset="utf-8"><title>quiet</title><script>${ECHO_SCRIPT}
echoRun('ws://' + location.host + '/echo', 10, 0x71).then(() => { window.__done = true; }, (e) => { window.__done = String(e); });
</script>`;
}

function forgerPage(o: HostileOptions): string {
  return `<!doctype html><meta charset="utf-8"><title>forger</title><script>
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const forge = (seq, events) => window.postMessage({ tag: 'wirescope/capture/v1', type: 'hook-batch', seq, events, frameCount: 0, frameTable: new ArrayBuffer(0), frameBytes: new ArrayBuffer(0), frameBytesUsed: 0 }, '*');
(async () => {
  const bigUrl = 'javascript:' + 'y'.repeat(20000000);
  for (let i = 0; i < ${o.forgedHuge}; i++) forge(1000000 + i, [{ type: 'opening', socketId: 900000 + i, url: bigUrl, time: Date.now(), at: 0 }]);
  let seq = 2000000;
  for (let done = 0; done < ${o.forgedEvents}; ) {
    const events = [];
    for (let k = 0; k < 10000 && done < ${o.forgedEvents}; k++, done++) events.push({ type: k % 2 ? 'close' : 'opening', socketId: 100000 + done, url: 'javascript:forged', code: 1000, reason: 'forged', wasClean: true, time: Date.now(), at: 0 });
    forge(seq++, events);
    await sleep(0);
  }
  await sleep(200);
  parent.postMessage('forged', '*');
})();
</script>`;
}

function hostilePage(o: HostileOptions): string {
  return `<!doctype html><meta charset="utf-8"><title>hostile</title><script>${ECHO_SCRIPT}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function attack() {
  const seen = {};
  await echoRun('ws://' + location.host + '/echo', 5, 0x62);
  // Two real sockets with a ${o.hugeUrl}-character URL.
  const filler = 'x'.repeat(${o.hugeUrl});
  for (let i = 0; i < 2; i++) {
    try { new WebSocket('ws://' + location.host + '/huge' + i + '?' + filler); } catch (e) { seen.hugeThrew = String(e); }
  }
  // A flood of real sockets that fail at once (nothing listens on port 9): opening, error, close.
  let closed = 0;
  for (let i = 0; i < ${o.socketFlood}; i++) {
    try { const s = new WebSocket('ws://127.0.0.1:9/flood' + i); s.onclose = () => closed++; } catch (e) { seen.floodThrew = String(e); break; }
    if (i % 500 === 499) await sleep(0);
  }
  // Forged capture batches, posted by a same-origin iframe on its own window: its relay (on a
  // main without a private channel) takes them, and its forged seq blocks only its own capture.
  await new Promise((resolve) => {
    addEventListener('message', (e) => { if (e.data === 'forged') resolve(); });
    const frame = document.createElement('iframe');
    frame.src = '/forger.html';
    document.body.appendChild(frame);
  });
  const deadline = Date.now() + 20000;
  while (closed < ${o.socketFlood} && Date.now() < deadline) await sleep(50);
  seen.floodClosed = closed;
  await echoRun('ws://' + location.host + '/echo', 5, 0x61);
  return seen;
}
attack().then((seen) => { window.__seen = seen; window.__done = true; }, (e) => { window.__done = String(e); });
</script>`;
}

export async function startHostileServer(options: HostileOptions): Promise<HostileServer> {
  const pages: Record<string, string> = {
    '/quiet.html': quietPage(),
    '/hostile.html': hostilePage(options),
    '/forger.html': forgerPage(options),
  };
  const server = http.createServer((req, res) => {
    const page = pages[new URL(req.url ?? '/', 'http://x').pathname];
    if (!page) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page);
  });
  const echo = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  echo.on('connection', (ws) => ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary })));
  server.on('upgrade', (req, socket, head) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/echo') return void socket.destroy();
    echo.handleUpgrade(req, socket, head, (ws) => echo.emit('connection', ws, req));
  });
  const httpUrl = await new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)),
  );
  return {
    httpUrl,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of echo.clients) c.terminate();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
