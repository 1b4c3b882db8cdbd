/**
 * Who may act on a page: the panel's own tab only, with actions on in the options; the answer
 * comes back from the relay that was asked, or says why nothing happened.
 */
import { expect, test } from 'vitest';
import type { PanelAction } from '../shared/messages.js';
import { ActionRouter, parsePanelAction, splitConnectionId } from './frame-actions.js';

const port = () => {
  const posted: unknown[] = [];
  return { posted, postMessage: (m: unknown) => void posted.push(m) };
};

function router(allowed = true) {
  const timers: (() => void)[] = [];
  const r = new ActionRouter({
    allowed: () => allowed,
    setTimeout: (fn) => timers.push(fn),
    clearTimeout: () => {},
  });
  return {
    r,
    fireTimers: () => {
      for (const fn of timers.splice(0)) fn();
    },
  };
}

const action = (over: Partial<PanelAction> = {}): PanelAction => ({
  type: 'panel-action',
  requestId: 3,
  action: 'send',
  connectionId: 'doc-a:2',
  binary: true,
  b64: 'oWFhAQ==',
  ...over,
});

test("an action for a socket of the panel's tab goes to that document's relay, and its answer back to the panel", () => {
  const { r } = router();
  const relay = port();
  const panel = port();
  r.documentSeen('doc-a', 7, relay);
  r.request(panel, 7, action());
  expect(relay.posted).toEqual([
    { type: 'relay-action', requestId: 1, action: 'send', socketId: 2, binary: true, b64: 'oWFhAQ==' },
  ]);
  r.answered(port(), 1, true); // another relay cannot answer for it
  expect(panel.posted).toEqual([]);
  r.answered(relay, 1, false, 'the socket is closed');
  expect(panel.posted).toEqual([
    { type: 'panel-action-result', requestId: 3, ok: false, error: 'the socket is closed' },
  ]);
});

test("a panel cannot reach another tab's sockets, nor any when actions are off", () => {
  const { r } = router();
  const relay = port();
  const panel = port();
  r.documentSeen('doc-a', 7, relay);
  r.request(panel, 8, action());
  expect(relay.posted).toEqual([]);
  expect(panel.posted).toEqual([
    { type: 'panel-action-result', requestId: 3, ok: false, error: 'the socket is not in the inspected tab' },
  ]);
  const off = router(false);
  off.r.documentSeen('doc-a', 7, relay);
  off.r.request(panel, 7, action());
  expect(relay.posted).toEqual([]);
  expect(panel.posted.at(-1)).toMatchObject({ ok: false, error: 'actions are turned off in the options' });
});

test('an unknown document, a relay that left, or no answer: the panel is told, once', () => {
  const { r, fireTimers } = router();
  const relay = port();
  const panel = port();
  r.request(panel, 7, action({ requestId: 1 }));
  r.documentSeen('doc-a', 7, relay);
  r.request(panel, 7, action({ requestId: 2 }));
  r.relayGone(relay);
  r.documentSeen('doc-a', 7, relay);
  r.request(panel, 7, action({ requestId: 3 }));
  fireTimers();
  fireTimers();
  expect(panel.posted.map((m) => [(m as { requestId: number }).requestId, (m as { error: string }).error])).toEqual([
    [1, 'the socket is out of reach: its page was left, or sent nothing since the extension started'],
    [2, 'the page was left or reloaded'],
    [3, 'no answer from the page'],
  ]);
});

test('panel actions and connection ids are checked by shape', () => {
  expect(parsePanelAction(action())).toEqual(action());
  for (const bad of [
    { ...action(), action: 'close' },
    { ...action(), b64: '%%%%' },
    { ...action(), connectionId: 5 },
    { ...action(), binary: null },
  ])
    expect(parsePanelAction(bad)).toBeNull();
  expect(splitConnectionId('9f1e-22:12')).toEqual({ documentId: '9f1e-22', socketId: 12 });
  expect(splitConnectionId('nocolon')).toBeNull();
  expect(splitConnectionId('doc:0')).toBeNull();
  expect(splitConnectionId(':3')).toBeNull();
});
