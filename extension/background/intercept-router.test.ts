/**
 * Intercept rules in the background: a tab's rules reach every document of that tab (and a
 * document seen later), restricted to the connections named, never another tab's; they end
 * with the panel that set them (empty rules: held frames forwarded); hold actions are routed
 * like the panel's other actions.
 */
import { expect, test } from 'vitest';
import type { PanelRule } from '../shared/messages.js';
import { ActionRouter } from './frame-actions.js';
import { InterceptRouter, parsePanelHold, parsePanelRules, rulesFor } from './intercept-router.js';

const port = () => {
  const posted: unknown[] = [];
  return { posted, postMessage: (m: unknown) => void posted.push(m) };
};

const rule = (over: Partial<PanelRule> = {}): PanelRule => ({
  id: 'r',
  direction: 'both',
  url: '',
  contains: '',
  action: 'pause',
  delayMs: 0,
  ...over,
});

function setup(allowed = true) {
  const actions = new ActionRouter({ allowed: () => allowed, setTimeout: () => 0, clearTimeout: () => {} });
  return { actions, intercepts: new InterceptRouter(actions, () => allowed) };
}

test("a tab's rules reach every document of that tab and a document seen later, never another tab's", () => {
  const { actions, intercepts } = setup();
  const a = port();
  const b = port();
  const other = port();
  actions.documentSeen('doc-a', 7, a);
  actions.documentSeen('doc-b', 7, b);
  actions.documentSeen('doc-x', 8, other);
  const panel = port();
  intercepts.setRules(panel, 7, [rule(), rule({ id: 'only-b', connectionIds: ['doc-b:3', 'doc-x:1'] })]);
  expect(a.posted).toEqual([{ type: 'relay-rules', rules: [rule()] }]);
  expect(b.posted).toEqual([{ type: 'relay-rules', rules: [rule(), { ...rule({ id: 'only-b' }), socketIds: [3] }] }]);
  expect(other.posted).toEqual([]);
  const late = port();
  if (actions.documentSeen('doc-c', 7, late)) intercepts.documentSeen('doc-c', 7, late);
  expect(late.posted).toEqual([{ type: 'relay-rules', rules: [rule()] }]);
});

test('rules end with the panel that set them: every document gets empty rules (held frames forwarded)', () => {
  const { actions, intercepts } = setup();
  const a = port();
  actions.documentSeen('doc-a', 7, a);
  const panel = port();
  const otherPanel = port();
  intercepts.setRules(panel, 7, [rule()]);
  intercepts.panelGone(otherPanel, 7); // another panel of the tab closing changes nothing
  expect(a.posted).toHaveLength(1);
  intercepts.panelGone(panel, 7);
  expect(a.posted.at(-1)).toEqual({ type: 'relay-rules', rules: [] });
  const late = port();
  if (actions.documentSeen('doc-c', 7, late)) intercepts.documentSeen('doc-c', 7, late);
  expect(late.posted).toEqual([]);
});

test('with actions off in the options, rules are refused', () => {
  const { actions, intercepts } = setup(false);
  const a = port();
  actions.documentSeen('doc-a', 7, a);
  intercepts.setRules(port(), 7, [rule()]);
  expect(a.posted).toEqual([]);
});

test("hold actions go to the socket's relay in the panel's tab only, and the answer back", () => {
  const { actions, intercepts } = setup();
  const a = port();
  actions.documentSeen('doc-a', 7, a);
  const panel = port();
  const hold = parsePanelHold({
    type: 'panel-hold',
    requestId: 4,
    action: 'edit',
    connectionId: 'doc-a:2',
    direction: 'sent',
    seq: 1,
    binary: false,
    b64: 'aGk=',
  })!;
  intercepts.hold(panel, 8, hold);
  expect(panel.posted).toEqual([
    { type: 'panel-action-result', requestId: 4, ok: false, error: 'the socket is not in the inspected tab' },
  ]);
  intercepts.hold(panel, 7, hold);
  expect(a.posted).toEqual([
    {
      type: 'relay-hold',
      requestId: 1,
      action: 'edit',
      socketId: 2,
      direction: 'sent',
      seq: 1,
      binary: false,
      b64: 'aGk=',
    },
  ]);
  actions.answered(a, 1, true);
  expect(panel.posted.at(-1)).toEqual({ type: 'panel-action-result', requestId: 4, ok: true });
});

test('panel messages are checked by shape', () => {
  expect(parsePanelRules({ type: 'panel-rules', rules: [rule()] })).toEqual({ type: 'panel-rules', rules: [rule()] });
  for (const bad of [
    { type: 'panel-rules', rules: [{ ...rule(), direction: 'up' }] },
    { type: 'panel-rules', rules: [{ ...rule(), connectionIds: [1] }] },
    { type: 'panel-rules', rules: null },
  ])
    expect(parsePanelRules(bad)).toBeNull();
  const ok = {
    type: 'panel-hold',
    requestId: 1,
    action: 'forward',
    connectionId: 'd:1',
    direction: 'received',
    seq: 2,
  };
  expect(parsePanelHold(ok)).toEqual(ok);
  for (const bad of [
    { ...ok, action: 'edit' },
    { ...ok, direction: 'both' },
    { ...ok, seq: -1 },
  ])
    expect(parsePanelHold(bad)).toBeNull();
  expect(rulesFor('d', [rule({ connectionIds: ['e:1'] })])).toEqual([]);
});
