/**
 * The page and server of the action tests (page-actions-*.test.ts): a page that sends a CBOR
 * map and a text frame when its socket opens, then turns hostile (replaces
 * `WebSocket.prototype.send`, `dispatchEvent`, `MessageEvent` and `Blob`, counting what goes
 * through its replacements), and lists what its `onmessage` gets; a server that records every
 * frame it receives.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { encode as encodeCbor } from 'cbor-x';
import { WebSocketServer } from 'ws';
import { waitUntil } from './wait.js';

/** What the page sends first: a CBOR map, encoded here by an encoder wirescope does not use. */
export const CBOR_FRAME = new Uint8Array(encodeCbor({ a: 1, b: 'x' }));

const PAGE = `<!doctype html><meta charset="utf-8"><title>actions</title><script>
window.got = [];
window.seenSends = 0;
window.seenDispatches = 0;
const ws = new WebSocket('ws://' + location.host + '/echo');
ws.binaryType = 'arraybuffer';
ws.onmessage = (e) => {
  const d = e.data;
  const entry = { kind: Object.prototype.toString.call(d), origin: e.origin, text: typeof d === 'string' ? d : null, bytes: null };
  window.got.push(entry);
  if (entry.kind === '[object ArrayBuffer]') entry.bytes = [...new Uint8Array(d)];
  else if (entry.kind === '[object Blob]') d.arrayBuffer().then((b) => (entry.bytes = [...new Uint8Array(b)]));
};
ws.onopen = () => {
  ws.send(new Uint8Array(${JSON.stringify([...CBOR_FRAME])}));
  ws.send('text frame');
  // Hostile from here on: everything wirescope might use is replaced (the page keeps the originals for its own forgeries).
  window.Real = { MessageEvent, CustomEvent };
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (d) { window.seenSends++; return send.call(this, d); };
  const dispatch = EventTarget.prototype.dispatchEvent;
  EventTarget.prototype.dispatchEvent = function (e) { window.seenDispatches++; return dispatch.call(this, e); };
  window.MessageEvent = function () { throw new Error('the page faked MessageEvent'); };
  window.Blob = function () { throw new Error('the page faked Blob'); };
  window.opened = true;
};
window.ws = ws;
</script>`;

export interface ActionServer {
  readonly url: string;
  /** Every frame the server received, in order: bytes and whether binary. */
  readonly received: { bytes: number[]; binary: boolean }[];
  close(): Promise<void>;
}

export async function startActionServer(): Promise<ActionServer> {
  const received: ActionServer['received'] = [];
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(PAGE);
  });
  const wss = new WebSocketServer({ server, perMessageDeflate: false });
  wss.on('connection', (ws) => {
    ws.on('message', (data: Buffer, binary: boolean) => received.push({ bytes: [...data], binary }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/page.html`,
    received,
    close: async () => {
      for (const c of wss.clients) c.terminate();
      wss.close();
      await new Promise((r) => server.close(r));
    },
  };
}

/**
 * Resolves once the action page (a Playwright or a Puppeteer page) has its socket open and
 * turned hostile, and `server` has the two frames the page sent first.
 */
export async function actionPageReady(
  page: { waitForFunction(expression: string): Promise<unknown> },
  server: ActionServer,
): Promise<void> {
  await page.waitForFunction('window.opened === true');
  await waitUntil('the page’s two frames at the server', () => server.received.length === 2);
}
