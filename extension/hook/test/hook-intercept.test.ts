// @vitest-environment jsdom
/**
 * Intercept rules on the page: Pause holds a frame (and every later one of that socket and
 * direction behind it, in order) until Forward / Edit and forward / Drop; Drop and Delay;
 * every held frame goes out in order when the rules are cleared, on pagehide, past the bound;
 * `bufferedAmount` counts held sent bytes; a socket closed meanwhile is reported.
 */
import { afterEach, expect, test, vi } from 'vitest';
import type { HoldEvent, HookActionResult, HookHoldAction, InterceptRule } from '../../shared/messages.js';
import { bytesContain, compileGlob, globMatches } from '../intercept.js';
import { setup, type Harness } from './harness.js';

let h: Harness | null = null;
afterEach(() => {
  h?.cleanup();
  h = null;
  vi.useRealTimers();
});

const rule = (over: Partial<InterceptRule> = {}): InterceptRule => ({
  id: 'r1',
  direction: 'both',
  url: '',
  contains: '',
  action: 'pause',
  delayMs: 0,
  ...over,
});
const rules = (...list: InterceptRule[]) => ({ type: 'hook-rules', rules: list });
const hold = (over: Partial<HookHoldAction>): HookHoldAction => ({
  type: 'hook-hold',
  requestId: 1,
  action: 'forward',
  socketId: 1,
  direction: 'received',
  seq: 1,
  binary: false,
  bytes: null,
  ...over,
});
const holds = (hh: Harness): HoldEvent[] => hh.events().filter((e): e is HoldEvent => e.type === 'hold');
const lastHold = (hh: Harness, direction: 'sent' | 'received'): HoldEvent | undefined =>
  holds(hh)
    .filter((e) => e.direction === direction)
    .at(-1);
const text = (d: ArrayBuffer): string => new TextDecoder().decode(d);

function openSocket(hh: Harness, url = 'ws://example.test/feed') {
  const ws = new hh.WS(url);
  ws.open();
  const got: unknown[] = [];
  ws.addEventListener('message', (e) => got.push((e as MessageEvent).data));
  return { ws, got };
}

test('a Pause rule holds received frames in order, the later ones behind the first, until Forward', () => {
  h = setup();
  const { ws, got } = openSocket(h);
  h.toHook(rules(rule({ contains: 'stop', direction: 'received' })));
  ws.deliver('a');
  ws.deliver('stop 1');
  ws.deliver('b'); // matches nothing, waits behind
  ws.deliver('stop 2');
  expect(got).toEqual(['a']);
  expect(lastHold(h, 'received')).toMatchObject({ held: 3, head: 1, forwarded: 0 });
  h.toHook(hold({ seq: 1 }));
  // 'b' followed at once; 'stop 2' is paused itself.
  expect(got).toEqual(['a', 'stop 1', 'b']);
  expect(lastHold(h, 'received')).toMatchObject({ held: 1, head: 3, forwarded: 2 });
  h.toHook(hold({ seq: 2, requestId: 2 })); // not the first held frame any more
  h.toHook(hold({ seq: 3, requestId: 3 }));
  expect(got).toEqual(['a', 'stop 1', 'b', 'stop 2']);
  expect((h.replies as HookActionResult[]).map((r) => r.ok)).toEqual([true, false, true]);
  expect((h.replies[1] as HookActionResult).error).toMatch(/not the first held frame/);
  const frames = h.frames();
  expect(frames.map((f) => [text(f.data), f.held ?? false])).toEqual([
    ['a', false],
    ['stop 1', true],
    ['b', true],
    ['stop 2', true],
  ]);
});

test('a Pause rule on sent frames: send() returns at once, the native is not called, bufferedAmount counts the held bytes', () => {
  h = setup();
  const { ws } = openSocket(h);
  h.toHook(rules(rule({ direction: 'sent' })));
  const buffer = new Uint8Array([1, 2, 3]);
  expect(ws.send(buffer)).toBeUndefined();
  buffer[0] = 9; // the page reuses its buffer: the hook kept its own copy
  ws.send('héllo');
  expect(ws.sent).toEqual([]);
  expect(ws.bufferedAmount).toBe(3 + 6);
  expect(lastHold(h, 'sent')).toMatchObject({ held: 2, heldBytes: 9, head: 1 });
  h.toHook(hold({ direction: 'sent', action: 'forward-all' }));
  expect(ws.sent.map((d) => (typeof d === 'string' ? d : [...new Uint8Array(d as ArrayBuffer)]))).toEqual([
    [1, 2, 3],
    'héllo',
  ]);
  expect(ws.bufferedAmount).toBe(0);
  expect(h.frames().map((f) => f.held)).toEqual([true, true]);
});

test('Edit and forward sends the new bytes instead, recorded as wirescope’s; Drop discards the held frame', () => {
  h = setup();
  const { ws, got } = openSocket(h);
  ws.binaryType = 'arraybuffer';
  h.toHook(rules(rule()));
  ws.send(new Uint8Array([0xa1, 0x61, 0x61, 0x01]));
  h.toHook(
    hold({ direction: 'sent', action: 'edit', binary: true, bytes: new Uint8Array([0xa1, 0x61, 0x61, 0x02]).buffer }),
  );
  expect(ws.sent.map((d) => [...new Uint8Array(d as ArrayBuffer)])).toEqual([[0xa1, 0x61, 0x61, 0x02]]);
  ws.deliver(new Uint8Array([7]));
  ws.deliver(new Uint8Array([8]));
  h.toHook(hold({ requestId: 2, action: 'drop', seq: 1 }));
  h.toHook(
    hold({ requestId: 3, action: 'edit', seq: 2, binary: false, bytes: new TextEncoder().encode('edited').buffer }),
  );
  expect(got).toEqual(['edited']);
  expect(lastHold(h, 'received')).toMatchObject({ held: 0, dropped: 1, forwarded: 1 });
  expect(h.replies).toEqual([
    { type: 'hook-action-result', requestId: 1, ok: true },
    { type: 'hook-action-result', requestId: 2, ok: true },
    { type: 'hook-action-result', requestId: 3, ok: true },
  ]);
  expect(h.frames().map((f) => [f.direction, f.held ?? false, f.wirescope ?? false])).toEqual([
    ['sent', true, false],
    ['sent', false, true],
    ['received', true, false],
    ['received', true, false],
    ['received', false, true],
  ]);
});

test('a Drop rule keeps received frames from the page and sent frames off the wire, recorded as dropped', () => {
  h = setup();
  const { ws, got } = openSocket(h);
  h.toHook(rules(rule({ action: 'drop', contains: 'secret' })));
  ws.deliver('hello');
  ws.deliver('a secret');
  ws.send('my secret');
  ws.send('fine');
  expect(got).toEqual(['hello']);
  expect(ws.sent).toEqual(['fine']);
  expect(h.frames().map((f) => [text(f.data), f.dropped ?? false])).toEqual([
    ['hello', false],
    ['a secret', true],
    ['my secret', true],
    ['fine', false],
  ]);
  expect(lastHold(h, 'received')).toMatchObject({ dropped: 1, held: 0 });
});

test('a binary frame matches a rule when its bytes contain the UTF-8 bytes of the text (a CBOR key on the wire)', () => {
  h = setup();
  const { ws, got } = openSocket(h);
  ws.binaryType = 'arraybuffer';
  h.toHook(rules(rule({ action: 'drop', contains: 'temp' })));
  ws.deliver(new Uint8Array([0xa1, 0x64, 0x74, 0x65, 0x6d, 0x70, 0x01])); // {"temp": 1}
  ws.deliver(new Uint8Array([0xa1, 0x64, 0x68, 0x75, 0x6d, 0x69, 0x01])); // {"humi": 1}
  expect(got).toHaveLength(1);
  expect([...new Uint8Array(got[0] as ArrayBuffer)]).toEqual([0xa1, 0x64, 0x68, 0x75, 0x6d, 0x69, 0x01]);
});

test('a Delay rule forwards each frame in order after its delay', () => {
  vi.useFakeTimers();
  h = setup();
  const { ws, got } = openSocket(h);
  h.toHook(rules(rule({ action: 'delay', delayMs: 100, contains: 'slow' })));
  ws.deliver('slow 1');
  ws.deliver('quick');
  expect(got).toEqual([]);
  vi.advanceTimersByTime(99);
  expect(got).toEqual([]);
  vi.advanceTimersByTime(1);
  expect(got).toEqual(['slow 1', 'quick']);
  expect(lastHold(h, 'received')).toMatchObject({ held: 0, forwarded: 2 });
});

test('rules restricted by URL pattern, direction and socket ids apply to those sockets only', () => {
  h = setup();
  const a = openSocket(h, 'ws://example.test/chat/1');
  const b = openSocket(h, 'ws://other.test/chat/1');
  h.toHook(rules(rule({ url: 'ws://example.test/*', direction: 'received', action: 'drop' })));
  a.ws.deliver('x');
  b.ws.deliver('y');
  a.ws.send('z');
  expect(a.got).toEqual([]);
  expect(b.got).toEqual(['y']);
  expect(a.ws.sent).toEqual(['z']);
  h.toHook(rules(rule({ socketIds: [2], action: 'drop' })));
  a.ws.deliver('x2');
  b.ws.deliver('y2');
  expect(a.got).toEqual(['x2']);
  expect(b.got).toEqual(['y']);
  // A socket opened after the rules came gets them too.
  h.toHook(rules(rule({ url: '*/late', action: 'drop' })));
  const late = openSocket(h, 'ws://example.test/late');
  late.ws.deliver('gone');
  expect(late.got).toEqual([]);
});

test('clearing the rules forwards every held frame in order, both directions', () => {
  h = setup();
  const { ws, got } = openSocket(h);
  h.toHook(rules(rule()));
  ws.deliver('r1');
  ws.deliver('r2');
  ws.send('s1');
  ws.send('s2');
  h.toHook(rules());
  expect(got).toEqual(['r1', 'r2']);
  expect(ws.sent).toEqual(['s1', 's2']);
  expect(lastHold(h, 'received')).toMatchObject({ held: 0, forwarded: 2, why: 'rules-cleared' });
  expect(lastHold(h, 'sent')).toMatchObject({ held: 0, forwarded: 2, why: 'rules-cleared' });
  // And nothing is intercepted any more.
  ws.deliver('r3');
  expect(got).toEqual(['r1', 'r2', 'r3']);
});

test('pagehide forwards held frames (sent ones go out before the socket closes)', () => {
  h = setup();
  const { ws, got } = openSocket(h);
  h.toHook(rules(rule()));
  ws.send('bye');
  ws.deliver('last');
  window.dispatchEvent(new Event('pagehide'));
  expect(ws.sent).toEqual(['bye']);
  expect(got).toEqual(['last']);
  expect(lastHold(h, 'sent')).toMatchObject({ held: 0, forwarded: 1, why: 'pagehide' });
});

test('past the bound of held frames everything held is forwarded and the release reported', () => {
  h = setup();
  const { ws } = openSocket(h);
  h.toHook(rules(rule({ direction: 'sent' })));
  for (let i = 0; i < 10_001; i++) ws.send(`m${i}`);
  expect(ws.sent).toHaveLength(10_001);
  expect(ws.sent[0]).toBe('m0');
  expect(ws.sent[10_000]).toBe('m10000');
  expect(lastHold(h, 'sent')).toMatchObject({ held: 0, why: 'limit' });
});

test('a socket that closes while frames are held: received ones reach the page before its close listeners, sent ones are reported lost', () => {
  h = setup();
  const { ws, got } = openSocket(h);
  ws.addEventListener('close', () => got.push('close'));
  h.toHook(rules(rule()));
  ws.deliver('in');
  ws.send('out');
  ws.serverClose();
  expect(got).toEqual(['in', 'close']);
  expect(ws.sent).toEqual([]);
  expect(lastHold(h, 'sent')).toMatchObject({ held: 0, lost: 1, why: 'closed' });
  h.toHook(hold({ direction: 'sent', action: 'forward' }));
  expect((h.replies.at(-1) as HookActionResult).error).toMatch(/closed/);
});

test('a socket still connecting gets its InvalidStateError; no rule means nothing held', () => {
  h = setup();
  h.toHook(rules(rule()));
  const ws = new h.WS('ws://example.test/');
  expect(() => ws.send('early')).toThrow(/CONNECTING/);
  ws.open();
  h.toHook(rules());
  ws.send('x');
  expect(ws.sent).toEqual(['x']);
});

test('the page cannot forge rules or hold actions: window messages and events reach nothing', () => {
  h = setup({ channelSecret: 's' });
  const { ws, got } = openSocket(h);
  for (const m of [rules(rule({ action: 'drop' })), hold({})]) {
    window.postMessage(m, '*');
    for (const name of ['message', 'wirescope/capture/v1:offer:s', 'wirescope/capture/v1:ready:s'])
      window.dispatchEvent(new MessageEvent(name, { data: m }));
    window.dispatchEvent(new CustomEvent('wirescope/capture/v1:peers:s', { detail: m }));
  }
  ws.deliver('still here');
  expect(got).toEqual(['still here']);
  expect(h.replies).toEqual([]);
});

test('a page that replaces send or dispatchEvent after load changes nothing about what is forwarded', () => {
  h = setup();
  const { ws, got } = openSocket(h);
  h.toHook(rules(rule()));
  ws.send('held');
  ws.deliver('held in');
  const seen: unknown[] = [];
  const savedSend = h.WS.prototype.send;
  const savedDispatch = EventTarget.prototype.dispatchEvent;
  h.WS.prototype.send = ((d: unknown) => void seen.push(d)) as WebSocket['send'];
  EventTarget.prototype.dispatchEvent = () => {
    seen.push('dispatch');
    return true;
  };
  try {
    h.toHook(rules());
  } finally {
    h.WS.prototype.send = savedSend;
    EventTarget.prototype.dispatchEvent = savedDispatch;
  }
  expect(seen).toEqual([]);
  expect(ws.sent).toEqual(['held']);
  expect(got).toEqual(['held in']);
});

test('bufferedAmount stays the native getter’s in name and text, and malformed rules are ignored', () => {
  h = setup();
  const desc = Object.getOwnPropertyDescriptor(h.WS.prototype, 'bufferedAmount')!;
  expect(desc.get!.name).toBe('get bufferedAmount');
  expect(() => desc.get!.call({})).toThrow(TypeError);
  const { ws, got } = openSocket(h);
  for (const bad of [
    { type: 'hook-rules', rules: [{ ...rule(), action: 'explode' }] },
    { type: 'hook-rules', rules: [{ ...rule(), socketIds: ['1'] }] },
    { type: 'hook-rules', rules: 'all' },
  ])
    h.toHook(bad);
  ws.deliver('x');
  expect(got).toEqual(['x']);
});

test('glob and byte search', () => {
  expect(globMatches(compileGlob(''), 'ws://a/')).toBe(true);
  expect(globMatches(compileGlob('ws://a/'), 'ws://a/')).toBe(true);
  expect(globMatches(compileGlob('ws://a/'), 'ws://a/b')).toBe(false);
  expect(globMatches(compileGlob('*'), 'anything')).toBe(true);
  expect(globMatches(compileGlob('wss://*.example.com/*'), 'wss://api.example.com/socket')).toBe(true);
  expect(globMatches(compileGlob('wss://*.example.com/*'), 'wss://example.com/socket')).toBe(false);
  expect(globMatches(compileGlob('*a*a*'), 'xax')).toBe(false);
  expect(globMatches(compileGlob('*a*a*'), 'xaxa')).toBe(true);
  const b = (s: string) => new TextEncoder().encode(s);
  expect(bytesContain(b('hello'), 5, b('llo'))).toBe(true);
  expect(bytesContain(b('hello'), 4, b('llo'))).toBe(false);
  expect(bytesContain(b('hello'), 5, b(''))).toBe(true);
});

test("a page's capture-phase message listener does not see a frame a rule stops (the hook's listener runs first)", () => {
  h = setup();
  const ws = new h.WS('ws://example.test/');
  ws.open();
  const got: unknown[] = [];
  ws.addEventListener('message', (e) => got.push((e as MessageEvent).data), true);
  h.toHook(rules(rule({ action: 'drop' })));
  ws.deliver('x');
  expect(got).toEqual([]);
});
