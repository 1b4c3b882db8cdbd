/**
 * The page and server of the intercept tests (intercept-*.test.ts): a page whose socket
 * (binaryType arraybuffer) lists what its `message` listener gets (`window.got`: text, or
 * bytes) and sends what the test asks (`window.sendText`, `window.sendBytes`); a server that
 * records every frame it receives and pushes frames to the page on demand.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

const PAGE = `<!doctype html><meta charset="utf-8"><title>intercept</title><script>
window.got = [];
const ws = new WebSocket('ws://' + location.host + '/feed');
ws.binaryType = 'arraybuffer';
ws.addEventListener('message', (e) => {
  const d = e.data;
  window.got.push(typeof d === 'string' ? d : [...new Uint8Array(d)]);
});
ws.onopen = () => (window.opened = true);
window.sendText = (t) => ws.send(t);
window.sendBytes = (b) => ws.send(new Uint8Array(b));
window.ws = ws;
</script>`;

export interface InterceptServer {
  readonly url: string;
  /** Every frame the server received, in order: text, or bytes. */
  readonly received: (string | number[])[];
  /** Sends each frame (text, or bytes) to every client, in order. */
  push(frames: readonly (string | number[])[]): void;
  close(): Promise<void>;
}

export async function startInterceptServer(): Promise<InterceptServer> {
  const received: InterceptServer['received'] = [];
  const clients = new Set<WebSocket>();
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(PAGE);
  });
  const wss = new WebSocketServer({ server, perMessageDeflate: false });
  wss.on('connection', (ws) => {
    clients.add(ws);
    ws.on('close', () => clients.delete(ws));
    ws.on('message', (data: Buffer, binary: boolean) => received.push(binary ? [...data] : data.toString('utf8')));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/page.html`,
    received,
    push(frames) {
      for (const c of clients)
        for (const f of frames) c.send(typeof f === 'string' ? f : Buffer.from(f), { binary: typeof f !== 'string' });
    },
    close: async () => {
      for (const c of wss.clients) c.terminate();
      wss.close();
      await new Promise((r) => server.close(r));
    },
  };
}
