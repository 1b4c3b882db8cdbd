/**
 * The pages the extension tests load (served by ext-server.ts). Their scripts are plain
 * JavaScript strings, so the same page runs in Chromium and Firefox and nothing depends on
 * how the test runner compiles functions.
 *
 * - capture.html: walks the conversation of ext-fixtures.ts (phase `backlog` at load;
 *   `window.__walk('live')` later) and checks every received frame's data; results in
 *   `window.__backlog` (a promise) and `window.__problems`.
 * - api.html: `window.__apiChecks()` → what the page can observe of the WebSocket API.
 * - sio.html: a socket.io client (the server's own /socket.io/socket.io.js) doing an
 *   emit / ack round trip with a binary attachment each way, in `window.__sio`.
 */

const html = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body><h1>${title}</h1>
${body}
</body></html>`;

/** The conversation page; `stepsJson` from stepsForPage(). */
export function capturePage(stepsJson: string): string {
  return html(
    'wirescope capture test',
    `<script>
'use strict';
const steps = ${stepsJson};
const problems = (window.__problems = []);
const bytesOf = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
const hex = (u8) => Array.from(u8, (b) => b.toString(16).padStart(2, '0')).join('');
const sockets = {};

function open(name) {
  const ws = new WebSocket('ws://' + location.host + '/conv/' + name);
  ws.binaryType = name === 'A' ? 'arraybuffer' : 'blob';
  const inbox = [];
  const waiters = [];
  ws.onmessage = (e) => (waiters.length ? waiters.shift()(e.data) : inbox.push(e.data));
  const opened = new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = () => reject(new Error('socket ' + name + ' failed'));
  });
  const next = () =>
    inbox.length
      ? Promise.resolve(inbox.shift())
      : new Promise((resolve, reject) => {
          waiters.push(resolve);
          setTimeout(() => reject(new Error('socket ' + name + ': no message within 10 s')), 10000);
        });
  return (sockets[name] = { ws, opened, next });
}

function send(ws, step) {
  const b = bytesOf(step.b64);
  switch (step.sendAs) {
    case 'text': return ws.send(new TextDecoder().decode(b));
    case 'arraybuffer': return ws.send(b.buffer);
    case 'uint8array': return ws.send(b);
    case 'dataview': {
      const buf = new ArrayBuffer(b.length + 13);
      new Uint8Array(buf, 5, b.length).set(b);
      return ws.send(new DataView(buf, 5, b.length));
    }
    case 'subarray': {
      const big = new Uint8Array(b.length + 10).fill(0xee);
      big.set(b, 3);
      return ws.send(big.subarray(3, 3 + b.length));
    }
    case 'blob': return ws.send(new Blob([b]));
    default: throw new Error('unknown sendAs ' + step.sendAs);
  }
}

async function check(data, step, i) {
  const want = bytesOf(step.b64);
  let got;
  if (step.opcode === 'text') {
    if (typeof data !== 'string') return problems.push('step ' + i + ': expected a string, got ' + Object.prototype.toString.call(data));
    got = new TextEncoder().encode(data);
  } else if (step.socket === 'B') {
    if (!(data instanceof Blob)) return problems.push('step ' + i + ': expected a Blob, got ' + Object.prototype.toString.call(data));
    got = new Uint8Array(await data.arrayBuffer());
  } else {
    if (!(data instanceof ArrayBuffer)) return problems.push('step ' + i + ': expected an ArrayBuffer, got ' + Object.prototype.toString.call(data));
    got = new Uint8Array(data);
  }
  if (hex(got) !== hex(want)) problems.push('step ' + i + ': received ' + hex(got) + ', expected ' + hex(want));
}

window.__walk = async (phase) => {
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i];
    if (step.phase !== phase) continue;
    const s = sockets[step.socket] || open(step.socket);
    await s.opened;
    if (step.direction === 'sent') send(s.ws, step);
    else await check(await s.next(), step, i);
  }
  return problems.slice();
};
window.__backlog = window.__walk('backlog');
window.__backlog.catch((e) => problems.push(String(e)));
</script>`,
  );
}

/** What a page can tell about the WebSocket API; run with and without the extension and compared. */
export function apiPage(): string {
  return html(
    'wirescope API checks',
    `<script>
'use strict';
window.__hookBatchesSeen = 0;
// Capture traffic the page can see on its window: none (the hook's batches travel on a private channel).
window.addEventListener('message', (e) => {
  if (e.data && e.data.tag === 'wirescope/capture/v1' && e.data.type === 'hook-batch') window.__hookBatchesSeen++;
});
const attempt = (fn) => { try { return ['ok', fn()]; } catch (e) { return [e && e.name, e && e.message, e instanceof DOMException ? 'DOMException' : e instanceof TypeError ? 'TypeError' : e instanceof SyntaxError ? 'SyntaxError' : typeof e]; } };
const once = (target, type) => new Promise((resolve) => target.addEventListener(type, resolve, { once: true }));

window.__apiChecks = async () => {
  const url = 'ws://' + location.host + '/api';
  const r = {};
  const WS = WebSocket;
  r.globalIsFunction = typeof WS;
  r.sourceText = [String(WS), WS.toString(), Function.prototype.toString.call(WS), String(WS.prototype.send), Function.prototype.toString.call(WS.prototype.send), String(Function.prototype.toString), String(WS.prototype.close)];
  r.nameLength = [WS.name, WS.length, WS.prototype.send.name, WS.prototype.send.length, 'prototype' in WS.prototype.send, typeof WS.prototype.send];
  r.constants = [WS.CONNECTING, WS.OPEN, WS.CLOSING, WS.CLOSED, WS.prototype.CONNECTING, WS.prototype.OPEN, WS.prototype.CLOSING, WS.prototype.CLOSED];
  r.ownKeys = [Reflect.ownKeys(WS).map(String), Reflect.ownKeys(WS.prototype).map(String)];
  r.descriptors = Reflect.ownKeys(WS.prototype).map((k) => { const d = Object.getOwnPropertyDescriptor(WS.prototype, k); return [String(k), typeof d.value, typeof d.get, typeof d.set, d.enumerable, d.configurable, d.writable === undefined ? null : d.writable]; });
  r.protoChain = [Object.getPrototypeOf(WS) === EventTarget, Object.getPrototypeOf(WS.prototype) === EventTarget.prototype, WS.prototype.constructor === WS, window.WebSocket === WS, Object.getOwnPropertyDescriptor(window, 'WebSocket').enumerable, Object.getOwnPropertyDescriptor(window, 'WebSocket').writable];
  r.callWithoutNew = attempt(() => WS(url));
  r.badScheme = attempt(() => new WS('ftp://example.invalid/'));
  r.badProtocol = attempt(() => new WS(url, ['a', 'a']));
  r.sendNoArgs = attempt(() => WS.prototype.send.call({}, 'x'));

  const ws = new WS(url, ['chat.v1', 'chat.v2']);
  r.instanceOf = [ws instanceof WS, ws instanceof EventTarget, ws.constructor === WS, Object.getPrototypeOf(ws) === WS.prototype, Object.prototype.toString.call(ws)];
  r.initial = [ws.readyState, ws.binaryType, ws.protocol, ws.extensions, typeof ws.bufferedAmount, ws.bufferedAmount, ws.url];
  r.sendWhileConnecting = attempt(() => ws.send('too early'));
  ws.binaryType = 'nonsense';
  r.binaryTypeInvalid = ws.binaryType;
  ws.binaryType = 'arraybuffer';
  r.binaryTypeSet = ws.binaryType;
  await once(ws, 'open');
  r.open = [ws.readyState, ws.protocol, ws.extensions, typeof ws.bufferedAmount];
  // onmessage and listeners run in registration order, with or without the hook.
  const order = [];
  ws.onmessage = (e) => order.push(['onmessage', typeof e.data === 'string' ? e.data : e.data.byteLength, e.isTrusted, e.origin === 'ws://' + location.host]);
  ws.addEventListener('message', (e) => order.push(['listener', typeof e.data === 'string' ? e.data : e.data.byteLength]));
  r.sendReturn = [ws.send('echo-1'), ws.send(new Uint8Array([1, 2, 3]))];
  r.afterSend = typeof ws.bufferedAmount;
  await new Promise((resolve) => { const t = setInterval(() => { if (order.length >= 4) { clearInterval(t); resolve(); } }, 5); });
  r.order = order;

  const ws2 = new WS(url);
  const order2 = [];
  ws2.addEventListener('message', () => order2.push('listener'));
  ws2.onmessage = () => order2.push('onmessage');
  ws2.addEventListener('message', () => order2.push('listener-2'));
  await once(ws2, 'open');
  r.defaults2 = [ws2.binaryType, ws2.protocol, ws2.extensions];
  ws2.send('echo-2');
  await once(ws2, 'message');
  await new Promise((r) => setTimeout(r, 20));
  r.order2 = order2;

  // Subclassing keeps working.
  class Sub extends WS { hello() { return 'sub'; } }
  const sub = new Sub(url, 'chat.v2');
  r.subclass = [sub instanceof Sub, sub instanceof WS, sub.hello(), Object.getPrototypeOf(Sub) === WS];
  await once(sub, 'open');
  r.subclassOpen = [sub.readyState, sub.protocol];
  sub.close();

  // A closing handshake as the page sees it.
  const closed = once(ws, 'close');
  ws.close(4001, 'bye');
  r.closing = [ws.readyState];
  const ev = await closed;
  r.close = [ev.code, ev.reason, ev.wasClean, ws.readyState, ev.isTrusted];
  r.sendAfterClose = [attempt(() => ws.send('late')), typeof ws.bufferedAmount];
  ws2.close();
  await new Promise((r) => setTimeout(r, 50)); // let the hook flush (25 ms)
  return { checks: r, hookBatchesSeen: window.__hookBatchesSeen };
};
</script>`,
  );
}

/** A socket.io client page; `cborB64` is the binary attachment it emits. */
export function socketIoPage(cborB64: string): string {
  return html(
    'wirescope socket.io test',
    `<script src="/socket.io/socket.io.js"></script>
<script>
'use strict';
const attachment = Uint8Array.from(atob('${cborB64}'), (c) => c.charCodeAt(0));
window.__sio = (async () => {
  const socket = io({ reconnection: false }); // defaults: long-polling first, then the upgrade to WebSocket
  await new Promise((resolve, reject) => { socket.on('connect', resolve); socket.on('connect_error', reject); });
  if (socket.io.engine.transport.name !== 'websocket') await new Promise((resolve) => socket.io.engine.once('upgrade', resolve));
  const [reply, bin] = await new Promise((resolve, reject) => {
    socket.timeout(10000).emit('echo', { text: 'ping ✓', n: 1 }, attachment, (err, reply, bin) => (err ? reject(err) : resolve([reply, bin])));
  });
  window.__socket = socket;
  return { transport: socket.io.engine.transport.name, reply, bin: Array.from(new Uint8Array(bin)) };
})();
</script>`,
  );
}
