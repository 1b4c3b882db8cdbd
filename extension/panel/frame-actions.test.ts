/**
 * The panel's side of the actions on the page: a `frame-action` goes to the background as a
 * `panel-action` (bytes in base64), its answer comes back as `frame-action-result`; without
 * a port the app is told at once. Frames flagged as wirescope's keep the mark on their way in,
 * packed or one by one.
 */
import { expect, it } from 'vitest';
import type { HostMessage } from '../../inspector-app/src/protocol/messages.js';
import type { PanelItem } from '../shared/messages.js';
import { framesOf } from '../shared/test/frames-of.js';
import { plainFrame, wireCapture } from '../shared/test/plain-capture.js';
import { PortTransport } from './port-transport.js';
import { fakePort, immediate } from './test/fake-port.js';

it('a frame action goes to the background as a panel-action, and its answer comes back to the app', () => {
  const port = fakePort();
  const transport = new PortTransport({ connect: () => port, timers: immediate, pingMs: 0 });
  const got: HostMessage[] = [];
  transport.listen((m) => got.push(m));
  transport.send({
    type: 'frame-action',
    requestId: 4,
    action: 'deliver',
    connectionId: 'doc:2',
    opcode: 'binary',
    data: new Uint8Array([0xa1, 0x61, 0x61, 0x01]),
  });
  expect(port.posted.at(-1)).toEqual({
    type: 'panel-action',
    requestId: 4,
    action: 'deliver',
    connectionId: 'doc:2',
    binary: true,
    b64: 'oWFhAQ==',
  });
  port.receive({ type: 'panel-action-result', requestId: 4, ok: false, error: 'the socket is closed' });
  expect(got.at(-1)).toEqual({ type: 'frame-action-result', requestId: 4, ok: false, error: 'the socket is closed' });
});

it('without a port to the background the app hears at once that the action was not done', () => {
  const transport = new PortTransport({
    connect: () => {
      throw new Error('Extension context invalidated.');
    },
    timers: immediate,
    pingMs: 0,
  });
  const got: HostMessage[] = [];
  transport.listen((m) => got.push(m));
  transport.send({
    type: 'frame-action',
    requestId: 1,
    action: 'send',
    connectionId: 'd:1',
    opcode: 'text',
    data: new Uint8Array([104]),
  });
  expect(got.at(-1)).toEqual({
    type: 'frame-action-result',
    requestId: 1,
    ok: false,
    error: 'the extension cannot be reached; reopen DevTools',
  });
});

for (const split of [false, true]) {
  it(`frames flagged as wirescope's keep the mark (${split ? 'split by a socket event' : 'packed'})`, () => {
    const port = fakePort();
    const transport = new PortTransport({ connect: () => port, timers: immediate, pingMs: 0 });
    const got: HostMessage[] = [];
    transport.listen((m) => got.push(m));
    const capture = wireCapture([
      plainFrame(1, [1], { direction: 'sent' }),
      ...(split ? [{ type: 'error' as const, socketId: 1, time: 3 }] : []),
      plainFrame(1, [2], { direction: 'sent', wirescope: true }),
      plainFrame(1, [3], { direction: 'received', wirescope: true }),
    ]);
    const item: PanelItem = { type: 'events', documentId: 'doc', seq: 1, lostBatches: 0, ...capture };
    port.receive({ type: 'panel-batch', bufferId: 'b', cursor: 1, framesThrough: 3, items: [item] });
    expect(framesOf(got).map((f) => [f.direction, f.origin])).toEqual([
      ['sent', undefined],
      ['sent', 'wirescope'],
      ['received', 'wirescope'],
    ]);
  });
}
