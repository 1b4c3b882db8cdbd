// @vitest-environment jsdom
/**
 * The extension's actions on the private channel: Send again (the native send captured at
 * install, whatever the page did to `send` since), Deliver to page (a MessageEvent whose data
 * follows binaryType), both recorded once and flagged as wirescope's; a closed socket says so.
 */
import { afterEach, expect, test } from 'vitest';
import type { HookAction, HookActionResult } from '../../shared/messages.js';
import { setup, type Harness } from './harness.js';

let h: Harness | null = null;
afterEach(() => {
  h?.cleanup();
  h = null;
});

/** jsdom's Blob has no arrayBuffer(): read it as a page would have before it. */
const readBlob = (blob: Blob): Promise<ArrayBuffer> =>
  new Promise((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.readAsArrayBuffer(blob);
  });

const action = (over: Partial<HookAction> & Pick<HookAction, 'action'>): HookAction => ({
  type: 'hook-action',
  requestId: 1,
  socketId: 1,
  binary: true,
  bytes: new Uint8Array([0xa1, 0x61, 0x61, 0x01]).buffer,
  ...over,
});

test('Send again puts the bytes on the socket through the native send, even after the page replaced send, and records them once as wirescope’s', () => {
  h = setup();
  const ws = new h.WS('ws://example.test/');
  ws.open();
  const seenByPage: unknown[] = [];
  const hookedSend = h.WS.prototype.send;
  h.WS.prototype.send = function (this: WebSocket, data: unknown) {
    seenByPage.push(data);
    return hookedSend.call(this, data as string);
  } as WebSocket['send'];
  try {
    h.toHook(action({ action: 'send' }));
    h.toHook(action({ action: 'send', requestId: 2, binary: false, bytes: new TextEncoder().encode('hé').buffer }));
  } finally {
    h.WS.prototype.send = hookedSend;
  }
  expect(seenByPage).toEqual([]);
  expect(ws.sent.map((d) => (typeof d === 'string' ? d : [...(d as Uint8Array)]))).toEqual([
    [0xa1, 0x61, 0x61, 0x01],
    'hé',
  ]);
  expect(h.replies).toEqual([
    { type: 'hook-action-result', requestId: 1, ok: true },
    { type: 'hook-action-result', requestId: 2, ok: true },
  ]);
  const frames = h.frames();
  expect(frames.map((f) => [f.direction, f.opcode, f.wirescope, [...new Uint8Array(f.data)]])).toEqual([
    ['sent', 'binary', true, [0xa1, 0x61, 0x61, 0x01]],
    ['sent', 'text', true, [0x68, 0xc3, 0xa9]],
  ]);
});

test("Deliver to page gives the page's onmessage and listeners the data as binaryType asks, recorded once as a received wirescope frame", async () => {
  h = setup();
  const ws = new h.WS('ws://example.test/');
  ws.open();
  const got: unknown[] = [];
  ws.onmessage = (e) => got.push(e.data);
  ws.addEventListener('message', (e) => got.push(e.origin));
  h.toHook(action({ action: 'deliver' })); // binaryType 'blob' (the default)
  ws.binaryType = 'arraybuffer';
  h.toHook(action({ action: 'deliver', requestId: 2 }));
  h.toHook(action({ action: 'deliver', requestId: 3, binary: false, bytes: new TextEncoder().encode('hi').buffer }));
  expect(got).toHaveLength(6);
  expect(got[0]).toBeInstanceOf(Blob);
  expect([...new Uint8Array(await readBlob(got[0] as Blob))]).toEqual([0xa1, 0x61, 0x61, 0x01]);
  expect(got[1]).toBe('ws://example.test');
  expect(Object.prototype.toString.call(got[2])).toBe('[object ArrayBuffer]');
  expect([...new Uint8Array(got[2] as ArrayBuffer)]).toEqual([0xa1, 0x61, 0x61, 0x01]);
  expect(got[4]).toBe('hi');
  expect(h.replies.map((r) => (r as HookActionResult).ok)).toEqual([true, true, true]);
  expect(h.frames().map((f) => [f.direction, f.opcode, f.wirescope])).toEqual([
    ['received', 'binary', true],
    ['received', 'binary', true],
    ['received', 'text', true],
  ]);
});

test('a closed socket, an unknown one and a socket still connecting say so and nothing is sent or delivered', () => {
  h = setup();
  const connecting = new h.WS('ws://example.test/a');
  const closed = new h.WS('ws://example.test/b');
  closed.open();
  let delivered = 0;
  closed.onmessage = () => delivered++;
  closed.serverClose();
  h.toHook(action({ action: 'send', socketId: 1 }));
  h.toHook(action({ action: 'deliver', requestId: 2, socketId: 2 }));
  h.toHook(action({ action: 'send', requestId: 3, socketId: 99 }));
  expect(h.replies).toEqual([
    { type: 'hook-action-result', requestId: 1, ok: false, error: 'the socket is not open yet' },
    { type: 'hook-action-result', requestId: 2, ok: false, error: 'the socket is closed (or its page was left)' },
    { type: 'hook-action-result', requestId: 3, ok: false, error: 'the socket is closed (or its page was left)' },
  ]);
  expect(connecting.sent).toEqual([]);
  expect(closed.sent).toEqual([]);
  expect(delivered).toBe(0);
  expect(h.frames()).toEqual([]);
});

test('malformed actions are ignored: no answer, nothing sent', () => {
  h = setup();
  const ws = new h.WS('ws://example.test/');
  ws.open();
  for (const bad of [
    null,
    'send',
    { ...action({ action: 'send' }), type: 'other' },
    { ...action({ action: 'send' }), action: 'close' },
    { ...action({ action: 'send' }), socketId: '1' },
    { ...action({ action: 'send' }), bytes: [1, 2] },
    { ...action({ action: 'send' }), binary: 1 },
  ])
    h.toHook(bad);
  expect(h.replies).toEqual([]);
  expect(ws.sent).toEqual([]);
});

test('a page dispatching a forged action on its window reaches nothing (actions come only on the private channel)', () => {
  h = setup({ channelSecret: 's' });
  const ws = new h.WS('ws://example.test/');
  ws.open();
  for (const name of ['message', 'wirescope/capture/v1:offer:s', 'wirescope/capture/v1:ready:s'])
    window.dispatchEvent(new MessageEvent(name, { data: action({ action: 'send' }) }));
  window.postMessage(action({ action: 'send' }), '*');
  expect(ws.sent).toEqual([]);
  expect(h.replies).toEqual([]);
});

test('the hook adds nothing to window', () => {
  const before = new Set(Reflect.ownKeys(window));
  h = setup();
  const added = Reflect.ownKeys(window).filter((k) => !before.has(k));
  // The harness itself defines the fake MessageChannel / MessagePort; the hook adds none.
  expect(added.filter((k) => k !== 'MessageChannel' && k !== 'MessagePort')).toEqual([]);
});
