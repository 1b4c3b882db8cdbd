/**
 * Pages and a server for the capture-path browser tests (e2e/capture-*.test.ts):
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

/**
 * A worker script: talks on its own socket (one text frame '<name> text' and one 3-byte
 * binary frame, both echoed), and again ('<name> again') whenever it gets a message;
 * `report(result)` tells whoever started it when the echoes of a round are in.
 */
const workerScript = (name: string, report: string) => `'use strict';
const report = (result) => { ${report} };
const ws = new WebSocket('ws://' + location.host + '/${name}');
ws.binaryType = 'arraybuffer';
let got = 0;
const round = (tag) => { got = 0; ws.send('${name} ' + tag); ws.send(new Uint8Array([0x82, 0x01, 0x02]).buffer); };
ws.onopen = () => round('text');
ws.onmessage = () => { if (++got === 2) report(got); };
ws.onerror = () => report('socket failed');
self.__again = () => round('again');`;

/**
 * workers.html: `window.__start()` opens the page's own socket and starts a dedicated worker
 * and a shared worker, each talking on its own socket (one text and one binary frame, each
 * echoed); resolves when all three heard both echoes.
 */
export const WORKERS_PAGE = html(
  'workers',
  `<script>
'use strict';
${TALK}
let dedicated = null, shared = null;
const answer = (target) => new Promise((resolve) => target.addEventListener('message', (e) => resolve(e.data), { once: true }));
window.__start = () => {
  dedicated = new Worker('/dedicated.js');
  shared = new SharedWorker('/shared.js');
  shared.port.start();
  return Promise.all([talk(WebSocket, 'page', ['page text']).then((g) => g.length), answer(dedicated), answer(shared.port)]);
};
// Both workers talk once more (a shared worker found after it opened its socket is captured from then on).
window.__again = () => {
  const done = Promise.all([answer(dedicated), answer(shared.port)]);
  dedicated.postMessage('again');
  shared.port.postMessage('again');
  return done;
};
</script>`,
);

/** What a page can read that might name the extension: error stacks through the wrappers, a clean iframe's toString of them. */
export const DETECT_PAGE = html(
  'detectability',
  `<script>
'use strict';
window.__done = (() => {
  const stackOf = (fn) => { try { fn(); } catch (e) { return String(e && e.stack); } return 'nothing thrown'; };
  const ws = new WebSocket('ws://' + location.host + '/detect');
  const sendStack = stackOf(() => ws.send('too early'));
  const ctorStack = stackOf(() => new WebSocket('ftp://nope.invalid/'));
  ws.close();
  const frame = document.createElement('iframe');
  frame.sandbox = 'allow-same-origin'; // no scripts run in it: its realm stays clean of any hook
  document.body.append(frame);
  const clean = frame.contentWindow.Function.prototype.toString;
  const texts = [WebSocket.prototype.send, WebSocket, Function.prototype.toString].map((f) => clean.call(f));
  return { sendStack, ctorStack, texts };
})();
</script>`,
);

/** A socket that stays open: `window.__open` resolves when it is. */
const HOLD_OPEN = (path: string) => `
window.__open = new Promise((resolve, reject) => {
  const ws = new WebSocket('ws://' + location.host + '/${path}');
  ws.onopen = () => { ws.send('${path} hello'); resolve(true); };
  ws.onerror = () => reject(new Error('socket ${path} failed'));
  window.__socket = ws;
});`;

/** Navigations: the page before (one open socket), then a page whose frame opens its socket at once, long before its top document opens one. */
export const STAY_BEFORE = html('before the navigation', `<script>${HOLD_OPEN('stay-before')}</script>`);
export const STAY_CHILD = html('the new page\u2019s frame', `<script>${HOLD_OPEN('stay-child')}</script>`);
export const STAY_AFTER = html(
  'after the navigation',
  `<iframe src="/stay-child.html" title="child"></iframe><script>
'use strict';
window.__done = new Promise((resolve) => setTimeout(resolve, 1500)).then(() => {
  ${HOLD_OPEN('stay-top')}
  return window.__open;
});
</script>`,
);

export const CAPTURE_PAGES: Record<string, string | readonly [string, string]> = {
  '/stay-before.html': STAY_BEFORE,
  '/stay-child.html': STAY_CHILD,
  '/stay-after.html': STAY_AFTER,
  '/detect.html': DETECT_PAGE,
  '/workers.html': WORKERS_PAGE,
  '/dedicated.js': [
    'text/javascript',
    `${workerScript('dedicated', 'postMessage(result);')}\nonmessage = () => self.__again();`,
  ],
  '/shared.js': [
    'text/javascript',
    `let port = null; const early = []; onconnect = (e) => { port = e.ports[0]; port.onmessage = () => self.__again(); port.start(); early.forEach((m) => port.postMessage(m)); };\n${workerScript('shared', 'port ? port.postMessage(result) : early.push(result);')}`,
  ],
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
export async function startPagesServer(
  pages: Record<string, string | readonly [string, string]>,
): Promise<PagesServer> {
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
