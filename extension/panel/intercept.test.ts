/**
 * The panel's side of intercept rules: the app's rules go to the background as `panel-rules`
 * (and again on a new port: they ended with the old one), hold actions as `panel-hold`
 * answered like frame actions; the hook's `hold` events reach the app as `hold-state`, and
 * frames held or dropped by a rule keep their mark in the packed frames.
 */
import { expect, it } from 'vitest';
import type { HostMessage } from '../../inspector-app/src/protocol/messages.js';
import { KIND_DROPPED, KIND_HELD } from '../../inspector-app/src/protocol/packed-frames.js';
import type { PanelItem } from '../shared/messages.js';
import { framesOf } from '../shared/test/frames-of.js';
import { plainFrame, wireCapture } from '../shared/test/plain-capture.js';
import { PortTransport } from './port-transport.js';
import { fakePort, immediate } from './test/fake-port.js';

const rule = { id: 'r', direction: 'both', url: '', contains: 'x', action: 'pause', delayMs: 0 } as const;

it('rules go to the background as panel-rules, and again on a new port', () => {
  const ports = [fakePort(), fakePort()];
  let n = 0;
  const transport = new PortTransport({ connect: () => ports[n++]!, timers: immediate, pingMs: 0 });
  transport.listen(() => {});
  transport.send({ type: 'set-intercept-rules', rules: [rule] });
  expect(ports[0]!.posted.at(-1)).toEqual({ type: 'panel-rules', rules: [rule] });
  ports[0]!.drop();
  expect(ports[1]!.posted).toContainEqual({ type: 'panel-rules', rules: [rule] });
});

it('a hold action goes as panel-hold (an edit with its bytes in base64), its answer back as frame-action-result', () => {
  const port = fakePort();
  const transport = new PortTransport({ connect: () => port, timers: immediate, pingMs: 0 });
  const got: HostMessage[] = [];
  transport.listen((m) => got.push(m));
  transport.send({
    type: 'hold-action',
    requestId: 5,
    action: 'edit',
    connectionId: 'doc:1',
    direction: 'sent',
    seq: 2,
    opcode: 'binary',
    data: new Uint8Array([0xa1, 0x61, 0x61, 0x01]),
  });
  expect(port.posted.at(-1)).toEqual({
    type: 'panel-hold',
    requestId: 5,
    action: 'edit',
    connectionId: 'doc:1',
    direction: 'sent',
    seq: 2,
    binary: true,
    b64: 'oWFhAQ==',
  });
  transport.send({
    type: 'hold-action',
    requestId: 6,
    action: 'forward-all',
    connectionId: 'doc:1',
    direction: 'received',
    seq: 0,
  });
  expect(port.posted.at(-1)).toEqual({
    type: 'panel-hold',
    requestId: 6,
    action: 'forward-all',
    connectionId: 'doc:1',
    direction: 'received',
    seq: 0,
  });
  port.receive({ type: 'panel-action-result', requestId: 5, ok: true });
  expect(got.at(-1)).toEqual({ type: 'frame-action-result', requestId: 5, ok: true });
});

it("the hook's hold events reach the app as hold-state; held and dropped frames keep their mark", () => {
  const port = fakePort();
  const transport = new PortTransport({ connect: () => port, timers: immediate, pingMs: 0 });
  const got: HostMessage[] = [];
  transport.listen((m) => got.push(m));
  const hold = {
    type: 'hold' as const,
    socketId: 1,
    time: 4,
    direction: 'sent' as const,
    held: 1,
    heldBytes: 1,
    head: 1,
    forwarded: 0,
    dropped: 1,
    lost: 0,
  };
  const capture = wireCapture([
    plainFrame(1, [1], { direction: 'sent', held: true }),
    plainFrame(1, [2], { direction: 'sent', dropped: true }),
    plainFrame(1, [3], { direction: 'sent' }),
    hold,
  ]);
  const item: PanelItem = { type: 'events', documentId: 'doc', seq: 1, lostBatches: 0, ...capture };
  port.receive({ type: 'panel-batch', bufferId: 'b', cursor: 1, framesThrough: 3, items: [item] });
  const packed = got.find((m) => m.type === 'frames-packed');
  expect(packed && [...packed.packed.kinds].map((k) => k & (KIND_HELD | KIND_DROPPED))).toEqual([
    KIND_HELD,
    KIND_DROPPED,
    0,
  ]);
  const { type: _t, socketId: _s, ...state } = hold;
  expect(got).toContainEqual({ type: 'hold-state', connectionId: 'doc:1', ...state });
});

it('held and dropped marks survive a batch split by hold events (frames one by one)', () => {
  const port = fakePort();
  const transport = new PortTransport({ connect: () => port, timers: immediate, pingMs: 0 });
  const got: HostMessage[] = [];
  transport.listen((m) => got.push(m));
  const hold = (held: number) => ({
    type: 'hold' as const,
    socketId: 1,
    time: 4,
    direction: 'received' as const,
    held,
    heldBytes: held,
    head: held ? 1 : 0,
    forwarded: 0,
    dropped: 0,
    lost: 0,
  });
  const capture = wireCapture([
    plainFrame(1, [1], { direction: 'received', held: true }),
    hold(1),
    plainFrame(1, [2], { direction: 'received', dropped: true }),
    hold(1),
    plainFrame(1, [3], { direction: 'received' }),
  ]);
  const item: PanelItem = { type: 'events', documentId: 'doc', seq: 1, lostBatches: 0, ...capture };
  port.receive({ type: 'panel-batch', bufferId: 'b', cursor: 1, framesThrough: 3, items: [item] });
  expect(framesOf(got).map((f) => f.intercepted)).toEqual(['held', 'dropped', undefined]);
});
