// @vitest-environment jsdom
/**
 * Detectability, what is cheap to reduce: a clean realm's
 * `Function.prototype.toString` (a fresh iframe's) must not print the hook's source for the
 * wrapped `send`, `WebSocket` or `toString` (they are Proxies of the natives: it prints a
 * native-code body), and errors thrown through the wrappers carry no stack frame of the
 * hook's script.
 */
import { afterEach, expect, test } from 'vitest';
import { setup, type Harness } from './harness.js';

let h: Harness;
afterEach(() => h.cleanup());

const NATIVE_BODY = /^function [\w$]*\(\) \{\s*\[native code\]\s*\}$/;

test("a clean realm's Function.prototype.toString prints no hook source for send, WebSocket or toString", () => {
  h = setup({ nativeToString: true });
  const iframe = document.createElement('iframe');
  document.body.append(iframe);
  try {
    const cleanToString = (iframe.contentWindow as unknown as { Function: FunctionConstructor }).Function.prototype
      .toString;
    for (const fn of [h.WS.prototype.send, h.WS, Function.prototype.toString]) {
      const text = cleanToString.call(fn as () => void);
      expect(text, text.slice(0, 200)).toMatch(NATIVE_BODY);
    }
    // In the page's own realm, they print as the natives do.
    expect(String(h.WS.prototype.send)).toBe('function send() { [native code] }');
    expect(String(Function.prototype.toString)).toBe('function toString() { [native code] }');
  } finally {
    iframe.remove();
  }
});

test('the page still gets the same behaviour through the Proxies: name, length, no prototype, not constructible, pass-through', () => {
  h = setup({ nativeToString: true });
  const send = h.WS.prototype.send;
  expect([send.name, send.length, 'prototype' in send]).toEqual(['send', 1, false]);
  expect(() => new (send as unknown as new () => object)()).toThrow(TypeError);
  const ws = new h.WS('ws://example.test/x');
  ws.open();
  ws.send('through the proxy');
  expect(h.frames().map((f) => new TextDecoder().decode(f.data))).toEqual(['through the proxy']);
  expect((ws as unknown as { sent: unknown[] }).sent).toEqual(['through the proxy']);
});

test("errors thrown through the wrappers carry no frame of the hook's script", () => {
  h = setup();
  const ws = new h.WS('ws://example.test/x'); // CONNECTING: send throws InvalidStateError
  const stackOf = (fn: () => void): string => {
    try {
      fn();
    } catch (e) {
      return String((e as Error).stack);
    }
    return 'nothing thrown';
  };
  const hookFiles = /extension\/hook\/(install|natives|peers|channel|batcher|recorder)\.ts/;
  const sendStack = stackOf(() => ws.send('too early'));
  expect(sendStack).toMatch(/InvalidStateError|still in CONNECTING/);
  expect(sendStack).not.toMatch(hookFiles);
  expect(sendStack, 'the caller is still there').toMatch(/hook-detect\.test\.ts/);
  const ctorStack = stackOf(() => new h.WS('ftp://nope.test/'));
  expect(ctorStack).toMatch(/SyntaxError/);
  expect(ctorStack).not.toMatch(hookFiles);
});
