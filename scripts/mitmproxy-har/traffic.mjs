// The WebSocket traffic for the mitmproxy HAR fixture: a ws echo server on UPSTREAM_PORT and a
// ws client through mitmproxy (reverse mode) on PROXY_PORT sending text (ASCII and UTF-8),
// binary (CBOR bytes, every byte value) and an empty message, then closing with 1000.
import { WebSocket, WebSocketServer } from 'ws';

const upstreamPort = Number(process.env.UPSTREAM_PORT);
const proxyPort = Number(process.env.PROXY_PORT);
if (process.argv[2] === 'server') {
  const server = new WebSocketServer({ host: '127.0.0.1', port: upstreamPort });
  server.on('connection', (s) => s.on('message', (d, isBinary) => s.send(d, { binary: isBinary })));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
} else {
  const messages = [
    'hello',
    'héllo 水 🌊',
    Buffer.from('a26269640163746167826161626262', 'hex'), // CBOR {"id":1,"tag":["a","bb"]}
    Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
    '',
  ];
  const client = new WebSocket(`ws://127.0.0.1:${proxyPort}/feed?room=7`, ['wirescope-test']);
  let echoed = 0;
  client.on('open', () => {
    for (const m of messages) client.send(m);
  });
  client.on('message', () => {
    if (++echoed === messages.length) client.close(1000, 'done');
  });
  client.on('close', (code) => {
    console.log(`client closed ${code} after ${echoed} echoes`);
    process.exit(0);
  });
  client.on('error', (e) => {
    console.error(e.message);
    process.exit(1);
  });
}
