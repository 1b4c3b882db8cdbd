/** Installs the fake WebSocket and the hook on the test's jsdom window; `cleanup()` undoes both. */
import { unpackHookBatch, type PlainEvent, type PlainFrame } from '../../shared/test/plain-capture.js';
import { installHook } from '../install.js';
import type { HookHandle, HookOptions } from '../types.js';
import {
  makeFakeWebSocket,
  recordPosts,
  simulateNativeToString,
  type FakeWebSocketClass,
  type Posted,
} from './fake-websocket.js';

export type Win = Window & typeof globalThis;

export interface Harness {
  readonly win: Win;
  /** The fake as the browser defined it (before the hook). */
  readonly Native: FakeWebSocketClass;
  /** `win.WebSocket` after the hook: what the page sees. */
  readonly WS: FakeWebSocketClass;
  readonly hook: HookHandle;
  readonly posts: Posted[];
  /** The hook's answers to actions, and how to post it one (as the relay would). */
  readonly replies: unknown[];
  toHook(message: unknown): void;
  /** Makes the next `n` posts throw (as a postMessage that cannot clone would). */
  failPosts(n: number): void;
  /** Flushes, then every event posted so far, in order (frames unpacked from the batches' tables and slabs). */
  events(): PlainEvent[];
  frames(): PlainFrame[];
  cleanup(): void;
}

export function setup(options: HookOptions & { nativeToString?: boolean } = {}): Harness {
  const win = window as Win;
  const Native = makeFakeWebSocket(win);
  const undoToString = options.nativeToString ? simulateNativeToString(Native) : () => {};
  const savedWS = Object.getOwnPropertyDescriptor(win, 'WebSocket');
  Object.defineProperty(win, 'WebSocket', { value: Native, writable: true, configurable: true, enumerable: false });
  const recorder = recordPosts(win);
  const hook = installHook(win, { trustedEventsOnly: false, ...options });
  const events = (): PlainEvent[] => {
    hook.flush();
    return recorder.posts.flatMap((p) => unpackHookBatch(p.batch));
  };
  return {
    win,
    Native,
    WS: win.WebSocket as unknown as FakeWebSocketClass,
    hook,
    posts: recorder.posts,
    replies: recorder.replies,
    toHook: recorder.toHook,
    failPosts: recorder.failNext,
    events,
    frames: () => events().filter((e): e is PlainFrame => e.type === 'frame'),
    cleanup() {
      hook.uninstall();
      recorder.restore();
      if (savedWS) Object.defineProperty(win, 'WebSocket', savedWS);
      undoToString();
    },
  };
}
