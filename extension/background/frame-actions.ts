/**
 * The background's part in the panel's actions on the page (Send again, Deliver to page):
 * a `panel-action` from a panel port goes to the relay of the document that owns the socket,
 * and the relay's answer back to that panel. Only here is it decided who may act:
 * - the request came on a panel port from one of the extension's own pages (`fromExtension`,
 *   checked by the caller for every panel port; a content script or a web page cannot open one);
 * - the socket's document belongs to the panel's own tab (the port's name), never another tab;
 * - the options did not turn actions off.
 * A document is known from the relay batches it sent (its relay port); a relay gone, or no
 * answer within `timeoutMs`, answers the panel with why. Pure: ports and timers come in.
 */
import type { PanelAction, PanelActionResult, RelayAction, RelayHoldAction } from '../shared/messages.js';

/** The part of a runtime port used here. */
export interface ActionPort {
  postMessage(message: unknown): void;
}

interface Pending {
  readonly panel: ActionPort;
  readonly panelRequestId: number;
  readonly relay: ActionPort;
  readonly timer: unknown;
}

export interface ActionRouterEnv {
  readonly allowed: () => boolean;
  readonly setTimeout: (fn: () => void, ms: number) => unknown;
  readonly clearTimeout: (handle: unknown) => void;
  readonly timeoutMs?: number;
}

/** `${documentId}:${socketId}` → its parts, or null. */
export function splitConnectionId(id: string): { documentId: string; socketId: number } | null {
  const colon = id.lastIndexOf(':');
  if (colon <= 0) return null;
  const socketId = Number(id.slice(colon + 1));
  if (!Number.isSafeInteger(socketId) || socketId < 1) return null;
  return { documentId: id.slice(0, colon), socketId };
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A panel's message as a PanelAction, or null (checked field by field). */
export function parsePanelAction(m: unknown): PanelAction | null {
  if (typeof m !== 'object' || m === null) return null;
  const o = m as Record<string, unknown>;
  if (o.type !== 'panel-action') return null;
  const { requestId, action, connectionId, binary, b64 } = o;
  if (typeof requestId !== 'number' || !Number.isSafeInteger(requestId)) return null;
  if (action !== 'send' && action !== 'deliver') return null;
  if (typeof connectionId !== 'string' || connectionId.length > 200) return null;
  if (typeof binary !== 'boolean' || typeof b64 !== 'string' || b64.length % 4 !== 0 || !BASE64.test(b64)) return null;
  return { type: 'panel-action', requestId, action, connectionId, binary, b64 };
}

export class ActionRouter {
  /** Documents by id: the tab and relay port their batches came on. */
  private readonly documents = new Map<string, { tabId: number; port: ActionPort }>();
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(private readonly env: ActionRouterEnv) {}

  /** A relay batch of `documentId` came on `port` from `tabId`: true when the document (or its port) is new. */
  documentSeen(documentId: string, tabId: number, port: ActionPort): boolean {
    const known = this.documents.get(documentId);
    if (known?.port === port && known.tabId === tabId) return false;
    this.documents.set(documentId, { tabId, port });
    return true;
  }

  /** A relay port closed: its documents are out of reach, and what waits on them is answered. */
  relayGone(port: ActionPort): void {
    for (const [id, d] of this.documents) if (d.port === port) this.documents.delete(id);
    for (const [id, p] of this.pending)
      if (p.relay === port) this.finish(id, { ok: false, error: 'the page was left or reloaded' });
  }

  /** A panel of `tabId` asked for `action`. */
  request(panel: ActionPort, tabId: number, action: PanelAction): void {
    this.route(panel, tabId, action.requestId, action.connectionId, (requestId, socketId) => ({
      type: 'relay-action',
      requestId,
      action: action.action,
      socketId,
      binary: action.binary,
      b64: action.b64,
    }));
  }

  /**
   * Sends what `make` builds (given the relay's request id and the socket id) to the relay of
   * `connectionId`'s document, after the checks above; the relay's answer goes back to the
   * panel as a `panel-action-result` carrying `panelRequestId`.
   */
  route(
    panel: ActionPort,
    tabId: number,
    panelRequestId: number,
    connectionId: string,
    make: (requestId: number, socketId: number) => RelayAction | RelayHoldAction,
  ): void {
    const answer = (ok: boolean, error: string): void =>
      void post(panel, { type: 'panel-action-result', requestId: panelRequestId, ok, error });
    if (!this.env.allowed()) return answer(false, 'actions are turned off in the options');
    const target = splitConnectionId(connectionId);
    const doc = target && this.documents.get(target.documentId);
    if (!target || !doc)
      return answer(
        false,
        'the socket is out of reach: its page was left, or sent nothing since the extension started',
      );
    if (doc.tabId !== tabId) return answer(false, 'the socket is not in the inspected tab');
    const id = this.nextId++;
    const timer = this.env.setTimeout(
      () => this.finish(id, { ok: false, error: 'no answer from the page' }),
      this.env.timeoutMs ?? 5000,
    );
    this.pending.set(id, { panel, panelRequestId, relay: doc.port, timer });
    if (!post(doc.port, make(id, target.socketId)))
      this.finish(id, { ok: false, error: 'the page was left or reloaded' });
  }

  /** The documents of `tabId` and their relay ports. */
  documentsOf(tabId: number): { documentId: string; port: ActionPort }[] {
    const out: { documentId: string; port: ActionPort }[] = [];
    for (const [documentId, d] of this.documents) if (d.tabId === tabId) out.push({ documentId, port: d.port });
    return out;
  }

  /** A relay answered (only the relay that was asked counts). */
  answered(port: ActionPort, requestId: number, ok: boolean, error?: string): void {
    const p = this.pending.get(requestId);
    if (!p || p.relay !== port) return;
    this.finish(requestId, error === undefined ? { ok } : { ok, error });
  }

  /** A panel port closed: its requests are forgotten (the actions may still happen). */
  panelGone(panel: ActionPort): void {
    for (const [id, p] of this.pending)
      if (p.panel === panel) {
        this.env.clearTimeout(p.timer);
        this.pending.delete(id);
      }
  }

  private finish(id: number, result: { ok: boolean; error?: string }): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    this.env.clearTimeout(p.timer);
    const message: PanelActionResult =
      result.error === undefined
        ? { type: 'panel-action-result', requestId: p.panelRequestId, ok: result.ok }
        : { type: 'panel-action-result', requestId: p.panelRequestId, ok: result.ok, error: result.error };
    post(p.panel, message);
  }
}

function post(port: ActionPort, message: unknown): boolean {
  try {
    port.postMessage(message);
    return true;
  } catch {
    return false;
  }
}
