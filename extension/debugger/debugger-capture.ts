/**
 * Debugger capture mode (Chrome, opt-in from the panel): captures the WebSockets the page
 * hook cannot reach — those of dedicated workers, shared workers and service workers — from
 * the DevTools protocol through `chrome.debugger`, and hands them to the app as HostMessages
 * beside the hook's capture.
 *
 * - Attaches to the inspected tab; `Target.setAutoAttach` (flat sessions, each new target
 *   paused until its Network events are on) brings in its dedicated workers and
 *   out-of-process iframes (and their workers, recursively). Shared and service workers are
 *   not the tab's children and an extension may not discover targets (`Not allowed`): they
 *   are found in `chrome.debugger.getTargets()` (same origin as the page, not attached) when
 *   capture starts and whenever the hook reports a new shared worker (`lookForWorkers`),
 *   and attached by target id; frames they exchanged before that are not seen.
 * - **No duplicates by construction**: Network events are enabled only in worker sessions
 *   (dedicated, shared, service). Page and iframe documents are the hook's; the debugger
 *   never reports their sockets.
 * - While attached, Chrome shows its "started debugging this browser" infobar; cancelling it
 *   detaches, and the panel says debugger capture went off. `stop()` detaches.
 * The `chrome.debugger` slice used here is passed in (`DebuggerApi`), so tests need no browser.
 */
import type { HostMessage } from '../../inspector-app/src/protocol/messages.js';
import { CdpSockets } from './cdp-sockets.js';

export interface Debuggee {
  readonly tabId?: number;
  readonly targetId?: string;
  readonly sessionId?: string;
}

export interface ApiEvent<F> {
  addListener(fn: F): void;
  removeListener(fn: F): void;
}

export interface DebuggerTarget {
  readonly id: string;
  readonly type: string;
  readonly url: string;
  readonly attached: boolean;
}

export interface DebuggerApi {
  attach(target: Debuggee, version: string): Promise<void>;
  getTargets(): Promise<DebuggerTarget[]>;
  detach(target: Debuggee): Promise<void>;
  sendCommand(target: Debuggee, method: string, params?: object): Promise<unknown>;
  readonly onEvent: ApiEvent<(source: Debuggee, method: string, params?: object) => void>;
  readonly onDetach: ApiEvent<(source: Debuggee, reason: string) => void>;
}

export type DebuggerCaptureState = 'off' | 'starting' | 'on' | 'error';

export interface DebuggerCaptureEnv {
  readonly api: DebuggerApi;
  readonly tabId: number;
  /** Where HostMessages go (the app, through the panel's transport). */
  readonly emit: (message: HostMessage) => void;
  readonly now: () => number;
}

/** Targets whose sockets the debugger captures (the hook cannot reach them). */
export const WORKER_TARGETS: ReadonlySet<string> = new Set(['worker', 'shared_worker', 'service_worker']);
/** Targets the debugger only follows for the workers they start. */
const FRAME_TARGETS: ReadonlySet<string> = new Set(['iframe', 'page']);

export const INFOBAR_NOTE =
  'Chrome shows "wirescope started debugging this browser" while debugger capture is on; turning it off (or Cancel on that bar) ends it.';

const AUTO_ATTACH = { autoAttach: true, waitForDebuggerOnStart: true, flatten: true };

interface TargetInfo {
  readonly targetId: string;
  readonly type: string;
  readonly url: string;
}

const originOf = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
};

export class DebuggerCapture {
  state: DebuggerCaptureState = 'off';
  private readonly sessions = new Map<string, CdpSockets>();
  /** Workers attached by target id (shared, service), with their sockets. */
  private readonly targets = new Map<string, CdpSockets>();
  private pageOrigin = '';
  private readonly onEvent = (source: Debuggee, method: string, params?: object): void =>
    this.event(source, method, (params ?? {}) as Record<string, unknown>);
  private readonly onDetach = (source: Debuggee, reason: string): void => {
    if (source.targetId !== undefined) {
      this.targets.delete(source.targetId);
      return;
    }
    if (source.tabId !== this.env.tabId || this.state === 'off') return;
    this.unlisten();
    this.set(
      'off',
      reason === 'canceled_by_user'
        ? 'debugger capture ended: Cancel was pressed on Chrome\'s "started debugging" bar'
        : `debugger capture ended (${reason})`,
    );
  };

  constructor(private readonly env: DebuggerCaptureEnv) {}

  async start(): Promise<void> {
    if (this.state === 'on' || this.state === 'starting') return;
    const { api, tabId } = this.env;
    this.set('starting', 'attaching the debugger…');
    try {
      await api.attach({ tabId }, '1.3');
    } catch (e) {
      this.set('error', `debugger capture could not start: ${message(e)}`);
      return;
    }
    api.onEvent.addListener(this.onEvent);
    api.onDetach.addListener(this.onDetach);
    try {
      const info = (await api.sendCommand({ tabId }, 'Target.getTargetInfo')) as
        | { targetInfo?: { url?: string } }
        | undefined;
      this.pageOrigin = originOf(info?.targetInfo?.url ?? '');
      await api.sendCommand({ tabId }, 'Target.setAutoAttach', AUTO_ATTACH);
    } catch (e) {
      this.unlisten();
      await api.detach({ tabId }).catch(() => {});
      this.set('error', `debugger capture could not start: ${message(e)}`);
      return;
    }
    this.set(
      'on',
      [
        "debugger capture on: the sockets of this tab's workers are captured (shared and service workers from when they are found: frames before that are missed)",
        INFOBAR_NOTE,
      ].join('. '),
    );
    await this.lookForWorkers();
  }

  /** Attaches to shared and service workers of the page's origin not attached yet. */
  async lookForWorkers(): Promise<void> {
    if (this.state !== 'on' || !this.pageOrigin) return;
    const { api } = this.env;
    let list: DebuggerTarget[];
    try {
      list = await api.getTargets();
    } catch {
      return;
    }
    for (const t of list) {
      if (t.type !== 'worker' || t.attached || this.targets.has(t.id) || originOf(t.url) !== this.pageOrigin) continue;
      const sockets = new CdpSockets(`t${t.id}`, { type: 'shared or service worker', url: t.url }, this.env.now);
      this.targets.set(t.id, sockets);
      try {
        await api.attach({ targetId: t.id }, '1.3');
        await api.sendCommand({ targetId: t.id }, 'Network.enable');
      } catch (e) {
        this.targets.delete(t.id);
        this.env.emit({
          type: 'uncaptured',
          kind: 'worker',
          url: t.url,
          time: this.env.now(),
          reason: `the debugger could not attach to it: ${message(e)}`,
        });
      }
    }
  }

  async stop(): Promise<void> {
    if (this.state === 'off') return;
    const attached = [...this.targets.keys()];
    this.unlisten();
    this.set('off', 'debugger capture off');
    for (const targetId of attached) await this.env.api.detach({ targetId }).catch(() => {});
    await this.env.api.detach({ tabId: this.env.tabId }).catch(() => {});
  }

  private unlisten(): void {
    this.env.api.onEvent.removeListener(this.onEvent);
    this.env.api.onDetach.removeListener(this.onDetach);
    this.sessions.clear();
    this.targets.clear();
  }

  private set(state: DebuggerCaptureState, text: string): void {
    this.state = state;
    this.env.emit({ type: 'debugger-capture', state, message: text });
  }

  private event(source: Debuggee, method: string, params: Record<string, unknown>): void {
    const { api, tabId } = this.env;
    if (source.targetId !== undefined) {
      const sockets = this.targets.get(source.targetId);
      if (sockets) for (const m of sockets.event(method, params)) this.env.emit(m);
      return;
    }
    if (source.tabId !== tabId) return;
    switch (method) {
      case 'Target.attachedToTarget': {
        const sessionId = params.sessionId as string;
        const info = params.targetInfo as TargetInfo;
        if (typeof sessionId !== 'string' || !info) return;
        const session = { tabId, sessionId };
        const setup: Promise<unknown>[] = [];
        if (WORKER_TARGETS.has(info.type)) {
          this.sessions.set(sessionId, new CdpSockets(sessionId, { type: info.type, url: info.url }, this.env.now));
          setup.push(api.sendCommand(session, 'Network.enable'));
        }
        // Workers started by this target (a worker's sub-workers, an iframe's workers).
        if (WORKER_TARGETS.has(info.type) || FRAME_TARGETS.has(info.type))
          setup.push(api.sendCommand(session, 'Target.setAutoAttach', AUTO_ATTACH));
        // Paused at start (waitForDebuggerOnStart) so no socket opens before Network is on: always resumed.
        void Promise.allSettled(setup).then(() =>
          params.waitingForDebugger === false
            ? undefined
            : api.sendCommand(session, 'Runtime.runIfWaitingForDebugger').catch(() => {}),
        );
        return;
      }
      case 'Target.detachedFromTarget':
        if (typeof params.sessionId === 'string') this.sessions.delete(params.sessionId);
        return;
      default: {
        const sockets = typeof source.sessionId === 'string' ? this.sessions.get(source.sessionId) : undefined;
        if (sockets) for (const m of sockets.event(method, params)) this.env.emit(m);
      }
    }
  }
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
