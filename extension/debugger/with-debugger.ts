/**
 * The panel's transport with debugger capture beside it: messages of the inner transport
 * (the hook's capture through the background) pass through; the app's `set-debugger-capture`
 * turns a DebuggerCapture on or off, and what it captures is delivered to the app's listeners
 * as more HostMessages. `openDebugger` asks for the `debugger` permission (optional in the
 * manifest, so installing wirescope does not grant it) and returns the API, or throws why not.
 */
import type { AppMessage, HostMessage } from '../../inspector-app/src/protocol/messages.js';
import type { Transport } from '../../inspector-app/src/protocol/transport.js';
import { DebuggerCapture, type DebuggerApi } from './debugger-capture.js';

/** When to look for a reported shared worker's target again (ms after the report). */
const LOOK_AGAIN_MS = [250, 1000, 3000];

export interface DebuggerHostEnv {
  readonly tabId: number;
  /** Called from the toggle's click (a user gesture, which a permission request needs). */
  readonly openDebugger: () => Promise<DebuggerApi>;
  readonly now: () => number;
}

export function withDebuggerCapture(inner: Transport, env: DebuggerHostEnv): Transport {
  const handlers = new Set<(m: HostMessage) => void>();
  const pending: HostMessage[] = [];
  const emit = (m: HostMessage): void => {
    if (handlers.size === 0) pending.push(m);
    for (const h of handlers) h(m);
  };
  let capture: DebuggerCapture | null = null;
  let wanted = false;

  async function turnOn(): Promise<void> {
    let api: DebuggerApi;
    try {
      api = await env.openDebugger();
    } catch (e) {
      wanted = false;
      emit({
        type: 'debugger-capture',
        state: 'error',
        message: `debugger capture could not start: ${e instanceof Error ? e.message : String(e)}`,
      });
      return;
    }
    if (!wanted) return;
    capture ??= new DebuggerCapture({ api, tabId: env.tabId, emit, now: env.now });
    await capture.start();
  }

  return {
    listen(handler) {
      handlers.add(handler);
      for (const m of pending.splice(0)) handler(m);
      const off = inner.listen((m) => {
        // The hook saw a new shared worker: the debugger attaches to it if capture is on.
        // Its target may be listed a little after the constructor returned: look again shortly after.
        if (m.type === 'uncaptured' && m.kind === 'shared-worker' && capture) {
          const c = capture;
          void c.lookForWorkers();
          for (const ms of LOOK_AGAIN_MS) setTimeout(() => void c.lookForWorkers(), ms);
        }
        handler(m);
      });
      return () => {
        handlers.delete(handler);
        off();
      };
    },
    send(message: AppMessage) {
      if (message.type !== 'set-debugger-capture') return inner.send(message);
      wanted = message.on;
      if (message.on) {
        emit({ type: 'debugger-capture', state: 'starting', message: 'asking for the debugger permission…' });
        void turnOn();
      } else if (capture) void capture.stop();
      else emit({ type: 'debugger-capture', state: 'off', message: 'debugger capture off' });
    },
  };
}

/** The `chrome.debugger` and `chrome.permissions` slices used (no @types/chrome needed). */
interface ChromeGlobals {
  readonly debugger?: DebuggerApi;
  readonly permissions?: { request(p: { permissions: string[] }): Promise<boolean> };
}

/** Requests the optional `debugger` permission, then hands out `chrome.debugger`. */
export async function openChromeDebugger(): Promise<DebuggerApi> {
  const chrome = (globalThis as unknown as { chrome?: ChromeGlobals }).chrome;
  if (!chrome?.permissions) throw new Error('this browser has no chrome.permissions');
  const granted = await chrome.permissions.request({ permissions: ['debugger'] });
  if (!granted) throw new Error('the debugger permission was not granted');
  const api = (globalThis as unknown as { chrome?: ChromeGlobals }).chrome?.debugger;
  if (!api) throw new Error('chrome.debugger is not available');
  return api;
}
