// @vitest-environment jsdom
import { afterEach, describe, expect, test } from 'vitest';
import { CAPTURE_TAG, FRAME_BINARY, FRAME_RECEIVED, RELAY_PORT, type RelayBatch } from '../../shared/messages.js';
import { hookBatch, plainFrame, unpackWire, type PlainEvent } from '../../shared/test/plain-capture.js';
import { setup as setupHook, type Harness } from '../../hook/test/harness.js';
import { startRelay, type RelayHandle, type RelayPort } from '../relay.js';
import { hookLine } from './hook-line.js';

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
/** The hook's end of the relay's private channel in this test (opened by the first post). */
let line: ((data: unknown) => void) | null = null;
afterEach(() => {
  relay?.stop();
  relay = null;
  line = null;
  hook?.cleanup();
  hook = null;
});

/** Delivers `data` to the relay as a message on the hook's private channel. */
const post = (data: unknown) => (line ??= hookLine(win))(data);
const frame = (socketId: number, bytes: number[], opcode: 'text' | 'binary' = 'binary') =>
  plainFrame(socketId, bytes, { opcode });
const batch = (seq: number, events: PlainEvent[], extra: object = {}) => hookBatch(seq, events, extra);
/** Every event the relay posted, frames unpacked, in order. */
const sentEvents = (msgs: RelayBatch[]): PlainEvent[] => msgs.flatMap(unpackWire);
const frameBytes = (msgs: RelayBatch[]) =>
  sentEvents(msgs).flatMap((e) => (e.type === 'frame' ? [Array.from(new Uint8Array(e.data))] : []));

describe('forwarding', () => {
  test('a valid hook batch becomes a RelayBatch: one base64 frame table, one base64 string of all bytes', () => {
    const rt = fakeRuntime();
    relay = startRelay({ win, runtime: rt, bytesAs: 'base64', documentId: 'doc-1' });
    const events: PlainEvent[] = [
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
    expect(m).toMatchObject({
      type: 'relay-batch',
      documentId: 'doc-1',
      documentUrl: win.location.href,
      isTopFrame: true,
      documentStart: win.performance.timeOrigin,
      seq: 1,
      lostBatches: 0,
      framesBefore: 0,
    });
    expect(m.droppedFrames).toBeUndefined();
    expect(m.frameBytes).toEqual({ b64: Buffer.from([0xde, 0xad, 0xbe, 0xef, 0, 0x68, 0x69]).toString('base64') });
    expect(
      Array.from(new Float64Array(new Uint8Array(Buffer.from((m.frameTable as { b64: string }).b64, 'base64')).buffer)),
    ).toEqual([1, 2, 1.5, 5, 1, 0, 1.5, 2]);
    expect(m.events.map((e) => [e.type, e.at])).toEqual([
      ['opening', 0],
      ['open', 0],
      ['error', 2],
      ['close', 2],
    ]);
    // The relay adds the document to `opening` (document-info.test.ts).
    expect(unpackWire(m)).toEqual(
      events.map((e) =>
        e.type === 'opening' ? { ...e, documentUrl: win.location.href, documentOrigin: win.origin } : e,
      ),
    );
  });

  test('bytes mode forwards Uint8Arrays', () => {
    const sent: RelayBatch[] = [];
    const port: RelayPort = {
      postMessage: (m) => void sent.push(m as RelayBatch),
      onMessage: { addListener() {} },
      onDisconnect: { addListener() {} },
    };
    relay = startRelay({ win, runtime: { connect: () => port }, bytesAs: 'bytes' });
    post(batch(1, [frame(2, [1, 2, 3])]));
    const data = sent[0].frameBytes;
    expect('bytes' in data && data.bytes).toEqual(new Uint8Array([1, 2, 3]));
    expect('bytes' in data && data.bytes.buffer.byteLength).toBe(3); // an exact copy, not a view of the page's slab
    expect(frameBytes(sent)).toEqual([[1, 2, 3]]);
    expect(sent[0].documentId).toMatch(/^[0-9a-f-]{32,36}$/);
  });

  test('large batches are split into several port messages; oversized frames are dropped and counted', () => {
    const rt = fakeRuntime();
    relay = startRelay({ win, runtime: rt, bytesAs: 'base64', maxMessageBytes: 160, maxFrameBytes: 200 });
    const close = { type: 'close', socketId: 1, code: 1000, reason: '', wasClean: true, time: 9 } as const;
    post(
      batch(
        1,
        [
          frame(1, Array(90).fill(1)),
          frame(1, Array(30).fill(2)),
          frame(1, Array(30).fill(5)),
          frame(1, Array(300).fill(3)),
          frame(1, [4]),
          close,
        ],
        { droppedFrames: 2 },
      ),
    );
    const msgs = rt.messages();
    // Cost: base64 size + a 32-byte row. 152, + 72 > 160: split; 72 + 72 fit; the 300-byte frame is dropped and ends a batch.
    expect(msgs.map((m) => sentEvents([m]).map((e) => (e.type === 'frame' ? e.data.byteLength : e.type)))).toEqual([
      [90],
      [30, 30],
      [1, 'close'],
    ]);
    expect(msgs.map((m) => m.seq)).toEqual([1, 2, 3]);
    expect(msgs.map((m) => m.framesBefore)).toEqual([0, 1, 3]);
    expect(msgs[2].droppedFrames).toBe(3); // 2 from the hook + 1 here
    expect(frameBytes(msgs).map((b) => b[0])).toEqual([1, 2, 5, 4]);
    expect(relay.stats()).toMatchObject({ droppedFrames: 3, lostBatches: 0 });
  });

  test('a frame dropped for size leaves a row (time, direction, size) in the batch that follows it, for a placeholder', () => {
    const rt = fakeRuntime();
    relay = startRelay({ win, runtime: rt, bytesAs: 'base64', maxMessageBytes: 160, maxFrameBytes: 200 });
    post(
      batch(1, [
        frame(1, Array(30).fill(2)),
        plainFrame(1, Array(300).fill(3), { direction: 'received', time: 7 }),
        frame(1, [4]),
      ]),
    );
    const msgs = rt.messages();
    expect(msgs.map((m) => m.lostFrames)).toEqual([
      undefined,
      [{ socketId: 1, flags: FRAME_RECEIVED | FRAME_BINARY, time: 7, length: 300, why: 'too-large' }],
    ]);
  });
});

describe('validation', () => {
  test('malformed messages on the channel are refused and counted; untagged ones ignored; window messages never read', () => {
    const rt = fakeRuntime();
    relay = startRelay({ win, runtime: rt, bytesAs: 'base64' });
    post({ hello: 'page traffic' });
    post('a string');
    win.dispatchEvent(new win.MessageEvent('message', { data: batch(1, [frame(1, [1])]), source: win })); // posted by the page
    expect(rt.messages()).toEqual([]);
    expect(relay.stats().lostBatches).toBe(0);
    /** A one-frame batch whose row (socketId, flags, time, length) is patched after packing. */
    const row = (patch: [number, number][], used?: number) => {
      const b = batch(1, [frame(1, [1])]);
      const table = new Float64Array(b.frameTable);
      for (const [col, v] of patch) table[col] = v;
      return used === undefined ? b : { ...b, frameBytesUsed: used };
    };
    const detached = batch(1, [frame(1, [1])]);
    structuredClone(detached.frameBytes, { transfer: [detached.frameBytes] });
    const bad: unknown[] = [
      { ...batch(1, []), type: 'other' },
      { ...batch(1, []), seq: 0 },
      { ...batch(1, []), seq: '1' },
      { ...batch(1, []), events: 'nope' },
      {
        tag: CAPTURE_TAG,
        type: 'hook-batch',
        seq: 1,
        events: [
          { type: 'frame', socketId: 1, direction: 'sent', opcode: 'binary', time: 1, data: new ArrayBuffer(1) },
        ],
      }, // the old layout
      { ...batch(1, [frame(1, [1])]), frameTable: new Float64Array(4) },
      { ...batch(1, [frame(1, [1])]), frameBytes: 'AQ==' },
      { ...batch(1, [frame(1, [1])]), frameCount: 2 }, // more rows than the table holds
      { ...batch(1, [frame(1, [1])]), frameBytesUsed: 2 }, // more bytes than the slab holds
      { ...batch(1, [frame(1, [1])]), frameCount: 1.5 },
      detached,
      row([[0, -1]]), // socketId
      row([[0, 0.5]]),
      row([[1, 4]]), // flags
      row([[2, Number.NaN]]), // time
      row([[2, Infinity]]),
      row([[3, 2]], 1), // lengths add up to more than the bytes
      row([[3, 0]]), // … or less
      row([[3, 0.5]], 0.5),
      batch(1, [{ type: 'close', socketId: 1, code: 1000, reason: 5 as unknown as string, wasClean: true, time: 1 }]),
      batch(1, [{ type: 'launch', socketId: 1, time: 1 } as unknown as PlainEvent]),
      { ...batch(1, []), events: [null] },
      { ...batch(1, [frame(1, [1])]), events: [{ type: 'error', socketId: 1, time: 1, at: 2 }] }, // placed past the frames
      {
        ...batch(1, [frame(1, [1])]),
        events: [
          { type: 'error', socketId: 1, time: 1, at: 1 },
          { type: 'error', socketId: 1, time: 1, at: 0 },
        ],
      }, // out of order
      { ...batch(1, []), events: [{ type: 'error', socketId: 1, time: 1 }] }, // no `at`
      batch(1, [], { droppedFrames: -3 }),
      {
        ...batch(1, []),
        get events() {
          throw new Error('getter');
        },
      },
    ];
    for (const m of bad) post(m);
    // Each refusal is reported at once, in a relay batch that carries no frame and no event.
    expect(rt.messages().map((m) => [sentEvents([m]).length, m.lostBatches])).toEqual(bad.map((_, i) => [0, i + 1]));
    expect(relay.stats().lostBatches).toBe(bad.length);
    // The first refused batch was the hook's seq 1 (the next one due): the hook's next is 2, not a gap.
    post(batch(2, [frame(1, [9])]));
    expect(rt.messages().at(-1)!.lostBatches).toBe(bad.length);
    expect(frameBytes(rt.messages())).toEqual([[9]]);
  });

  test('seq gaps count as lost batches; a replayed seq is refused', () => {
    const rt = fakeRuntime();
    relay = startRelay({ win, runtime: rt, bytesAs: 'base64' });
    post(batch(1, []));
    post(batch(2, []));
    post(batch(5, [])); // 3 and 4 missing
    post(batch(5, [])); // replay
    post(batch(6, []));
    // The replay is refused and reported at once (seq 4).
    expect(rt.messages().map((m) => [m.seq, m.lostBatches])).toEqual([
      [1, 0],
      [2, 0],
      [3, 2],
      [4, 3],
      [5, 3],
    ]);
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
    expect(msgs.map((m) => [m.seq, m.framesBefore, m.lostBatches])).toEqual([
      [1, 0, 0],
      [3, 3, 0],
    ]);
  });

  test('stop() closes the channel and disconnects', () => {
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
  test("the hook's posts, on its private channel, reach the port byte-exact", () => {
    hook = setupHook();
    const rt = fakeRuntime();
    relay = startRelay({ win, runtime: rt, bytesAs: 'base64' }); // takes the hook's port (the hook installed first)
    const ws = new hook.WS('ws://example.test/e2e');
    ws.open();
    ws.send(new Uint8Array([0, 255, 128]).subarray(1));
    ws.send('ok ✓');
    hook.hook.flush();
    const events = sentEvents(rt.messages());
    expect(events.map((e) => e.type)).toEqual(['opening', 'open', 'frame', 'frame']);
    expect(frameBytes(rt.messages())).toEqual([[255, 128], [...Buffer.from('ok ✓')]]);
    expect(rt.messages()[0].frameBytes).toEqual({
      b64: Buffer.from([255, 128, ...Buffer.from('ok ✓')]).toString('base64'),
    });
  });
});
