// @vitest-environment jsdom
/**
 * Intercept rules through the relay: `relay-rules` and `relay-hold` on the runtime port reach
 * the hook on the private channel; the hold action's answer comes back on the runtime port;
 * the runtime port going away (extension reloaded) forwards every held frame in order.
 */
import { afterEach, expect, test, vi } from 'vitest';
import { installHook } from '../../hook/install.js';
import { makeFakeWebSocket, type FakeWebSocketClass } from '../../hook/test/fake-websocket.js';
import type { HookHandle } from '../../hook/types.js';
import type { RelayHoldAction, RelayRules } from '../../shared/messages.js';
import { parseRelayHold, parseRelayRules } from '../intercept.js';
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
  const gone: (() => void)[] = [];
  return {
    posted,
    fromBackground: (m: unknown) => {
      for (const l of listeners) l(JSON.parse(JSON.stringify(m)));
    },
    disconnect: () => {
      for (const g of gone) g();
    },
    connect(): RelayPort {
      return {
        postMessage: (m: unknown) => void posted.push(JSON.parse(JSON.stringify(m))),
        onMessage: { addListener: (l: (m: unknown) => void) => void listeners.push(l) },
        onDisconnect: { addListener: (l: () => void) => void gone.push(l) },
      };
    },
  };
}

const pauseAll: RelayRules = {
  type: 'relay-rules',
  rules: [{ id: 'r', direction: 'both', url: '', contains: '', action: 'pause', delayMs: 0 }],
};

async function start() {
  const Native = makeFakeWebSocket(win);
  savedWS = Object.getOwnPropertyDescriptor(win, 'WebSocket');
  Object.defineProperty(win, 'WebSocket', { value: Native, writable: true, configurable: true, enumerable: false });
  const rt = runtime();
  relay = startRelay({ win, runtime: rt, bytesAs: 'base64', documentId: 'doc', channelSecret: 'k' });
  hook = installHook(win, { trustedEventsOnly: false, flushIntervalMs: 5, channelSecret: 'k' });
  const ws = new (win.WebSocket as unknown as FakeWebSocketClass)('ws://example.test/s');
  ws.open();
  const got: unknown[] = [];
  ws.addEventListener('message', (e) => got.push((e as MessageEvent).data));
  hook.flush(); // the first batch opens the relay's runtime port
  await vi.waitFor(() => expect(rt.posted.length).toBeGreaterThan(0));
  return { rt, ws, got };
}

/** Sends the rules and waits until the hook has them (the answer to an action posted after them). */
async function applyRules(rt: ReturnType<typeof runtime>, rules: RelayRules): Promise<void> {
  rt.fromBackground(rules);
  const probe: RelayHoldAction = {
    type: 'relay-hold',
    requestId: 1000,
    action: 'forward-all',
    socketId: 1,
    direction: 'sent',
    seq: 0,
  };
  rt.fromBackground(probe);
  await vi.waitFor(() =>
    expect(rt.posted).toContainEqual({
      type: 'relay-action-result',
      requestId: 1000,
      ok: false,
      error: 'nothing is held',
    }),
  );
}

test('rules and an Edit and forward go runtime port → relay → hook; the answer comes back', async () => {
  const { rt, ws } = await start();
  await applyRules(rt, pauseAll);
  ws.send('first');
  expect(ws.sent).toEqual([]);
  const edit: RelayHoldAction = {
    type: 'relay-hold',
    requestId: 9,
    action: 'edit',
    socketId: 1,
    direction: 'sent',
    seq: 1,
    binary: false,
    b64: btoa('edited'),
  };
  rt.fromBackground(edit);
  await vi.waitFor(() => expect(rt.posted).toContainEqual({ type: 'relay-action-result', requestId: 9, ok: true }));
  expect(ws.sent[0]).toBe('edited');
});

test('the runtime port going away (extension reloaded) forwards every held frame in order', async () => {
  const { rt, ws, got } = await start();
  await applyRules(rt, pauseAll);
  ws.send('a');
  expect(ws.sent).toEqual([]);
  ws.send('b');
  ws.deliver('c');
  ws.deliver('d');
  expect(got).toEqual([]);
  rt.disconnect();
  await vi.waitFor(() => expect(ws.sent).toEqual(['a', 'b']));
  expect(got).toEqual(['c', 'd']);
});

test('rules and hold actions are checked by shape', () => {
  expect(parseRelayRules(pauseAll)).toEqual(pauseAll);
  const hold: RelayHoldAction = {
    type: 'relay-hold',
    requestId: 1,
    action: 'forward',
    socketId: 2,
    direction: 'received',
    seq: 3,
  };
  expect(parseRelayHold(hold)).toEqual(hold);
  for (const bad of [
    { ...pauseAll, rules: [{ ...pauseAll.rules[0], action: 'explode' }] },
    { ...pauseAll, rules: [{ ...pauseAll.rules[0], delayMs: -1 }] },
    { ...pauseAll, rules: [{ ...pauseAll.rules[0], socketIds: [0] }] },
    { ...pauseAll, rules: {} },
  ])
    expect(parseRelayRules(bad)).toBeNull();
  for (const bad of [
    { ...hold, direction: 'both' },
    { ...hold, socketId: 0 },
    { ...hold, action: 'edit' },
    { ...hold, action: 'edit', binary: true, b64: 'no!' },
  ])
    expect(parseRelayHold(bad)).toBeNull();
});
