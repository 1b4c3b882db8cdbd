import { describe, expect, it } from 'vitest';
import type { HostMessage } from '../../inspector-app/src/protocol/messages.js';
import { isHostMessage } from '../../inspector-app/src/protocol/messages.js';
import type { PanelBatch, PanelItem } from '../shared/messages.js';
import { fillBuffers, plainFrame, wireCapture } from '../shared/test/plain-capture.js';
import { RESTART_REASON, TabBuffers } from '../background/tab-buffers.js';
import { FRAME_DROP_REASON, HOOK_LOSS_REASON } from './convert.js';
import { PortTransport, type PortLike, type Timers } from './port-transport.js';
import { framesOf } from '../shared/test/frames-of.js';

class FakePort implements PortLike {
  readonly posted: unknown[] = [];
  private readonly messageListeners: ((m: unknown) => void)[] = [];
  private readonly disconnectListeners: (() => void)[] = [];
  disconnected = false;
  readonly onMessage = { addListener: (l: (m: unknown) => void) => void this.messageListeners.push(l) };
  readonly onDisconnect = { addListener: (l: () => void) => void this.disconnectListeners.push(l) };
  postMessage(m: unknown): void {
    if (this.disconnected) throw new Error('disconnected');
    this.posted.push(m);
  }
  disconnect(): void {
    this.disconnected = true;
  }
  /** Background side. */
  receive(m: unknown): void {
    for (const l of this.messageListeners) l(m);
  }
  drop(): void {
    this.disconnected = true;
    for (const l of this.disconnectListeners) l();
  }
}

class FakeTimers implements Timers {
  readonly due: (() => void)[] = [];
  setTimeout(fn: () => void): unknown {
    this.due.push(fn);
    return this.due.length;
  }
  clearTimeout(): void {}
  setInterval(): unknown {
    return 0;
  }
  clearInterval(): void {}
  runAll(): void {
    for (const fn of this.due.splice(0)) fn();
  }
}

function setup() {
  const ports: FakePort[] = [];
  const timers = new FakeTimers();
  const transport = new PortTransport({
    connect: () => (ports.push(new FakePort()), ports.at(-1)!),
    timers,
    pingMs: 0,
  });
  const got: HostMessage[] = [];
  return { ports, timers, transport, got, listen: () => transport.listen((m) => got.push(m)) };
}

const batch = (items: PanelItem[], cursor = 1, bufferId = 'life-1', framesThrough = 0): PanelBatch => ({
  type: 'panel-batch',
  bufferId,
  cursor,
  framesThrough,
  items,
});

describe('PortTransport', () => {
  it('subscribes on connect and buffers messages until the app listens', () => {
    const { ports, got, listen } = setup();
    expect(ports[0]!.posted).toEqual([{ type: 'panel-subscribe' }]);
    ports[0]!.receive(batch([{ type: 'navigated', url: 'https://a.test/', time: 5 }]));
    listen();
    expect(got).toEqual([
      { type: 'hello', protocolVersion: 1, host: 'extension' },
      { type: 'navigated', url: 'https://a.test/', time: 5 },
    ]);
  });

  for (const as of ['base64', 'bytes'] as const) {
    it(`turns relay events into host messages: connection ids, frames sliced out of one ${as} buffer and grouped`, () => {
      const { ports, got, listen } = setup();
      listen();
      const capture = wireCapture(
        [
          { type: 'opening', socketId: 3, url: 'wss://x/', time: 1 },
          { type: 'open', socketId: 3, url: 'wss://x/', protocol: 'p', extensions: '', time: 2 },
          plainFrame(3, [0, 1, 2, 255], { time: 3 }),
          plainFrame(3, [104, 105], { direction: 'received', opcode: 'text', time: 4 }),
          { type: 'error', socketId: 3, time: 5 },
          { type: 'close', socketId: 3, code: 1006, reason: '', wasClean: false, time: 6 },
        ],
        as,
      );
      ports[0]!.receive(batch([{ type: 'events', documentId: 'd1', seq: 1, lostBatches: 0, ...capture }]));
      const msgs = got.slice(1);
      expect(msgs.every(isHostMessage)).toBe(true);
      expect(msgs.map((m) => m.type)).toEqual([
        'connection-opening',
        'connection-opened',
        'frames-packed',
        'connection-error',
        'connection-closed',
      ]);
      const frames = framesOf([msgs[2]!]);
      expect(frames.map((f) => [f.connectionId, f.direction, f.opcode, f.time, [...f.data]])).toEqual([
        ['d1:3', 'sent', 'binary', 3, [0, 1, 2, 255]],
        ['d1:3', 'received', 'text', 4, [104, 105]],
      ]);
      expect(frames[0]!.data).toBeInstanceOf(Uint8Array);
      // Views of the batch's 6 bytes that fill them: the worker client transfers that one buffer.
      expect(fillBuffers(frames)).toBe(true);
      expect(new Set(frames.map((f) => f.data.buffer)).size).toBe(1);
    });
  }

  it('reconnects after the port drops, resumes from its cursor and adds nothing twice', () => {
    const { ports, timers, got, listen, transport } = setup();
    listen();
    const events: PanelItem = {
      type: 'events',
      documentId: 'd1',
      seq: 1,
      lostBatches: 0,
      ...wireCapture([{ type: 'opening', socketId: 1, url: 'wss://x/', time: 1 }]),
    };
    ports[0]!.receive(batch([events], 4, 'life-1', 9));
    ports[0]!.drop();
    expect(transport.connections).toBe(1);
    timers.runAll();
    expect(transport.connections).toBe(2);
    expect(ports[1]!.posted).toEqual([
      { type: 'panel-subscribe', since: { bufferId: 'life-1', cursor: 4, framesThrough: 9 } },
    ]);
    ports[1]!.receive(batch([events], 4, 'life-2')); // a replay of what it has
    expect(got.filter((m) => m.type === 'connection-opening')).toHaveLength(1);
    ports[0]!.receive(batch([{ type: 'dropped', count: 1, reason: 'stale port' }])); // the old port is ignored
    expect(got.some((m) => m.type === 'dropped')).toBe(false);
  });

  it('after a restart, counts only the batches this panel really missed', () => {
    const { ports, timers, got, listen } = setup();
    listen();
    const ev = (seq: number): PanelItem => ({
      type: 'events',
      documentId: 'd1',
      seq,
      lostBatches: 0,
      ...wireCapture([]),
    });
    ports[0]!.receive(batch([ev(1), ev(2), ev(3)], 3));
    ports[0]!.drop();
    timers.runAll();
    // The new background saw d1 first at seq 6: batches 1-5 unknown to it; this panel has 1-3.
    ports[1]!.receive(
      batch([{ type: 'gap', documentId: 'd1', seq: 6, missing: 5, reason: RESTART_REASON }, ev(6)], 2, 'life-2'),
    );
    // A document this panel never saw: everything before is lost for it.
    ports[1]!.receive(
      batch([{ type: 'gap', documentId: 'd2', seq: 3, missing: 2, reason: RESTART_REASON }], 3, 'life-2'),
    );
    const inBatches = `${RESTART_REASON} (counted in message batches)`;
    expect(got.filter((m) => m.type === 'dropped')).toEqual([
      { type: 'dropped', count: 2, reason: inBatches },
      { type: 'dropped', count: 2, reason: inBatches },
    ]);
    // Continuity across the restart: nothing to report.
    ports[1]!.receive(
      batch([{ type: 'gap', documentId: 'd1', seq: 7, missing: 0, reason: RESTART_REASON }], 4, 'life-2'),
    );
    expect(got.filter((m) => m.type === 'dropped')).toHaveLength(2);
  });

  it('counts lost frames exactly when the relay sends framesBefore', () => {
    const { ports, timers, got, listen } = setup();
    listen();
    const frame = plainFrame(1, [0]);
    ports[0]!.receive(
      batch(
        [
          {
            type: 'events',
            documentId: 'd1',
            seq: 1,
            lostBatches: 0,
            framesBefore: 0,
            ...wireCapture([frame, frame], 'base64'),
          },
        ],
        1,
      ),
    );
    ports[0]!.drop();
    timers.runAll();
    // The relay had sent 9 frames before batch 4: this panel has 2, so 7 were lost.
    ports[1]!.receive(
      batch(
        [{ type: 'gap', documentId: 'd1', seq: 4, missing: 3, framesBefore: 9, reason: RESTART_REASON }],
        1,
        'life-2',
      ),
    );
    ports[1]!.receive(
      batch(
        [{ type: 'gap', documentId: 'd2', seq: 2, missing: 1, framesBefore: 5, reason: RESTART_REASON }],
        2,
        'life-2',
      ),
    );
    expect(got.filter((m) => m.type === 'dropped')).toEqual([
      { type: 'dropped', count: 7, reason: RESTART_REASON },
      { type: 'dropped', count: 5, reason: RESTART_REASON },
    ]);
  });

  it('passes on dropped counts, hook losses (as deltas) and unreadable bytes', () => {
    const { ports, got, listen } = setup();
    listen();
    ports[0]!.receive(
      batch([
        { type: 'dropped', count: 6, reason: 'cap' },
        { type: 'events', documentId: 'd1', seq: 1, lostBatches: 2, ...wireCapture([]) },
        {
          type: 'events',
          documentId: 'd1',
          seq: 2,
          lostBatches: 3,
          droppedFrames: 4,
          ...wireCapture([plainFrame(1, [1])], 'base64'),
          frameBytes: { b64: '***' },
        },
        { type: 'events', documentId: 'd1', seq: 3, lostBatches: 3, droppedFrames: 5, ...wireCapture([]) },
      ]),
    );
    expect(got.filter((m) => m.type === 'dropped').map((m) => m.type === 'dropped' && [m.count, m.reason])).toEqual([
      [6, 'cap'],
      // Items without lostHookFrames (a relay that counts batches only) say so.
      [2, `${HOOK_LOSS_REASON} (counted in batches)`],
      [1, `${HOOK_LOSS_REASON} (counted in batches)`],
      [4, FRAME_DROP_REASON],
      [1, 'frames arrived with bytes the panel could not read'],
      [1, FRAME_DROP_REASON],
    ]);
  });

  it('ignores what is not a panel batch and stops when the extension is gone', () => {
    let calls = 0;
    const logs: string[] = [];
    const t = new PortTransport({
      connect: () => {
        calls++;
        throw new Error('Extension context invalidated.');
      },
      timers: new FakeTimers(),
      log: (m) => logs.push(m),
    });
    expect(calls).toBe(1);
    expect(logs[0]).toMatch(/cannot reach the extension/);
    t.close();
    const { ports, got, listen } = setup();
    listen();
    ports[0]!.receive({ type: 'frames', frames: [] });
    ports[0]!.receive(null);
    expect(got).toHaveLength(1);
  });

  it('works end to end with TabBuffers: a late panel sees the backlog, then live batches', () => {
    const buffers = new TabBuffers({ bufferId: 'life-1' });
    const relay = (seq: number, size: number) =>
      buffers.ingest(1, {
        type: 'relay-batch',
        documentId: 'd',
        documentUrl: 'u',
        isTopFrame: true,
        seq,
        lostBatches: 0,
        ...wireCapture([plainFrame(1, new Uint8Array(size), { direction: 'received', time: seq })]),
      });
    relay(1, 3);
    relay(2, 4);
    const { ports, got, listen } = setup();
    listen();
    for (const b of buffers.backlog(1)) ports[0]!.receive(b);
    ports[0]!.receive(relay(3, 5));
    const sizes = framesOf(got).map((f) => f.data.length);
    expect(sizes).toEqual([3, 4, 5]);
  });
});

describe('PortTransport under a large backlog', () => {
  it('converts and delivers a slice per task and the rest in later tasks, in order, so the panel is never held', () => {
    let clock = 0;
    const ports: FakePort[] = [];
    const timers = new FakeTimers();
    // Each clock reading advances 1 ms: a slice of 8 ms ends after a few checks.
    const transport = new PortTransport({
      connect: () => (ports.push(new FakePort()), ports.at(-1)!),
      timers,
      pingMs: 0,
      sliceMs: 8,
      now: () => clock++,
    });
    const items: PanelItem[] = [];
    for (let k = 0; k < 20; k++) {
      const events = Array.from({ length: 500 }, (_, i) => ({
        type: 'opening' as const,
        socketId: k * 500 + i,
        url: `wss://x/${k * 500 + i}`,
        time: 1,
      }));
      items.push({ type: 'events', documentId: 'doc', seq: k + 1, lostBatches: 0, ...wireCapture(events) });
    }
    ports[0]!.receive(batch(items, 20));
    const got: HostMessage[] = [];
    transport.listen((m) => got.push(m));
    expect(got.length).toBeGreaterThan(0);
    expect(got.length).toBeLessThan(1000); // one slice, not all 10,001
    let tasks = 1;
    while (transport.queued > 0 && tasks < 10_000) {
      timers.runAll();
      tasks++;
    }
    expect(tasks).toBeGreaterThan(10);
    expect(got).toHaveLength(10_001);
    expect(got.slice(1).map((m) => (m.type === 'connection-opening' ? m.url : m.type))).toEqual(
      Array.from({ length: 10_000 }, (_, i) => `wss://x/${i}`),
    );
  });
});

describe('PortTransport under a flood hold', () => {
  it("passes the background's held count on to the app, and asks for the held items on show-held", () => {
    const { ports, got, listen, transport } = setup();
    listen();
    ports[0]!.receive({ type: 'panel-held', frames: 1200, bytes: 1_300_000 });
    ports[0]!.receive({ type: 'panel-held', frames: -3, bytes: 1 }); // refused by shape
    ports[0]!.receive({ type: 'panel-held', frames: 0, bytes: 0 });
    expect(got.filter((m) => m.type === 'held')).toEqual([
      { type: 'held', frames: 1200, bytes: 1_300_000 },
      { type: 'held', frames: 0, bytes: 0 },
    ]);
    transport.send({ type: 'show-held' });
    expect(ports[0]!.posted).toContainEqual({ type: 'panel-release' });
  });

  it('a held count arriving after items is delivered after them (in order)', () => {
    const { ports, got, listen } = setup();
    ports[0]!.receive(batch([{ type: 'navigated', url: 'https://a.test/', time: 5 }]));
    ports[0]!.receive({ type: 'panel-held', frames: 0, bytes: 0 });
    listen();
    expect(got.map((m) => m.type)).toEqual(['hello', 'navigated', 'held']);
  });
});

describe('PortTransport: a held count does not outlive its port', () => {
  it('clears the held count when the port drops (the new subscription gets what was held as its backlog)', () => {
    const { ports, got, listen, timers } = setup();
    listen();
    ports[0]!.receive({ type: 'panel-held', frames: 500, bytes: 5000 });
    ports[0]!.drop();
    timers.runAll();
    expect(got.filter((m) => m.type === 'held')).toEqual([
      { type: 'held', frames: 500, bytes: 5000 },
      { type: 'held', frames: 0, bytes: 0 },
    ]);
    expect(ports).toHaveLength(2);
  });
});

describe('PortTransport: the live tail under a flood', () => {
  const tailItem = (from: number, as: 'bytes' | 'blob') => {
    const capture = wireCapture(
      [from, from + 1].map((n) => plainFrame(3, [n, 0, 0], { direction: 'received', time: n })),
      'bytes',
    );
    const bytes = (capture.frameBytes as { bytes: Uint8Array<ArrayBuffer> }).bytes;
    return {
      documentId: 'doc',
      frameTable: capture.frameTable,
      frameBytes: as === 'blob' ? { blob: new Blob([bytes]) } : { bytes },
    };
  };
  const tailFirstBytes = (m: HostMessage) => (m.type === 'tail' ? m.frames.map((f) => f.data[0]) : null);

  it('passes the tail on as frames, in line with the held count and its rates, a Blob read first', async () => {
    const { ports, got, listen } = setup();
    listen();
    ports[0]!.receive({ type: 'panel-tail', items: [tailItem(10, 'blob'), tailItem(20, 'bytes')] });
    ports[0]!.receive({
      type: 'panel-held',
      frames: 900,
      bytes: 9000,
      arriving: 5000,
      heldPerSecond: 5000,
      connections: [{ connectionId: 'doc:3', frames: 900, perSecond: 5000 }, { connectionId: 7 }],
    });
    // The held count waits behind the tail, whose Blob is being read.
    expect(got.map((m) => m.type)).toEqual(['hello']);
    await expect.poll(() => got.length).toBe(3);
    const [, tail, held] = got;
    expect(tailFirstBytes(tail!)).toEqual([10, 11, 20, 21]);
    expect(tail!.type === 'tail' && tail.frames[0]).toMatchObject({
      connectionId: 'doc:3',
      direction: 'received',
      time: 10,
    });
    expect(isHostMessage(tail)).toBe(true);
    expect(held).toEqual({
      type: 'held',
      frames: 900,
      bytes: 9000,
      arriving: 5000,
      heldPerSecond: 5000,
      connections: [{ connectionId: 'doc:3', frames: 900, perSecond: 5000 }],
    });
  });

  it('clears the tail when the port drops, before the new subscription brings what it sampled', () => {
    const { ports, got, listen, timers } = setup();
    listen();
    ports[0]!.receive({ type: 'panel-tail', items: [tailItem(10, 'bytes')] });
    ports[0]!.receive({ type: 'panel-held', frames: 2, bytes: 6 });
    ports[0]!.drop();
    timers.runAll();
    expect(got.map((m) => (m.type === 'tail' ? `tail ${m.frames.length}` : m.type))).toEqual([
      'hello',
      'tail 2',
      'held',
      'tail 0',
      'held',
    ]);
  });
});
