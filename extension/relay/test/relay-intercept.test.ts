// @vitest-environment jsdom
/**
 * Intercept rules through the relay: `relay-rules` and `relay-hold` on the runtime port reach
 * the hook on the private channel; the hold action's answer comes back on the runtime port;
 * the runtime port going away (extension reloaded) forwards every held frame in order.
 */
import { afterEach, expect, test, vi } from 'vitest';
import type { RelayHoldAction, RelayRules } from '../../shared/messages.js';
import { parseRelayHold, parseRelayRules } from '../intercept.js';
import { startRelayRig, type FakeRuntime, type RelayRig } from './relay-rig.js';

const win = window as Window & typeof globalThis;
let rig: RelayRig | null = null;
afterEach(() => {
  rig?.stop();
  rig = null;
});

const pauseAll: RelayRules = {
  type: 'relay-rules',
  rules: [{ id: 'r', direction: 'both', url: '', contains: '', action: 'pause', delayMs: 0 }],
};

async function start(): Promise<RelayRig> {
  rig = await startRelayRig(win);
  return rig;
}

/** Sends the rules and waits until the hook has them (the answer to an action posted after them). */
async function applyRules(rt: FakeRuntime, rules: RelayRules): Promise<void> {
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
