/**
 * Tests only: the page side of the extension in jsdom, wired as in a tab: a fake `WebSocket`
 * on the window, the relay on a fake runtime port and the hook on the private channel between
 * them, one socket open, and the relay's runtime port opened by the hook's first batch.
 */
import { expect, vi } from 'vitest';
import { makeFakeWebSocket, type FakeSocket, type FakeWebSocketClass } from '../../hook/test/fake-websocket.js';
import { installHook } from '../../hook/install.js';
import type { HookHandle } from '../../hook/types.js';
import { RELAY_PORT, type RelayBatch } from '../../shared/messages.js';
import { startRelay, type RelayPort } from '../relay.js';

/** A fake `chrome.runtime`: what the relay posts, messages from the background, and the port going away. */
export function fakeRuntime() {
  const posted: unknown[] = [];
  const listeners: ((m: unknown) => void)[] = [];
  const gone: (() => void)[] = [];
  return {
    posted,
    fromBackground: (m: unknown) => {
      for (const l of listeners) l(JSON.parse(JSON.stringify(m)));
    },
    disconnect: () => {
      for (const g of gone) g();
    },
    connect(): RelayPort {
      return {
        postMessage: (m: unknown) => void posted.push(JSON.parse(JSON.stringify(m))),
        onMessage: { addListener: (l: (m: unknown) => void) => void listeners.push(l) },
        onDisconnect: { addListener: (l: () => void) => void gone.push(l) },
      };
    },
  };
}

export type FakeRuntime = ReturnType<typeof fakeRuntime>;

export interface RelayRig {
  readonly rt: FakeRuntime;
  readonly hook: HookHandle;
  /** The open socket (id 1 to the hook). */
  readonly ws: FakeSocket;
  /** The data of every message the page's listener on `ws` received. */
  readonly got: unknown[];
  /** Uninstalls the hook, stops the relay and puts the window's WebSocket back. */
  stop(): void;
}

export async function startRelayRig(win: Window & typeof globalThis): Promise<RelayRig> {
  const Native = makeFakeWebSocket(win);
  const savedWS = Object.getOwnPropertyDescriptor(win, 'WebSocket');
  Object.defineProperty(win, 'WebSocket', { value: Native, writable: true, configurable: true, enumerable: false });
  const rt = fakeRuntime();
  const relay = startRelay({ win, runtime: rt, bytesAs: 'base64', documentId: 'doc', channelSecret: 'k' });
  const hook = installHook(win, { trustedEventsOnly: false, flushIntervalMs: 5, channelSecret: 'k' });
  const stop = () => {
    hook.uninstall();
    relay.stop();
    if (savedWS) Object.defineProperty(win, 'WebSocket', savedWS);
  };
  const ws = new (win.WebSocket as unknown as FakeWebSocketClass)('ws://example.test/s');
  ws.open();
  const got: unknown[] = [];
  ws.addEventListener('message', (e) => got.push((e as MessageEvent).data));
  hook.flush(); // the first batch opens the relay's runtime port
  try {
    await vi.waitFor(() => expect(rt.posted.length).toBeGreaterThan(0));
  } catch (e) {
    stop();
    throw e;
  }
  return { rt, hook, ws, got, stop };
}

/** A runtime that only records: the relay batches posted on its one port, checked to be the relay's. */
export function recordingRuntime() {
  const messages: RelayBatch[] = [];
  return {
    messages,
    connect(name: string): RelayPort {
      expect(name).toBe(RELAY_PORT);
      return {
        postMessage: (m: unknown) => void messages.push(JSON.parse(JSON.stringify(m)) as RelayBatch),
        onMessage: { addListener() {} },
        onDisconnect: { addListener() {} },
      };
    },
  };
}
