// @vitest-environment jsdom
/**
 * The extension's actions through the relay: a `relay-action` on the runtime port reaches the
 * hook on the private channel, the socket sends, and the answer comes back on the runtime port;
 * the frame is captured flagged as wirescope's. Malformed actions are refused by shape.
 */
import { afterEach, expect, test, vi } from 'vitest';
import type { RelayAction, RelayBatch } from '../../shared/messages.js';
import { unpackWire, type PlainFrame } from '../../shared/test/plain-capture.js';
import { parseRelayAction } from '../actions.js';
import { startRelayRig, type RelayRig } from './relay-rig.js';

const win = window as Window & typeof globalThis;
let rig: RelayRig | null = null;
afterEach(() => {
  rig?.stop();
  rig = null;
});

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
  rig = await startRelayRig(win);
  const { rt, ws, hook } = rig;
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
