/**
 * index.html, the standalone web inspector: a WebSocket-client host (connect to any ws:// or
 * wss:// URL, send frames) plus HAR / capture files. `?connect=ws://…` connects at start
 * (npm start opens it connected to the demo server).
 */
import { createWebSocketTransport } from '../sources/websocket-transport.js';
import { createProxyFeedTransport, feedUrlFor } from '../sources/proxy-feed-transport.js';
import { startDecodeWorker } from '../worker/client.js';
import { mount } from './mount.js';
import { demoUrlFor } from '../components/connect/demo-url.js';

const params = new URLSearchParams(location.search);
// `?source=proxy`: served by `wirescope proxy`, the page watches the proxy's live feed.
const fromProxy = params.get('source') === 'proxy';
mount({
  transport: fromProxy ? createProxyFeedTransport({ url: feedUrlFor(location) }) : createWebSocketTransport(),
  worker: startDecodeWorker(),
  capabilities: {
    connect: !fromProxy,
    sendFrames: !fromProxy,
    files: true,
    theme: params.get('theme') === 'dark' ? 'dark' : params.get('theme') === 'light' ? 'light' : 'auto',
    hostName: fromProxy ? 'wirescope proxy' : 'web inspector',
    ...(fromProxy ? { proxyAddress: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/` } : {}),
    pastePageUrl: new URL('paste.html', location.href).href,
    // Send again, Edit and send and Compose on the inspector's own connections.
    ...(fromProxy ? {} : { frameActions: ['send'] as const }),
  },
  connectUrl: params.get('connect') ?? undefined,
  demoUrl: demoUrlFor(location),
});
