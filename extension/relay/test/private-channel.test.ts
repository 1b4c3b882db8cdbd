// @vitest-environment jsdom
/**
 * Capture traffic travels on a private MessageChannel that the hook hands the
 * relay once, at document_start, by a synchronous event named by a per-build secret. A page's
 * own window-message listeners must see nothing of it, and nothing a page posts on the window
 * can reach the background (no forged frames, connections or sequence numbers).
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { makeFakeWebSocket, type FakeWebSocketClass } from '../../hook/test/fake-websocket.js';
import { installHook } from '../../hook/install.js';
import type { HookHandle } from '../../hook/types.js';
import { channelNames } from '../../shared/channel.js';
import type { RelayBatch } from '../../shared/messages.js';
import { hookBatch, plainFrame, unpackWire, type PlainEvent } from '../../shared/test/plain-capture.js';
import { startRelay, type RelayHandle } from '../relay.js';
import { recordingRuntime } from './relay-rig.js';

const win = window as Window & typeof globalThis;
const SECRET = 'test-secret';

let hook: HookHandle | null = null;
let relay: RelayHandle | null = null;
let savedWS: PropertyDescriptor | undefined;
const undo: (() => void)[] = [];
afterEach(() => {
  hook?.uninstall();
  relay?.stop();
  hook = relay = null;
  if (savedWS) Object.defineProperty(win, 'WebSocket', savedWS);
  for (const fn of undo.splice(0)) fn();
});

function fakeSockets(): FakeWebSocketClass {
  const Native = makeFakeWebSocket(win);
  savedWS = Object.getOwnPropertyDescriptor(win, 'WebSocket');
  Object.defineProperty(win, 'WebSocket', { value: Native, writable: true, configurable: true, enumerable: false });
  return Native;
}

function pageListener(): unknown[] {
  const seen: unknown[] = [];
  const fn = (e: MessageEvent) => void seen.push(e.data);
  win.addEventListener('message', fn);
  undo.push(() => win.removeEventListener('message', fn));
  return seen;
}

const frames = (msgs: RelayBatch[]) => msgs.flatMap(unpackWire).filter((e) => e.type === 'frame');
const texts = (msgs: RelayBatch[]) =>
  frames(msgs).map((f) => new TextDecoder().decode((f as { data: ArrayBuffer }).data));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the private channel', () => {
  for (const order of ['hook first', 'relay first'] as const) {
    test(`${order}: frames reach the relay, and the page's window 'message' listeners see nothing`, async () => {
      fakeSockets();
      const seen = pageListener();
      const rt = recordingRuntime();
      const start = () =>
        (relay = startRelay({ win, runtime: rt, bytesAs: 'base64', documentId: 'doc', channelSecret: SECRET }));
      const install = () =>
        (hook = installHook(win, { trustedEventsOnly: false, flushIntervalMs: 5, channelSecret: SECRET }));
      if (order === 'hook first') {
        install();
        start();
      } else {
        start();
        install();
      }
      expect(hook!.installed).toBe(true);
      const ws = new (win.WebSocket as unknown as FakeWebSocketClass)('ws://example.test/s');
      ws.open();
      for (let i = 0; i < 20; i++) ws.send(`frame ${i}`);
      hook!.flush();
      await vi.waitFor(() => expect(texts(rt.messages)).toHaveLength(20));
      await sleep(30);
      expect(texts(rt.messages)).toEqual(Array.from({ length: 20 }, (_, i) => `frame ${i}`));
      expect(seen, 'window messages the page saw').toEqual([]);
      expect(relay!.stats()).toMatchObject({ lostBatches: 0, hookBatches: 1 });
    });
  }

  test('a batch the page posts on the window is neither forwarded nor counted; a forged seq hides no real batch', async () => {
    fakeSockets();
    const rt = recordingRuntime();
    relay = startRelay({ win, runtime: rt, bytesAs: 'base64', documentId: 'doc', channelSecret: SECRET });
    hook = installHook(win, { trustedEventsOnly: false, flushIntervalMs: 5, channelSecret: SECRET });
    const forged: PlainEvent[] = [
      { type: 'opening', socketId: 99, url: 'javascript:alert(1)', time: 1 },
      plainFrame(1, [...new TextEncoder().encode('forged received frame')], { opcode: 'text', direction: 'received' }),
    ];
    const postForged = (seq: number) =>
      win.dispatchEvent(new win.MessageEvent('message', { data: hookBatch(seq, forged), source: win }));
    postForged(1);
    postForged(1_000_000);
    const ws = new (win.WebSocket as unknown as FakeWebSocketClass)('ws://example.test/s');
    ws.open();
    ws.send('real 1');
    hook.flush();
    postForged(2);
    ws.send('real 2');
    hook.flush();
    await vi.waitFor(() => expect(texts(rt.messages)).toHaveLength(2));
    await sleep(30);
    expect(texts(rt.messages)).toEqual(['real 1', 'real 2']);
    const urls = rt.messages.flatMap(unpackWire).flatMap((e) => (e.type === 'opening' ? [e.url] : []));
    expect(urls).toEqual(['ws://example.test/s']);
    expect(relay.stats()).toMatchObject({ lostBatches: 0, hookBatches: 2 });
  });

  test('after the handshake the page can neither take the port nor hand the relay its own', async () => {
    fakeSockets();
    const rt = recordingRuntime();
    const names = channelNames(SECRET);
    relay = startRelay({ win, runtime: rt, bytesAs: 'base64', documentId: 'doc', channelSecret: SECRET });
    hook = installHook(win, { trustedEventsOnly: false, flushIntervalMs: 5, channelSecret: SECRET });
    // Even knowing the names: asking for the port again gets no offer...
    const offers: MessageEvent[] = [];
    const onOffer = (e: Event) => void offers.push(e as MessageEvent);
    win.addEventListener(names.offer, onOffer);
    undo.push(() => win.removeEventListener(names.offer, onOffer));
    win.dispatchEvent(new win.Event(names.ready, { cancelable: true }));
    expect(offers).toEqual([]);
    // ... and a port offered now is not taken.
    const mine = new win.MessageChannel();
    const taken = !win.dispatchEvent(new win.MessageEvent(names.offer, { cancelable: true, ports: [mine.port2] }));
    expect(taken).toBe(false);
    mine.port1.postMessage(hookBatch(1, [plainFrame(1, [1, 2, 3])]));
    const ws = new (win.WebSocket as unknown as FakeWebSocketClass)('ws://example.test/s');
    ws.open();
    ws.send('real');
    hook.flush();
    await vi.waitFor(() => expect(texts(rt.messages)).toHaveLength(1));
    await sleep(30);
    expect(texts(rt.messages)).toEqual(['real']);
    mine.port1.close();
  });

  test('a second hook in the same window backs off (one channel, no duplicate frames)', async () => {
    fakeSockets();
    const rt = recordingRuntime();
    relay = startRelay({ win, runtime: rt, bytesAs: 'base64', documentId: 'doc', channelSecret: SECRET });
    hook = installHook(win, { trustedEventsOnly: false, flushIntervalMs: 5, channelSecret: SECRET });
    const second = installHook(win, { trustedEventsOnly: false, flushIntervalMs: 5, channelSecret: SECRET });
    expect(second.installed).toBe(false);
    const ws = new (win.WebSocket as unknown as FakeWebSocketClass)('ws://example.test/s');
    ws.open();
    ws.send('once');
    hook.flush();
    await vi.waitFor(() => expect(texts(rt.messages)).toEqual(['once']));
  });
});

test('without a relay, what waits in the channel is bounded: beyond 4 MiB batches are dropped and counted, not queued', () => {
  fakeSockets();
  hook = installHook(win, { trustedEventsOnly: false, channelSecret: 'nobody-listens' });
  const ws = new (win.WebSocket as unknown as FakeWebSocketClass)('ws://example.test/s');
  ws.open();
  for (let i = 0; i < 40; i++) {
    ws.send(new Uint8Array(200_000));
    hook.flush();
  }
  // 40 × ~256 KiB slabs: the first ~16 posts fit in 4 MiB, the rest are dropped and counted.
  expect(hook.stats().droppedFrames).toBeGreaterThan(20);
  expect(hook.stats().batchesPosted).toBeLessThan(20);
});
