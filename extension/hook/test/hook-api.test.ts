// @vitest-environment jsdom
/** The page must not notice the hook: the WebSocket API behaves and looks as before. */
import { afterEach, describe, expect, test } from 'vitest';
import { setup, type Harness } from './harness.js';
import { makeFakeWebSocket, type FakeSocket } from './fake-websocket.js';

let h: Harness;
afterEach(() => h.cleanup());

describe('constructor', () => {
  test('instanceof, prototype identity, constructor property, statics and instance constants', () => {
    h = setup();
    const { WS, Native } = h;
    expect(h.hook.installed).toBe(true);
    expect(WS).not.toBe(Native);
    const ws = new WS('ws://example.test/a');
    expect(ws instanceof WS).toBe(true);
    expect(WS.prototype).toBe(Native.prototype);
    expect(Object.getPrototypeOf(ws)).toBe(WS.prototype);
    expect(ws.constructor).toBe(WS);
    expect(WS.prototype.constructor).toBe(WS);
    expect(Object.getPrototypeOf(WS)).toBe(Object.getPrototypeOf(Native));
    expect([WS.CONNECTING, WS.OPEN, WS.CLOSING, WS.CLOSED]).toEqual([0, 1, 2, 3]);
    expect([ws.CONNECTING, ws.OPEN, ws.CLOSING, ws.CLOSED]).toEqual([0, 1, 2, 3]);
    expect(Reflect.ownKeys(WS)).toEqual(Reflect.ownKeys(Native));
    for (const key of Reflect.ownKeys(Native)) {
      expect(Object.getOwnPropertyDescriptor(WS, key)).toEqual(Object.getOwnPropertyDescriptor(Native, key));
    }
  });

  test('name, length and toString look native; so do send and Function.prototype.toString', () => {
    h = setup({ nativeToString: true });
    const { WS } = h;
    expect(WS.name).toBe('WebSocket');
    expect(WS.length).toBe(1);
    expect(WS.toString()).toBe('function WebSocket() { [native code] }');
    expect(Function.prototype.toString.call(WS)).toBe('function WebSocket() { [native code] }');
    expect(`${WS}`).toBe('function WebSocket() { [native code] }');
    const send = WS.prototype.send;
    expect(send.name).toBe('send');
    expect(send.length).toBe(1);
    expect(send.toString()).toBe('function send() { [native code] }');
    expect(Object.hasOwn(send, 'prototype')).toBe(false);
    expect(() => new (send as unknown as new () => object)()).toThrow(TypeError);
    const ts = Function.prototype.toString;
    expect(ts.call(ts)).toBe('function toString() { [native code] }');
    expect(ts.name).toBe('toString');
    expect(ts.length).toBe(0);
    // Everything else still prints its source.
    expect(
      function probe(a: number) {
        return a;
      }.toString(),
    ).toContain('return a');
    expect(() => ts.call({})).toThrow(TypeError);
  });

  test('property descriptors of window.WebSocket and prototype.send keep their attributes', () => {
    h = setup();
    const attrs = (d: PropertyDescriptor | undefined) => ({
      writable: d?.writable,
      enumerable: d?.enumerable,
      configurable: d?.configurable,
    });
    // The harness defines window.WebSocket as browsers do (writable, configurable, not enumerable).
    expect(attrs(Object.getOwnPropertyDescriptor(h.win, 'WebSocket'))).toEqual({
      writable: true,
      enumerable: false,
      configurable: true,
    });
    const untouched = makeFakeWebSocket(h.win);
    expect(attrs(Object.getOwnPropertyDescriptor(h.WS.prototype, 'send'))).toEqual(
      attrs(Object.getOwnPropertyDescriptor(untouched.prototype, 'send')),
    );
    expect(attrs(Object.getOwnPropertyDescriptor(h.WS.prototype, 'constructor'))).toEqual(
      attrs(Object.getOwnPropertyDescriptor(untouched.prototype, 'constructor')),
    );
  });

  test('uninstall restores the originals', () => {
    h = setup({ nativeToString: true });
    const hookedSend = h.WS.prototype.send;
    h.hook.uninstall();
    expect(h.win.WebSocket).toBe(h.Native);
    expect(h.Native.prototype.send).not.toBe(hookedSend);
    expect(h.Native.prototype.constructor).toBe(h.Native);
    // No longer masked: the wrapper (a Proxy of the native) prints as any Proxy does, not as `send`.
    expect(Function.prototype.toString.call(hookedSend)).not.toBe('function send() { [native code] }');
    expect(Function.prototype.toString.call(h.Native.prototype.send)).toBe('function send() { [native code] }');
  });

  test('calling WebSocket() without new throws the native TypeError', () => {
    h = setup();
    const call = (C: unknown) => {
      try {
        (C as (u: string) => unknown)('ws://example.test/');
      } catch (e) {
        return e as Error;
      }
      return null;
    };
    const hooked = call(h.WS);
    const native = call(h.Native);
    expect(hooked).toBeInstanceOf(TypeError);
    expect(hooked?.message).toBe(native?.message);
    expect(h.events().filter((e) => e.type === 'opening')).toEqual([]);
  });

  test('invalid URL / protocol errors propagate unchanged and record nothing', () => {
    h = setup();
    for (const args of [
      ['ws://[::1'],
      ['ftp://example.test/'],
      ['ws://example.test/', ['a', 'a']],
      ['ws://example.test/', 'bad protocol'],
    ] as const) {
      const native = (() => {
        try {
          new h.Native(...(args as [string]));
        } catch (e) {
          return e as DOMException;
        }
      })();
      const hooked = (() => {
        try {
          new h.WS(...(args as [string]));
        } catch (e) {
          return e as DOMException;
        }
      })();
      expect(hooked).toBeInstanceOf(h.win.DOMException);
      expect(hooked?.name).toBe('SyntaxError');
      expect(hooked?.message).toBe(native?.message);
    }
    expect(h.events()).toEqual([]);
  });

  test('subclasses of the hooked constructor work and are observed', () => {
    h = setup();
    class Mine extends h.WS {
      hello(): string {
        return 'hi';
      }
    }
    const ws = new Mine('ws://example.test/sub') as Mine & FakeSocket;
    expect(ws).toBeInstanceOf(Mine);
    expect(ws).toBeInstanceOf(h.WS);
    expect(ws.hello()).toBe('hi');
    ws.open();
    ws.send('x');
    expect(h.frames().map((f) => f.direction)).toEqual(['sent']);
  });
});

describe('instances', () => {
  test('url, readyState, binaryType, protocol, extensions, bufferedAmount are the native ones; binaryType untouched', () => {
    h = setup();
    const ws = new h.WS('ws://example.test/p', ['chat', 'json']);
    expect(ws.url).toBe('ws://example.test/p');
    expect(ws.readyState).toBe(0);
    expect(ws.binaryType).toBe('blob');
    ws.binaryType = 'arraybuffer';
    expect(ws.binaryType).toBe('arraybuffer');
    ws.open('json', 'permessage-deflate');
    expect(ws.readyState).toBe(1);
    expect(ws.protocol).toBe('json');
    expect(ws.extensions).toBe('permessage-deflate');
    ws.deliver(new Uint8Array([1, 2]));
    expect(ws.binaryType).toBe('arraybuffer');
    ws.close();
    expect(ws.readyState).toBe(2);
    ws.send('late');
    expect(ws.bufferedAmount).toBe(1);
    expect(ws.onmessage).toBe(null);
    const plain = new h.Native('ws://example.test/p');
    expect(Reflect.ownKeys(ws)).toEqual(Reflect.ownKeys(plain)); // the hook adds no own property
  });

  test('onmessage vs addEventListener call order is exactly the unhooked order', () => {
    const scenario = (WS: typeof h.WS): string[] => {
      const log: string[] = [];
      const ws = new WS('ws://example.test/o');
      ws.open();
      ws.addEventListener('message', () => log.push('A'));
      ws.onmessage = () => log.push('H1');
      ws.addEventListener('message', () => log.push('B'));
      ws.onmessage = () => log.push('H2'); // replaced in place: stays between A and B
      ws.deliver('1');
      ws.onmessage = null;
      ws.onmessage = () => log.push('H3'); // re-added: now last
      ws.addEventListener('message', (e) => {
        log.push('C');
        e.stopImmediatePropagation();
      });
      ws.addEventListener('message', () => log.push('never'));
      ws.deliver('2');
      return log;
    };
    h = setup();
    const unhooked = scenario(h.Native);
    const hooked = scenario(h.WS);
    expect(unhooked).toEqual(['A', 'H2', 'B', 'A', 'B', 'H3', 'C']);
    expect(hooked).toEqual(unhooked);
    // The hook saw both messages on the hooked socket, before any page listener.
    expect(h.frames().map((f) => new TextDecoder().decode(f.data))).toEqual(['1', '2']);
  });

  test('the hook records even when the first page listener stops propagation; removeEventListener cannot reach it', () => {
    h = setup();
    const ws = new h.WS('ws://example.test/s');
    ws.open();
    const stop = (e: Event) => e.stopImmediatePropagation();
    ws.addEventListener('message', stop);
    ws.removeEventListener('message', () => {});
    ws.deliver('kept');
    expect(h.frames()).toHaveLength(1);
  });

  test('send while CONNECTING throws InvalidStateError and records nothing', () => {
    h = setup();
    const ws = new h.WS('ws://example.test/c');
    let error: unknown;
    try {
      ws.send('too early');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(h.win.DOMException);
    expect((error as DOMException).name).toBe('InvalidStateError');
    expect(() => (ws.send as (...args: unknown[]) => void)()).toThrow(TypeError);
    expect(h.frames()).toEqual([]);
  });

  test('send after close records nothing (the native discards it)', async () => {
    h = setup();
    const ws = new h.WS('ws://example.test/d');
    ws.open();
    ws.send('in');
    ws.close();
    ws.send('while closing');
    await Promise.resolve();
    expect(ws.readyState).toBe(3);
    ws.send('after close');
    const frames = h.frames();
    expect(frames.map((f) => new TextDecoder().decode(f.data))).toEqual(['in']);
    expect(h.events().map((e) => e.type)).toEqual(['opening', 'open', 'frame', 'close']);
  });

  test('synthetic events dispatched by the page are not recorded by default (isTrusted)', () => {
    h = setup({ trustedEventsOnly: true });
    const ws = new h.WS('ws://example.test/t');
    ws.open(); // the fake's events are script-dispatched, like a page forging them
    ws.deliver('forged');
    expect(h.events().map((e) => e.type)).toEqual(['opening']);
  });

  test('a send argument converted to a string runs its toString once, as the native would', () => {
    h = setup();
    const ws = new h.WS('ws://example.test/str');
    ws.open();
    let calls = 0;
    ws.send({ toString: () => `obj${++calls}` } as unknown as string);
    ws.send(42 as unknown as string);
    expect(calls).toBe(1);
    expect((ws as FakeSocket).sent).toEqual(['obj1', '42']);
    expect(h.frames().map((f) => [f.opcode, new TextDecoder().decode(f.data)])).toEqual([
      ['text', 'obj1'],
      ['text', '42'],
    ]);
  });
});
