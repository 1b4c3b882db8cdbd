// @vitest-environment jsdom
/**
 * The extension's actions through the relay: a `relay-action` on the runtime port reaches the
 * hook on the private channel, the socket sends, and the answer comes back on the runtime port;
 * the frame is captured flagged as wirescope's. Malformed actions are refused by shape.
 */
import { afterEach, expect, test, vi } from 'vitest';
import { makeFakeWebSocket, type FakeWebSocketClass } from '../../hook/test/fake-websocket.js';
import { installHook } from '../../hook/install.js';
import type { HookHandle } from '../../hook/types.js';
import type { RelayAction, RelayBatch } from '../../shared/messages.js';
import { unpackWire, type PlainFrame } from '../../shared/test/plain-capture.js';
import { parseRelayAction } from '../actions.js';
import { startRelay, type RelayHandle, type RelayPort } from '../relay.js';

const win = window as Window & typeof globalThis;
let hook: HookHandle | null = null;
let relay: RelayHandle | null = null;
let savedWS: PropertyDescriptor | undefined;
afterEach(() => {
  hook?.uninstall();
  relay?.stop();
  hook = relay = null;
  if (savedWS) Object.defineProperty(win, 'WebSocket', savedWS);
});

function runtime() {
  const posted: unknown[] = [];
  const listeners: ((m: unknown) => void)[] = [];
  return {
    posted,
    fromBackground: (m: unknown) => {
      for (const l of listeners) l(JSON.parse(JSON.stringify(m)));
    },
    connect(): RelayPort {
      return {
        postMessage: (m: unknown) => void posted.push(JSON.parse(JSON.stringify(m))),
        onMessage: { addListener: (l: (m: unknown) => void) => void listeners.push(l) },
        onDisconnect: { addListener() {} },
      };
    },
  };
}

const action = (over: Partial<RelayAction> = {}): RelayAction => ({
  type: 'relay-action',
  requestId: 7,
  action: 'send',
  socketId: 1,
  binary: true,
  b64: btoa(String.fromCharCode(0xa1, 0x61, 0x61, 0x02)),
  ...over,
});

test('Send again: runtime port → relay → hook → socket, the answer back, the frame captured as wirescope’s', async () => {
  const Native = makeFakeWebSocket(win);
  savedWS = Object.getOwnPropertyDescriptor(win, 'WebSocket');
  Object.defineProperty(win, 'WebSocket', { value: Native, writable: true, configurable: true, enumerable: false });
  const rt = runtime();
  relay = startRelay({ win, runtime: rt, bytesAs: 'base64', documentId: 'doc', channelSecret: 'k' });
  hook = installHook(win, { trustedEventsOnly: false, flushIntervalMs: 5, channelSecret: 'k' });
  const ws = new (win.WebSocket as unknown as FakeWebSocketClass)('ws://example.test/s');
  ws.open();
  hook.flush(); // the first batch opens the relay's runtime port
  await vi.waitFor(() => expect(rt.posted.length).toBeGreaterThan(0));
  rt.fromBackground(action());
  await vi.waitFor(() => expect(rt.posted).toContainEqual({ type: 'relay-action-result', requestId: 7, ok: true }));
  expect(ws.sent.map((d) => [...(d as Uint8Array)])).toEqual([[0xa1, 0x61, 0x61, 0x02]]);
  hook.flush();
  await vi.waitFor(() => {
    const frames = (rt.posted.filter((m) => (m as RelayBatch).type === 'relay-batch') as RelayBatch[])
      .flatMap(unpackWire)
      .filter((e): e is PlainFrame => e.type === 'frame');
    expect(frames.map((f) => [f.direction, f.wirescope, [...new Uint8Array(f.data)]])).toEqual([
      ['sent', true, [0xa1, 0x61, 0x61, 0x02]],
    ]);
  });
});

test('actions are checked by shape', () => {
  expect(parseRelayAction(action())).toEqual(action());
  for (const bad of [
    null,
    { ...action(), type: 'hook-action' },
    { ...action(), action: 'close' },
    { ...action(), socketId: 0 },
    { ...action(), socketId: 1.5 },
    { ...action(), binary: 'yes' },
    { ...action(), b64: 'not base64!' },
    { ...action(), b64: 'abc' },
    { ...action(), requestId: '7' },
  ])
    expect(parseRelayAction(bad)).toBeNull();
});
