/**
 * The background's part in intercept rules. A panel port of a tab (from one of the extension's
 * own pages, checked by the caller as for actions, with actions on in the options) sets the
 * tab's rules (`panel-rules`); every document of that tab gets them (`relay-rules`), each rule
 * restricted to connections given as socket ids of that document, and so does a document seen
 * later (a new page, a frame, a relay reconnected after the service worker restarted). Rules
 * act only while the panel that set them is open: when its port goes, every document of the
 * tab gets empty rules, which forwards every held frame in order. Hold actions (`panel-hold`)
 * go through the ActionRouter's checks and answers, like the panel's other actions. Pure:
 * ports come in.
 */
import { editFields, holdFields, MAX_RULES, parsePanelRule } from '../shared/intercept-rules.js';
import type { InterceptRule, PanelHoldAction, PanelRule, PanelRules, RelayRules } from '../shared/messages.js';
import { type ActionPort, type ActionRouter, splitConnectionId } from './frame-actions.js';

export function parsePanelRules(m: unknown): PanelRules | null {
  if (typeof m !== 'object' || m === null) return null;
  const o = m as Record<string, unknown>;
  if (o.type !== 'panel-rules' || !Array.isArray(o.rules) || o.rules.length > MAX_RULES) return null;
  const rules: PanelRule[] = [];
  for (const r of o.rules as unknown[]) {
    const rule = parsePanelRule(r);
    if (rule === null) return null;
    rules.push(rule);
  }
  return { type: 'panel-rules', rules };
}

export function parsePanelHold(m: unknown): PanelHoldAction | null {
  const f = holdFields(m, 'panel-hold');
  const connectionId = f?.o.connectionId;
  if (f === null || typeof connectionId !== 'string' || connectionId.length > 200) return null;
  const { requestId, action, direction, seq } = f;
  const base = { type: 'panel-hold', requestId, action, connectionId, direction, seq } as const;
  if (action !== 'edit') return base;
  const edit = editFields(f.o);
  return edit === null ? null : { ...base, ...edit };
}

/** The tab's rules as one document applies them: connection restrictions become its socket ids. */
export function rulesFor(documentId: string, rules: readonly PanelRule[]): InterceptRule[] {
  const out: InterceptRule[] = [];
  for (const { connectionIds, ...rule } of rules) {
    if (connectionIds === undefined) {
      out.push(rule);
      continue;
    }
    const socketIds: number[] = [];
    for (const id of connectionIds) {
      const c = splitConnectionId(id);
      if (c && c.documentId === documentId) socketIds.push(c.socketId);
    }
    if (socketIds.length > 0) out.push({ ...rule, socketIds });
  }
  return out;
}

export class InterceptRouter {
  /** Rules per tab, and the panel port that set them (they end with it). */
  private readonly tabs = new Map<number, { panel: ActionPort; rules: readonly PanelRule[] }>();

  constructor(
    private readonly actions: ActionRouter,
    private readonly allowed: () => boolean,
  ) {}

  /** A panel of `tabId` set the tab's rules ([] clears them: held frames are forwarded). */
  setRules(panel: ActionPort, tabId: number, rules: readonly PanelRule[]): void {
    if (rules.length > 0 && !this.allowed()) return;
    if (rules.length === 0) this.tabs.delete(tabId);
    else this.tabs.set(tabId, { panel, rules });
    for (const d of this.actions.documentsOf(tabId)) send(d.port, rulesFor(d.documentId, rules));
  }

  /** A relay batch of a new document (or on a new port): it gets the tab's rules. */
  documentSeen(documentId: string, tabId: number, port: ActionPort): void {
    const t = this.tabs.get(tabId);
    if (t) send(port, rulesFor(documentId, t.rules));
  }

  /** A hold action from a panel of `tabId` (checked and answered like the panel's actions). */
  hold(panel: ActionPort, tabId: number, a: PanelHoldAction): void {
    this.actions.route(panel, tabId, a.requestId, a.connectionId, (requestId, socketId) => ({
      type: 'relay-hold',
      requestId,
      action: a.action,
      socketId,
      direction: a.direction,
      seq: a.seq,
      ...(a.action === 'edit' ? { binary: a.binary ?? false, b64: a.b64 ?? '' } : {}),
    }));
  }

  /** A panel port closed: when it set its tab's rules, they end, and every held frame is forwarded. */
  panelGone(panel: ActionPort, tabId: number): void {
    if (this.tabs.get(tabId)?.panel === panel) this.setRules(panel, tabId, []);
  }

  removeTab(tabId: number): void {
    this.tabs.delete(tabId);
  }
}

function send(port: ActionPort, rules: InterceptRule[]): void {
  const message: RelayRules = { type: 'relay-rules', rules };
  try {
    port.postMessage(message);
  } catch {
    /* the relay is gone: its hook releases on its own (the relay's port closed) */
  }
}
