// @vitest-environment jsdom
import { afterEach, describe, expect, test } from 'vitest';
import { CAPTURE_TAG, RELAY_PORT, type HookEvent, type RelayBatch, type RelayEvent } from '../../shared/messages.js';
import { setup as setupHook, type Harness } from '../../hook/test/harness.js';
import { toBase64 } from '../base64.js';
import { startRelay, type RelayHandle, type RelayPort } from '../relay.js';

const win = window as Window & typeof globalThis;

/** A runtime whose ports record messages; `failNext` makes posts (or connects) throw. */
function fakeRuntime() {
  const ports: (RelayPort & { messages: RelayBatch[]; disconnectNow(): void; dead: boolean })[] = [];
  const state = { failPosts: 0, failConnects: 0 };
  return {
    ports,
    state,
    messages: () => ports.flatMap((p) => p.messages),
    connect(name: string) {
      expect(name).toBe(RELAY_PORT);
      if (state.failConnects > 0) {
        state.failConnects--;
        throw new Error('Extension context invalidated.');
      }
      const disconnectListeners: ((p: RelayPort) => void)[] = [];
      const port = {
        messages: [] as RelayBatch[],
        dead: false,
        postMessage(m: unknown) {
          if (port.dead || state.failPosts > 0) {
            if (state.failPosts > 0) state.failPosts--;
            throw new Error('Attempting to use a disconnected port object');
          }
          port.messages.push(JSON.parse(JSON.stringify(m)) as RelayBatch); // Chrome: JSON
        },
        onMessage: { addListener() {} },
        onDisconnect: { addListener: (fn: (p: RelayPort) => void) => void disconnectListeners.push(fn) },
        disconnect() {
          port.dead = true;
        },
        disconnectNow() {
          port.dead = true;
          for (const fn of disconnectListeners) fn(port);
        },
      };
      ports.push(port);
      return port;
    },
  };
}

let relay: RelayHandle | null = null;
let hook: Harness | null = null;
afterEach(() => {
  relay?.stop();
  relay = null;
  hook?.cleanup();
  hook = null;
});

const post = (data: unknown, source: unknown = win) => win.dispatchEvent(new win.MessageEvent('message', { data, source: source as Window }));
const frame = (socketId: number, bytes: number[], opcode: 'text' | 'binary' = 'binary'): HookEvent => ({
  type: 'frame', socketId, direction: 'sent', opcode, time: 1.5, data: new Uint8Array(bytes).buffer,
});
const batch = (seq: number, events: unknown[], extra: object = {}) => ({ tag: CAPTURE_TAG, type: 'hook-batch', seq, events, ...extra });

describe('forwarding', () => {
  test('a valid hook batch becomes a RelayBatch with base64 bytes', () => {
    const rt = fakeRuntime();
    relay = startRelay({ win, runtime: rt, bytesAs: 'base64', documentId: 'doc-1' });
    const events: HookEvent[] = [
      { type: 'opening', socketId: 1, url: 'ws://x.test/', time: 1 },
      { type: 'open', socketId: 1, url: 'ws://x.test/', protocol: 'p', extensions: '', time: 2 },
      frame(1, [0xde, 0xad, 0xbe, 0xef, 0]),
      frame(1, [...new TextEncoder().encode('hi')], 'text'),
      { type: 'error', socketId: 1, time: 3 },
      { type: 'close', socketId: 1, code: 1000, reason: 'ok', wasClean: true, time: 4 },
    ];
    post(batch(1, events));
    expect(rt.ports).toHaveLength(1);
    const [m] = rt.messages();
    expect(m).toMatchObject({ type: 'relay-batch', documentId: 'doc-1', documentUrl: win.location.href, isTopFrame: true, seq: 1, lostBatches: 0, framesBefore: 0 });
    expect(m.droppedFrames).toBeUndefined();
    expect(m.events[2]).toEqual({ type: 'frame', socketId: 1, direction: 'sent', opcode: 'binary', time: 1.5, data: { b64: '3q2+7wA=' } });
    expect(m.events[3]).toMatchObject({ data: { b64: 'aGk=' } });
    expect(m.events.map((e) => e.type)).toEqual(['opening', 'open', 'frame', 'frame', 'error', 'close']);
  });

  test('bytes mode forwards Uint8Arrays', () => {
    const sent: RelayBatch[] = [];
    const port: RelayPort = { postMessage: (m) => void sent.push(m as RelayBatch), onMessage: { addListener() {} }, onDisconnect: { addListener() {} } };
    relay = startRelay({ win, runtime: { connect: () => port }, bytesAs: 'bytes' });
    post(batch(1, [frame(2, [1, 2, 3])]));
    const data = (sent[0].events[0] as Extract<RelayEvent, { type: 'frame' }>).data;
    expect('bytes' in data && Array.from(data.bytes)).toEqual([1, 2, 3]);
    expect(sent[0].documentId).toMatch(/^[0-9a-f-]{32,36}$/);
  });

  test('large batches are split into several port messages; oversized frames are dropped and counted', () => {
    const rt = fakeRuntime();
    relay = startRelay({ win, runtime: rt, bytesAs: 'base64', maxMessageBytes: 100, maxFrameBytes: 200 });
    post(batch(1, [frame(1, Array(60).fill(1)), frame(1, Array(60).fill(2)), frame(1, Array(300).fill(3)), frame(1, [4])], { droppedFrames: 2 }));
    const msgs = rt.messages();
    expect(msgs.map((m) => m.events.length)).toEqual([1, 2]);
    expect(msgs.map((m) => m.seq)).toEqual([1, 2]);
    expect(msgs.map((m) => m.framesBefore)).toEqual([0, 1]);
    expect(msgs[1].droppedFrames).toBe(3); // 2 from the hook + 1 here
    expect(relay.stats()).toMatchObject({ droppedFrames: 3, lostBatches: 0 });
  });
});

describe('validation', () => {
  test('forged or malformed messages are refused and counted; untagged or foreign-source ones ignored', () => {
    const rt = fakeRuntime();
    relay = startRelay({ win, runtime: rt, bytesAs: 'base64' });
    post({ hello: 'page traffic' });
    post('a string');
    post(batch(1, [frame(1, [1])]), null); // not from this window
    expect(relay.stats().lostBatches).toBe(0);
    const bad: unknown[] = [
      { ...batch(1, []), type: 'other' },
      { ...batch(1, []), seq: 0 },
      { ...batch(1, []), seq: '1' },
      { ...batch(1, []), events: 'nope' },
      batch(1, [{ ...frame(1, [1]), data: new Uint8Array([1]) }]),
      batch(1, [{ ...frame(1, [1]), data: 'AQ==' }]),
      batch(1, [{ ...frame(1, [1]), direction: 'sideways' }]),
      batch(1, [{ ...frame(1, [1]), socketId: -1 }]),
      batch(1, [{ ...frame(1, [1]), time: Number.NaN }]),
      batch(1, [{ type: 'close', socketId: 1, code: 1000, reason: 5, wasClean: true, time: 1 }]),
      batch(1, [{ type: 'launch', socketId: 1, time: 1 }]),
      batch(1, [null]),
      batch(1, [], { droppedFrames: -3 }),
      { ...batch(1, []), get events() { throw new Error('getter'); } },
    ];
    for (const m of bad) post(m);
    expect(rt.messages()).toEqual([]);
    expect(relay.stats().lostBatches).toBe(bad.length);
    post(batch(1, [frame(1, [9])]));
    expect(rt.messages()[0].lostBatches).toBe(bad.length);
  });

  test('seq gaps count as lost batches; a replayed seq is refused', () => {
    const rt = fakeRuntime();
    relay = startRelay({ win, runtime: rt, bytesAs: 'base64' });
    post(batch(1, []));
    post(batch(2, []));
    post(batch(5, [])); // 3 and 4 missing
    post(batch(5, [])); // replay
    post(batch(6, []));
    expect(rt.messages().map((m) => [m.seq, m.lostBatches])).toEqual([[1, 0], [2, 0], [3, 2], [4, 3]]);
  });
});

describe('the port', () => {
  test('reconnects after a disconnect (stopped service worker): the next batch opens a new port', () => {
    const rt = fakeRuntime();
    relay = startRelay({ win, runtime: rt, bytesAs: 'base64' });
    post(batch(1, [frame(1, [1])]));
    rt.ports[0].disconnectNow();
    post(batch(2, [frame(1, [2])]));
    expect(rt.ports).toHaveLength(2);
    expect(rt.ports.map((p) => p.messages.map((m) => m.seq))).toEqual([[1], [2]]);
    expect(relay.stats()).toMatchObject({ connects: 2, lostBatches: 0, failedSends: 0 });
  });

  test('a stale port that throws is replaced and the batch retried once', () => {
    const rt = fakeRuntime();
    relay = startRelay({ win, runtime: rt, bytesAs: 'base64' });
    post(batch(1, []));
    rt.ports[0].dead = true; // disconnected, onDisconnect not delivered yet
    post(batch(2, []));
    expect(rt.ports[1].messages.map((m) => m.seq)).toEqual([2]);
    expect(relay.stats().lostBatches).toBe(0);
  });

  test('a batch that cannot be sent is never lost silently: a seq gap, its frames in framesBefore', () => {
    const rt = fakeRuntime();
    relay = startRelay({ win, runtime: rt, bytesAs: 'base64' });
    post(batch(1, [frame(1, [1])]));
    rt.ports[0].disconnectNow();
    rt.state.failConnects = 2; // connect fails, and so does the retry
    post(batch(2, [frame(1, [2]), frame(1, [3])]));
    expect(relay.stats()).toMatchObject({ failedSends: 1, sentBatches: 1, frames: 3, lostBatches: 0 });
    post(batch(3, [frame(1, [4])]));
    const msgs = rt.messages();
    // Relay batch 2 never arrived: the background sees seq 1 then 3, and 3 - 1 = 2 frames missing.
    expect(msgs.map((m) => [m.seq, m.framesBefore, m.lostBatches])).toEqual([[1, 0, 0], [3, 3, 0]]);
  });

  test('stop() removes the listener and disconnects', () => {
    const rt = fakeRuntime();
    relay = startRelay({ win, runtime: rt, bytesAs: 'base64' });
    post(batch(1, []));
    relay.stop();
    post(batch(2, []));
    expect(rt.ports[0].dead).toBe(true);
    expect(rt.messages()).toHaveLength(1);
  });
});

describe('hook → relay', () => {
  test("the hook's posts, delivered as window messages, reach the port byte-exact", () => {
    hook = setupHook();
    const rt = fakeRuntime();
    relay = startRelay({ win, runtime: rt, bytesAs: 'base64' });
    const ws = new hook.WS('ws://example.test/e2e');
    ws.open();
    ws.send(new Uint8Array([0, 255, 128]).subarray(1));
    ws.send('ok ✓');
    hook.hook.flush();
    for (const p of hook.posts) post(p.batch); // jsdom's postMessage sets no source; deliver as the browser would
    const events = rt.messages().flatMap((m) => m.events);
    expect(events.map((e) => e.type)).toEqual(['opening', 'open', 'frame', 'frame']);
    const frames = events.filter((e): e is Extract<RelayEvent, { type: 'frame' }> => e.type === 'frame');
    expect(frames.map((f) => 'b64' in f.data && f.data.b64)).toEqual([
      Buffer.from([255, 128]).toString('base64'),
      Buffer.from('ok ✓').toString('base64'),
    ]);
  });
});

describe('base64', () => {
  test('matches Buffer for every length 0..300 and a 1 MB buffer, with and without the native encoder', () => {
    for (let n = 0; n <= 300; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 0xff);
      const expected = Buffer.from(bytes).toString('base64');
      expect(toBase64(bytes, false)).toBe(expected);
      expect(toBase64(bytes)).toBe(expected);
    }
    const big = Uint8Array.from({ length: 1 << 20 }, (_, i) => (i * 7919) & 0xff);
    expect(toBase64(big.subarray(5), false)).toBe(Buffer.from(big.subarray(5)).toString('base64'));
  });
});
