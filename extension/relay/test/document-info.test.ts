// @vitest-environment jsdom
/**
 * Each connection says which document opened it, and a worker the document
 * started is reported. The relay (not the page) adds the document's URL and origin to
 * `opening` and `worker` events; `worker` events are checked like the others.
 */
import { afterEach, expect, test } from 'vitest';
import { RELAY_PORT, type RelayBatch, type SocketEvent } from '../../shared/messages.js';
import { hookBatch, unpackWire } from '../../shared/test/plain-capture.js';
import { startRelay, type RelayHandle } from '../relay.js';
import { hookLine } from './hook-line.js';

const win = window as Window & typeof globalThis;
let relay: RelayHandle | null = null;
afterEach(() => {
  relay?.stop();
  relay = null;
});

function start(): RelayBatch[] {
  const messages: RelayBatch[] = [];
  relay = startRelay({
    win,
    bytesAs: 'base64',
    documentId: 'doc',
    runtime: {
      connect(name) {
        expect(name).toBe(RELAY_PORT);
        return {
          postMessage: (m) => void messages.push(JSON.parse(JSON.stringify(m)) as RelayBatch),
          onMessage: { addListener() {} },
          onDisconnect: { addListener() {} },
        };
      },
    },
  });
  return messages;
}

test("opening and worker events carry the document's URL and origin, set by the relay (a value from the page is replaced)", () => {
  const messages = start();
  const post = hookLine(win);
  const events = [
    {
      type: 'opening',
      socketId: 1,
      url: 'ws://x.test/',
      time: 1,
      documentUrl: 'https://forged.example/',
      documentOrigin: 'https://forged.example',
    },
    { type: 'worker', socketId: 0, kind: 'dedicated', url: 'http://localhost:3000/w.js', time: 2 },
    { type: 'worker', socketId: 0, kind: 'shared', url: '', time: 3 },
    { type: 'error', socketId: 1, time: 4 },
  ] as unknown as SocketEvent[];
  post(hookBatch(1, events));
  const doc = { documentUrl: win.location.href, documentOrigin: win.origin };
  expect(messages.flatMap(unpackWire)).toEqual([
    { type: 'opening', socketId: 1, url: 'ws://x.test/', time: 1, ...doc },
    { type: 'worker', socketId: 0, kind: 'dedicated', url: 'http://localhost:3000/w.js', time: 2, ...doc },
    { type: 'worker', socketId: 0, kind: 'shared', url: '', time: 3, ...doc },
    { type: 'error', socketId: 1, time: 4 },
  ]);
});

test('a malformed worker event refuses its batch (counted)', () => {
  const messages = start();
  const post = hookLine(win);
  post(hookBatch(1, [{ type: 'worker', socketId: 0, kind: 'service', url: 'x', time: 1 } as unknown as SocketEvent]));
  post(hookBatch(2, [{ type: 'worker', socketId: 0, kind: 'dedicated', url: 5, time: 1 } as unknown as SocketEvent]));
  // Each refusal is reported at once, in a relay batch without frames or events.
  expect(
    (messages as unknown as { events: unknown[]; lostBatches: number }[]).map((m) => [m.events.length, m.lostBatches]),
  ).toEqual([
    [0, 1],
    [0, 2],
  ]);
  expect(relay!.stats().lostBatches).toBe(2);
});
