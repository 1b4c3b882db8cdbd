// @vitest-environment jsdom
/** What the hook records: every data type byte-exact, in the order frames went and came. */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { setup, type Harness, type Win } from './harness.js';
import { bytesOf, utf8, type FakeSocket } from './fake-websocket.js';

let h: Harness;
let undo: (() => void)[] = [];
afterEach(() => {
  h.cleanup();
  for (const u of undo.reverse()) u();
  undo = [];
});

/** Installs a `Blob.prototype.arrayBuffer` whose reads finish after `delayFor(blob)` ms (before the hook captures it). */
function blobReads(win: Win, delayFor: (blob: Blob) => number | 'fail'): void {
  const proto = win.Blob.prototype;
  const had = Object.getOwnPropertyDescriptor(proto, 'arrayBuffer');
  Object.defineProperty(proto, 'arrayBuffer', {
    configurable: true,
    writable: true,
    value(this: Blob): Promise<ArrayBuffer> {
      return new Promise((resolve, reject) => {
        const delay = delayFor(this);
        const fr = new win.FileReader();
        fr.onload = () =>
          setTimeout(
            () => (delay === 'fail' ? reject(new Error('unreadable')) : resolve(fr.result as ArrayBuffer)),
            delay === 'fail' ? 0 : delay,
          );
        fr.readAsArrayBuffer(this);
      });
    },
  });
  undo.push(() =>
    had ? Object.defineProperty(proto, 'arrayBuffer', had) : Reflect.deleteProperty(proto, 'arrayBuffer'),
  );
}

const open = (url = 'ws://example.test/x'): FakeSocket => {
  const ws = new h.WS(url);
  ws.open();
  return ws;
};
const text = (data: ArrayBuffer): string => new TextDecoder().decode(data);

describe('sent frames', () => {
  test('every data type is recorded byte-exact (views: only their bytes)', async () => {
    h = setup();
    const ws = open();
    const backing = new Uint8Array([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const i16 = new Int16Array([0x0102, -2, 0x7fff]);
    ws.send('plain');
    ws.send('héllo → 🌍');
    ws.send('lone \uD800 surrogate');
    ws.send(new Uint8Array([10, 20, 30]).buffer);
    ws.send(backing.subarray(3, 7));
    ws.send(i16.subarray(1));
    ws.send(new DataView(backing.buffer, 8, 2));
    ws.send(new h.win.Blob([new Uint8Array([0xca, 0xfe]), 'ok']));
    ws.send(new Uint8Array(0));
    ws.send('');
    await vi.waitFor(() => expect(h.frames()).toHaveLength(10));
    const frames = h.frames();
    expect(frames.map((f) => f.opcode)).toEqual([
      'text',
      'text',
      'text',
      'binary',
      'binary',
      'binary',
      'binary',
      'binary',
      'binary',
      'text',
    ]);
    expect(frames.every((f) => f.direction === 'sent' && f.socketId === 1)).toBe(true);
    expect(frames.map((f) => bytesOf(f.data))).toEqual([
      utf8('plain'),
      utf8('héllo → 🌍'),
      [...utf8('lone '), 0xef, 0xbf, 0xbd, ...utf8(' surrogate')],
      [10, 20, 30],
      [3, 4, 5, 6],
      Array.from(new Uint8Array(i16.buffer, 2)),
      [8, 9],
      [0xca, 0xfe, ...utf8('ok')],
      [],
      [],
    ]);
    // Each recorded buffer is exactly the frame (not the page's larger backing buffer).
    expect(frames[4].data.byteLength).toBe(4);
  });

  test("the page reusing its buffer after send doesn't change what was recorded", () => {
    h = setup();
    const ws = open();
    const buf = new Uint8Array([1, 2, 3, 4]);
    ws.send(buf);
    buf.fill(9);
    ws.send(buf.buffer);
    new Uint8Array(buf.buffer).fill(7);
    expect(h.frames().map((f) => bytesOf(f.data))).toEqual([
      [1, 2, 3, 4],
      [9, 9, 9, 9],
    ]);
  });

  test('a frame sent after a Blob is reported after it, even when Blob reads finish out of order', async () => {
    blobReads(window as Win, (b) => (b.size > 100 ? 60 : 5)); // the first Blob is the slowest
    h = setup(); // the hook captures that reader
    const ws = open();
    ws.send(new h.win.Blob([new Uint8Array(1000).fill(1)]));
    ws.send('after the big blob');
    ws.send(new h.win.Blob([new Uint8Array([2, 2])]));
    ws.send(new Uint8Array([3]));
    ws.close(4000, 'bye');
    expect(h.frames()).toEqual([]); // all held behind the first Blob
    await vi.waitFor(() => expect(h.events().filter((e) => e.type === 'close')).toHaveLength(1));
    const events = h.events().filter((e) => e.type === 'frame' || e.type === 'close');
    expect(
      events.map((e) =>
        e.type === 'frame' ? (e.opcode === 'text' ? text(e.data) : `${e.data.byteLength}B`) : 'close',
      ),
    ).toEqual(['1000B', 'after the big blob', '2B', '1B', 'close']);
  });

  test('an unreadable Blob is counted as dropped and does not stall the frames behind it', async () => {
    blobReads(window as Win, () => 'fail');
    h = setup(); // the hook captures that reader
    const ws = open();
    ws.send(new h.win.Blob(['lost']));
    ws.send('kept');
    await vi.waitFor(() => expect(h.frames()).toHaveLength(1));
    expect(text(h.frames()[0].data)).toBe('kept');
    expect(h.posts.at(-1)?.batch.droppedFrames).toBe(1);
    expect(h.hook.stats().droppedFrames).toBe(1);
  });
});

describe('received frames', () => {
  test('text, arraybuffer and blob frames, whatever binaryType the page chose, in order; binaryType untouched', async () => {
    h = setup(); // jsdom's Blob has no arrayBuffer(): the hook reads Blobs with FileReader
    const ws = open();
    expect(ws.binaryType).toBe('blob');
    ws.deliver(new Uint8Array(5000).fill(4));
    ws.deliver('between blobs');
    ws.deliver(new Uint8Array([5, 6]));
    ws.binaryType = 'arraybuffer';
    ws.deliver(new Uint8Array([7, 8, 9]));
    ws.deliver('ünïcödé');
    ws.serverClose(1001, 'going away', false);
    await vi.waitFor(() => expect(h.frames()).toHaveLength(5));
    expect(ws.binaryType).toBe('arraybuffer');
    const frames = h.frames();
    expect(frames.every((f) => f.direction === 'received')).toBe(true);
    expect(frames.map((f) => f.opcode)).toEqual(['binary', 'text', 'binary', 'binary', 'text']);
    expect(frames.map((f) => bytesOf(f.data))).toEqual([
      Array(5000).fill(4),
      utf8('between blobs'),
      [5, 6],
      [7, 8, 9],
      utf8('ünïcödé'),
    ]);
    expect(h.events().at(-1)).toMatchObject({ type: 'close', code: 1001, reason: 'going away', wasClean: false });
  });

  test('received Blobs keep their order when their reads finish out of order', async () => {
    blobReads(window as Win, (b) => 80 - b.size * 10); // later (bigger) Blobs finish first
    h = setup(); // the hook captures that reader
    const ws = open();
    for (let i = 1; i <= 5; i++) {
      ws.deliver(new Uint8Array(i).fill(i));
      ws.deliver(`t${i}`);
    }
    await vi.waitFor(() => expect(h.frames()).toHaveLength(10));
    expect(h.frames().map((f) => (f.opcode === 'text' ? text(f.data) : bytesOf(f.data).join('')))).toEqual([
      '1',
      't1',
      '22',
      't2',
      '333',
      't3',
      '4444',
      't4',
      '55555',
      't5',
    ]);
  });

  test('a page listener mutating the received ArrayBuffer does not change the record', () => {
    h = setup();
    const ws = open();
    ws.binaryType = 'arraybuffer';
    ws.onmessage = (e: MessageEvent) => new Uint8Array(e.data as ArrayBuffer).fill(0);
    ws.deliver(new Uint8Array([1, 2, 3]));
    expect(h.frames().map((f) => bytesOf(f.data))).toEqual([[1, 2, 3]]);
  });
});

describe('socket events', () => {
  test('opening at construction, open with protocol and extensions, error, close; per-socket ids', async () => {
    h = setup();
    const a = new h.WS('ws://example.test/a', ['v1', 'v2']);
    const b = new h.WS('wss://example.test/b');
    a.open('v2', 'permessage-deflate; client_max_window_bits');
    b.fail();
    b.serverClose(1006, '', false);
    a.close(1000, 'done');
    await Promise.resolve();
    const events = h.events().map(({ time, ...rest }) => {
      expect(Math.abs(time - Date.now())).toBeLessThan(60_000); // wall-clock ms
      return rest;
    });
    expect(events).toEqual([
      { type: 'opening', socketId: 1, url: 'ws://example.test/a' },
      { type: 'opening', socketId: 2, url: 'wss://example.test/b' },
      {
        type: 'open',
        socketId: 1,
        url: 'ws://example.test/a',
        protocol: 'v2',
        extensions: 'permessage-deflate; client_max_window_bits',
      },
      { type: 'error', socketId: 2 },
      { type: 'close', socketId: 2, code: 1006, reason: '', wasClean: false },
      { type: 'close', socketId: 1, code: 1000, reason: 'done', wasClean: true },
    ]);
  });
});
