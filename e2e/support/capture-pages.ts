/**
 * Pages and a server for the capture-path browser tests (e2e/capture-*.test.ts, issue 14):
 * frames of every kind (sandboxed, about:blank, srcdoc), a page with its own window-message
 * listeners, and workers. One HTTP server (127.0.0.1, port 0) serves the pages and echoes
 * every WebSocket message on any path (text as text, binary as binary). Each page resolves
 * `window.__done` with what it saw; page scripts are plain strings, so Chromium and Firefox
 * run the same code.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';

const html = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body><h1>${title}</h1>
${body}
</body></html>`;

/** A script helper every page gets: `talk(WS, name, frames)` opens a socket, sends each frame, waits for each echo. */
const TALK = `
function talk(WS, path, frames, opts) {
  return new Promise((resolve, reject) => {
    const ws = new WS('ws://' + (self.__host || location.host) + '/' + path); // a srcdoc frame has no host of its own
    ws.binaryType = 'arraybuffer';
    const got = [];
    ws.onerror = () => reject(new Error('socket ' + path + ' failed'));
    ws.onmessage = (e) => {
      got.push(typeof e.data === 'string' ? e.data : Array.from(new Uint8Array(e.data)));
      if (got.length === frames.length) { ws.close(1000, 'done'); resolve(got); }
    };
    ws.onopen = () => { for (const f of frames) ((opts && opts.send) || ((w, x) => w.send(x)))(ws, f); };
  });
}`;

/** The hostile-neighbour page: JSON.parses every window message and re-posts every one it did not post itself. */
export const LISTENERS_PAGE = html(
  'window-message listeners',
  `<script>
'use strict';
${TALK}
window.__seen = 0;
// Like many pages: every window message is assumed to be JSON text.
window.addEventListener('message', (e) => { if (!(e.data && e.data.reposted)) { window.__seen++; JSON.parse(e.data); } });
// ... and a page that forwards what it hears (an analytics bridge, say).
window.addEventListener('message', (e) => { if (!(e.data && e.data.reposted)) window.postMessage({ reposted: true, data: e.data }, '*'); });
const frames = [];
for (let i = 0; i < 20; i++) frames.push(i % 2 ? 'listeners ' + i : new Uint8Array([0xa1, 0x61, 0x6e, i]));
window.__done = talk(WebSocket, 'listeners', frames).then((got) => new Promise((r) => setTimeout(() => r({ echoed: got.length, seen: window.__seen }), 300)));
</script>`,
);

/** A sandboxed child (opaque origin): talks from inside; the parent only hosts it. */
export const SANDBOXED_CHILD = html(
  'sandboxed child',
  `<script>
'use strict';
${TALK}
talk(WebSocket, 'sandboxed', ['sandboxed 1', 'sandboxed 2', new Uint8Array([0x82, 1, 2])]).then(
  (got) => parent.postMessage({ sandboxedDone: got.length, origin: String(self.origin) }, '*'),
  (e) => parent.postMessage({ sandboxedError: String(e) }, '*'),
);
</script>`,
);

export const SANDBOXED_PAGE = html(
  'sandboxed iframe',
  `<script>
'use strict';
window.__done = new Promise((resolve) => window.addEventListener('message', (e) => { if (e.data && ('sandboxedDone' in e.data || 'sandboxedError' in e.data)) resolve(e.data); }));
</script>
<iframe sandbox="allow-scripts" src="/sandboxed-child.html"></iframe>`,
);

/**
 * about:blank: a socket made with the blank frame's WebSocket constructor, and a socket of the
 * top document whose frames go out through the blank frame's own `send` (pristine, unless the
 * blank frame is hooked too); srcdoc: a frame whose own script talks.
 */
export const BLANK_PAGE = html(
  'about:blank and srcdoc iframes',
  `<script>
'use strict';
${TALK}
window.__done = (async () => {
  const blank = document.createElement('iframe');
  document.body.append(blank);
  const W = blank.contentWindow;
  const viaBlankCtor = await talk(W.WebSocket, 'blank-ctor', ['blank ctor 1', 'blank ctor 2']);
  const pristineSend = W.WebSocket.prototype.send;
  const viaBlankSend = await talk(WebSocket, 'blank-send', ['blank send 1', new Uint8Array([9, 8, 7])], { send: (ws, x) => pristineSend.call(ws, x) });
  const srcdoc = document.createElement('iframe');
  const fromSrcdoc = new Promise((resolve) => window.addEventListener('message', (e) => { if (e.data && 'srcdocDone' in e.data) resolve(e.data.srcdocDone); }));
  srcdoc.srcdoc = '<script>self.__host = ' + JSON.stringify(location.host) + ';' + talk.toString() + ';talk(WebSocket, "srcdoc", ["srcdoc 1", "srcdoc 2"]).then((g) => parent.postMessage({ srcdocDone: g.length }, "*"), (e) => parent.postMessage({ srcdocDone: String(e) }, "*"));<' + '/script>';
  document.body.append(srcdoc);
  return { viaBlankCtor: viaBlankCtor.length, viaBlankSend: viaBlankSend.length, srcdoc: await fromSrcdoc };
})();
</script>`,
);

export const CAPTURE_PAGES: Record<string, string> = {
  '/listeners.html': LISTENERS_PAGE,
  '/sandboxed.html': SANDBOXED_PAGE,
  '/sandboxed-child.html': SANDBOXED_CHILD,
  '/blank.html': BLANK_PAGE,
};

export interface PagesServer {
  readonly httpUrl: string;
  /** Messages the echo server got, per path. */
  readonly received: Map<string, number>;
  close(): Promise<void>;
}

/** Serves `pages` (path → HTML, or [content type, body]) and echoes WebSocket messages on every path. */
export async function startPagesServer(pages: Record<string, string | readonly [string, string]>): Promise<PagesServer> {
  const server = http.createServer((req, res) => {
    const page = pages[new URL(req.url ?? '/', 'http://x').pathname];
    if (page === undefined) return void res.writeHead(404).end();
    const [type, body] = typeof page === 'string' ? ['text/html; charset=utf-8', page] : page;
    res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
  });
  const received = new Map<string, number>();
  const wss = new WebSocketServer({ server, perMessageDeflate: false });
  wss.on('connection', (ws, req) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    ws.on('message', (data, isBinary) => {
      received.set(path, (received.get(path) ?? 0) + 1);
      ws.send(data, { binary: isBinary });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    httpUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    received,
    close: async () => {
      for (const c of wss.clients) c.terminate();
      wss.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
