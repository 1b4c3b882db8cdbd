// @vitest-environment jsdom
/**
 * A page reaching for a "pristine" `send` in an about:blank iframe
 * (`frame.contentWindow.WebSocket.prototype.send.call(ws, x)`) must not slip a frame past the
 * capture: the iframe's hook hands it to the hook that owns the socket (hook/peers.ts).
 */
import { afterEach, expect, test } from 'vitest';
import { unpackHookBatch, type PlainFrame } from '../../shared/test/plain-capture.js';
import { installHook } from '../install.js';
import type { HookHandle } from '../types.js';
import { makeFakeWebSocket, recordPosts, type FakeWebSocketClass } from './fake-websocket.js';

type Win = Window & typeof globalThis;
const undo: (() => void)[] = [];
afterEach(() => {
  for (const fn of undo.splice(0).reverse()) fn();
  engine = null;
});

/** The browser's one WebSocket implementation, as every window's native sees it, and its prototype's descriptors before any hook. */
let engine: FakeWebSocketClass | null = null;
let pristine: [PropertyKey, PropertyDescriptor][] = [];

/**
 * Another window's copy of the native: its own constructor and prototype whose methods and
 * accessors are the same engine functions (a native `send` accepts a socket of any window).
 */
function realmCopy(Native: FakeWebSocketClass): FakeWebSocketClass {
  class WebSocket extends (Native as unknown as { new (url: string, p?: string | string[]): object }) {}
  for (const [key, desc] of pristine) if (key !== 'constructor') Object.defineProperty(WebSocket.prototype, key, desc);
  return WebSocket as unknown as FakeWebSocketClass;
}

/** The fake WebSocket and a recording channel in `win`, then the hook. */
function hooked(win: Win): { WS: FakeWebSocketClass; hook: HookHandle; sentTexts(): string[] } {
  if (!engine) {
    engine = makeFakeWebSocket(win);
    pristine = Reflect.ownKeys(engine.prototype).map((k) => [
      k,
      Object.getOwnPropertyDescriptor(engine!.prototype, k)!,
    ]);
  }
  const Native = win === window ? engine : realmCopy(engine);
  Object.defineProperty(win, 'WebSocket', { value: Native, writable: true, configurable: true, enumerable: false });
  const rec = recordPosts(win);
  const hook = installHook(win, { trustedEventsOnly: false, channelSecret: 's' });
  undo.push(() => {
    hook.uninstall();
    rec.restore();
  });
  return {
    WS: win.WebSocket as unknown as FakeWebSocketClass,
    hook,
    sentTexts() {
      hook.flush();
      return rec.posts
        .flatMap((p) => unpackHookBatch(p.batch))
        .flatMap((e) =>
          e.type === 'frame' && e.direction === 'sent' ? [new TextDecoder().decode((e as PlainFrame).data)] : [],
        );
    },
  };
}

function blankFrame(): Win {
  const iframe = document.createElement('iframe');
  document.body.append(iframe);
  undo.push(() => iframe.remove());
  return iframe.contentWindow as Win;
}

test("a frame sent on the top window's socket through an about:blank iframe's send is recorded by the top window's hook, once", () => {
  const top = hooked(window as Win);
  const child = hooked(blankFrame());
  expect(child.hook.installed).toBe(true);
  const ws = new top.WS('ws://example.test/top');
  ws.open();
  const childSend = child.WS.prototype.send;
  childSend.call(ws, 'through the child');
  ws.send('directly');
  expect(top.sentTexts()).toEqual(['through the child', 'directly']);
  expect(child.sentTexts()).toEqual([]);
  expect((ws as unknown as { sent: unknown[] }).sent).toEqual(['through the child', 'directly']);
});

test("and the other way: the child's socket sent through the top window's send", () => {
  const top = hooked(window as Win);
  const child = hooked(blankFrame());
  const ws = new child.WS('ws://example.test/child');
  ws.open();
  top.WS.prototype.send.call(ws, new Uint8Array([104, 105]));
  expect(child.sentTexts()).toEqual(['hi']);
  expect(top.sentTexts()).toEqual([]);
});

test('a socket no hook knows is passed through untouched', () => {
  const top = hooked(window as Win);
  hooked(blankFrame());
  const Stray = realmCopy(engine!); // a constructor no hook wrapped
  const ws = new Stray('ws://example.test/stray');
  ws.open();
  top.WS.prototype.send.call(ws, 'unseen');
  expect(top.sentTexts()).toEqual([]);
  expect((ws as unknown as { sent: unknown[] }).sent).toEqual(['unseen']);
});

test('a page that read the secret from hook.js and joined the peer list can have a frame sent, never one recorded that was not sent', () => {
  const top = hooked(window as Win);
  const ws = new top.WS('ws://example.test/top');
  ws.open();
  // The page knows the event name (the secret ships in hook.js) and asks for the registry.
  const box: { registry: { list: Record<string, unknown>[] } | null } = { registry: null };
  window.dispatchEvent(new CustomEvent('wirescope/capture/v1:peers:s', { detail: box }));
  const peer = box.registry?.list[0] as Record<string, (...a: unknown[]) => unknown> | undefined;
  expect(peer).toBeDefined();
  // What the registry offered before: recording a frame on a socket without sending it.
  expect(peer!.recordSent).toBeUndefined();
  peer!.send?.(ws, ['really sent']);
  expect(top.sentTexts()).toEqual(['really sent']);
  expect((ws as unknown as { sent: unknown[] }).sent).toEqual(['really sent']);
});
