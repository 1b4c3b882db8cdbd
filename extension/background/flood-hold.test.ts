/**
 * The page keeps its frames with the panel open: under a flood the background
 * holds a tab's live batches for its panels and posts a small status instead; the held
 * items go out in order on calm, on request, and before the tab's cap could evict them.
 * Pure: a virtual clock and fake panels that record what they were posted.
 */
import { describe, expect, it } from 'vitest';
import { wireFrameCount } from '../shared/frame-table.js';
import type {
  PanelBatch,
  PanelCursor,
  PanelHeld,
  PanelMessage,
  PanelTail,
  RelayBatch,
  WireCapture,
} from '../shared/messages.js';
import { plainFrame, unpackWire, type PlainFrame, relayBatch } from '../shared/test/plain-capture.js';
import { FloodHold, type PanelSink } from './flood-hold.js';
import { TabBuffers, type BufferLimits } from './tab-buffers.js';

const TAB = 1;

/** A relay batch of `frames` frames of `size` bytes. */
function batch(seq: number, frames: number, size = 10): RelayBatch {
  const events = Array.from({ length: frames }, (_, i) =>
    plainFrame(1, new Uint8Array(size).fill(i & 255), { direction: 'received', time: seq * 1000 + i }),
  );
  return relayBatch(seq, events);
}

class FakePanel implements PanelSink {
  readonly got: PanelMessage[] = [];
  open = true;
  post(message: PanelMessage): boolean {
    if (!this.open) return false;
    this.got.push(message);
    return true;
  }
  batches(): PanelBatch[] {
    return this.got.filter((m): m is PanelBatch => m.type === 'panel-batch');
  }
  /** The seq of every `events` item received, in order. */
  seqs(): number[] {
    return this.batches().flatMap((b) => b.items.flatMap((i) => (i.type === 'events' ? [i.seq] : [])));
  }
  frames(): number {
    return this.batches().reduce(
      (n, b) => n + b.items.reduce((m, i) => m + (i.type === 'events' ? wireFrameCount(i.frameTable) : 0), 0),
      0,
    );
  }
  statuses(): { frames: number; bytes: number }[] {
    return this.got.flatMap((m) => (m.type === 'panel-held' ? [{ frames: m.frames, bytes: m.bytes }] : []));
  }
  /** Each live tail posted: its frames' times (a frame's time says its batch and place), in order. */
  tails(): number[][] {
    return this.got.flatMap((m) =>
      m.type === 'panel-tail'
        ? [
            (m as PanelTail).items.flatMap((t) =>
              unpackWire({ events: [], ...t } as WireCapture)
                .filter((e): e is PlainFrame => e.type === 'frame')
                .map((f) => f.time),
            ),
          ]
        : [],
    );
  }
  cursor(): PanelCursor | undefined {
    const b = this.batches().at(-1);
    return b && { bufferId: b.bufferId, cursor: b.cursor, framesThrough: b.framesThrough };
  }
}

function setup(limits: Partial<BufferLimits> = {}) {
  let t = 0;
  const buffers = new TabBuffers({ bufferId: 'life', limits, now: () => t });
  const hold = new FloodHold(buffers, () => t);
  return { buffers, hold, advance: (ms: number) => void (t += ms) };
}

/** Feeds `count` batches of `frames` frames, one per 100 ms (the hook's flood cadence), from seq `from`. */
function flood(s: ReturnType<typeof setup>, from: number, count: number, frames: number, size = 10): number {
  for (let i = 0; i < count; i++) {
    s.hold.ingest(TAB, batch(from + i, frames, size));
    s.advance(100);
  }
  return from + count;
}

describe('FloodHold', () => {
  it('posts batches live while the tab is calm', () => {
    const s = setup();
    const panel = new FakePanel();
    s.hold.subscribe(TAB, panel);
    flood(s, 1, 5, 20); // 200 frames/s
    expect(panel.seqs()).toEqual([1, 2, 3, 4, 5]);
    expect(panel.statuses()).toEqual([]);
    expect(s.hold.tick()).toBeNull();
  });

  it('holds batches under a flood, posts the held count at most every 400 ms, and sends them in order once it calms', () => {
    const s = setup();
    const panel = new FakePanel();
    s.hold.subscribe(TAB, panel);
    const next = flood(s, 1, 20, 1000); // 10,000 frames/s for 2 s
    expect(s.hold.isFlooding(TAB)).toBe(true);
    // The first batch is over the rule on its own (1,000 frames in 250 ms): nothing went out live.
    expect(panel.seqs()).toEqual([]);
    const statuses = panel.statuses();
    expect(statuses.length).toBeGreaterThanOrEqual(3);
    expect(statuses.length).toBeLessThanOrEqual(6); // 2 s at one per 400 ms
    expect(statuses[0]).toMatchObject({ frames: 1000 });
    expect(statuses.at(-1)!.frames).toBeGreaterThanOrEqual(16_000);
    expect(statuses.every((x, i) => i === 0 || x.frames > statuses[i - 1]!.frames)).toBe(true);
    // Calm: no batch for 300 ms (the timer's check).
    expect(s.hold.tick()).toBeGreaterThan(0);
    s.advance(300);
    expect(s.hold.tick()).toBeNull();
    expect(panel.seqs()).toEqual(Array.from({ length: next - 1 }, (_, i) => i + 1));
    expect(panel.frames()).toBe(20_000);
    expect(panel.statuses().at(-1)).toEqual({ frames: 0, bytes: 0 });
    // Split as the backlog is (bounded messages), and live again after.
    expect(panel.batches().every((b) => b.items.length <= 5)).toBe(true);
    s.hold.ingest(TAB, batch(next, 3));
    expect(panel.seqs().at(-1)).toBe(next);
  });

  it('releases once the rate has fallen well under the rule over a second, the new batches after the held ones', () => {
    const s = setup();
    const panel = new FakePanel();
    s.hold.subscribe(TAB, panel);
    let next = flood(s, 1, 5, 1000);
    // 400 frames/s from now on (batches every 100 ms, so the calm timer never fires).
    next = flood(s, next, 5, 40);
    expect(panel.seqs()).toEqual([]); // the flood's batches are still within the last second
    next = flood(s, next, 6, 40);
    expect(panel.seqs()).toEqual(Array.from({ length: next - 1 }, (_, i) => i + 1));
    expect(s.hold.isFlooding(TAB)).toBe(false);
  });

  it("a starved page's bursts (gaps under 300 ms, quiet batches between) do not end the hold", () => {
    const s = setup();
    const panel = new FakePanel();
    s.hold.subscribe(TAB, panel);
    let seq = 1;
    for (let i = 0; i < 10; i++) {
      s.hold.ingest(TAB, batch(seq++, 1500)); // a burst
      s.advance(250);
      expect(s.hold.tick()).not.toBeNull();
      s.hold.ingest(TAB, batch(seq++, 20)); // a trickle
      s.advance(250);
      expect(s.hold.tick()).not.toBeNull();
    }
    expect(panel.seqs()).toEqual([]);
    s.advance(300);
    expect(s.hold.tick()).toBeNull();
    expect(panel.seqs()).toEqual(Array.from({ length: seq - 1 }, (_, i) => i + 1));
  });

  it('sends what is held on request and holds again while the flood goes on', () => {
    const s = setup();
    const panel = new FakePanel();
    s.hold.subscribe(TAB, panel);
    let next = flood(s, 1, 4, 1000);
    s.hold.release(TAB, panel);
    expect(panel.seqs()).toEqual([1, 2, 3, 4]);
    expect(panel.statuses().at(-1)).toEqual({ frames: 0, bytes: 0 });
    next = flood(s, next, 2, 1000);
    expect(panel.seqs()).toEqual([1, 2, 3, 4]);
    expect(panel.statuses().at(-1)!.frames).toBeGreaterThan(0);
    s.advance(300);
    s.hold.tick();
    expect(panel.seqs()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(next).toBe(7);
  });

  it('releases before the held bytes would pass the tab cap, so the cap never evicts a held frame', () => {
    // 1 MiB cap; batches of 300 frames × 1 KiB (~310 KiB stored each): 3 fit.
    const s = setup({ maxBytes: 1024 * 1024, maxHuskBytes: 0 });
    const panel = new FakePanel();
    s.hold.subscribe(TAB, panel);
    const next = flood(s, 1, 40, 300, 1024);
    expect(s.hold.isFlooding(TAB)).toBe(true);
    // Released every 3 batches during the flood, each time before the held bytes passed the cap.
    expect(panel.seqs().length).toBeGreaterThan(30);
    for (const x of panel.statuses()) expect(x.bytes).toBeLessThanOrEqual(1024 * 1024);
    expect(s.hold.releases.cap).toBeGreaterThan(10);
    s.advance(300);
    s.hold.tick();
    expect(panel.seqs()).toEqual(Array.from({ length: next - 1 }, (_, i) => i + 1));
    expect(panel.frames()).toBe(12_000);
    // Nothing reported lost: every frame was sent before the cap evicted it.
    expect(
      panel
        .batches()
        .flatMap((b) => b.items)
        .filter((i) => i.type === 'dropped' || i.type === 'evicted'),
    ).toEqual([]);
    expect(s.buffers.stats(TAB).evictedFrames).toBeGreaterThan(0); // the cap did evict, what was already sent
  });

  it('releases before the held events would pass the event cap', () => {
    const s = setup({ maxEvents: 10_000, maxHuskBytes: 0 });
    const panel = new FakePanel();
    s.hold.subscribe(TAB, panel);
    flood(s, 1, 30, 1000);
    s.advance(300);
    s.hold.tick();
    expect(panel.frames()).toBe(30_000);
    expect(
      panel
        .batches()
        .flatMap((b) => b.items)
        .some((i) => i.type === 'dropped'),
    ).toBe(false);
  });

  it('a panel that disconnects mid-hold gets every held batch once when it resubscribes from its cursor', () => {
    const s = setup();
    const panel = new FakePanel();
    s.hold.subscribe(TAB, panel);
    flood(s, 1, 2, 10); // live: seq 1, 2
    let next = flood(s, 3, 6, 1000); // held: 3 … 8
    // The port drops in the middle of a release: the panel got some of the held batches.
    const firstPanelSeqs = panel.seqs();
    panel.open = false;
    s.hold.release(TAB, panel);
    s.hold.unsubscribe(TAB, panel);
    next = flood(s, next, 3, 1000); // 9 … 11 arrive while it is away
    const again = new FakePanel();
    s.hold.subscribe(TAB, again, panel.cursor());
    const all = [...firstPanelSeqs, ...again.seqs()];
    // Still flooding: the backlog came at once on subscribe, the hold goes on for what follows.
    next = flood(s, next, 2, 1000);
    s.advance(300);
    s.hold.tick();
    expect([...firstPanelSeqs, ...again.seqs()]).toEqual(Array.from({ length: next - 1 }, (_, i) => i + 1));
    expect(all).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));
  });

  it('a panel that disconnects in the middle of a split release resumes after the last message it got', () => {
    const s = setup({ maxBatchEvents: 1000 }); // one relay batch of 1,000 frames per message
    let accepted = 0;
    const panel = new FakePanel();
    const flaky: PanelSink = { post: (m) => (m.type === 'panel-batch' && ++accepted > 3 ? false : panel.post(m)) };
    s.hold.subscribe(TAB, flaky);
    accepted = 0;
    const next = flood(s, 1, 8, 1000);
    s.hold.release(TAB, flaky); // 3 of the 8 held go out, then the port is gone
    s.hold.unsubscribe(TAB, flaky);
    expect(panel.seqs()).toEqual([1, 2, 3]);
    const again = new FakePanel();
    s.hold.subscribe(TAB, again, panel.cursor());
    expect([...panel.seqs(), ...again.seqs()]).toEqual(Array.from({ length: next - 1 }, (_, i) => i + 1));
  });

  it('two panels on one tab: each gets every batch once, in order, whatever the other asked for', () => {
    const s = setup();
    const a = new FakePanel();
    const b = new FakePanel();
    s.hold.subscribe(TAB, a);
    let next = flood(s, 1, 2, 10);
    s.hold.subscribe(TAB, b); // a late panel: the backlog
    next = flood(s, next, 4, 1000);
    s.hold.release(TAB, a); // only a asked
    expect(a.seqs()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(b.seqs()).toEqual([1, 2]);
    next = flood(s, next, 2, 1000);
    s.advance(300);
    s.hold.tick();
    const every = Array.from({ length: next - 1 }, (_, i) => i + 1);
    expect(a.seqs()).toEqual(every);
    expect(b.seqs()).toEqual(every);
  });

  it('a panel opened during a flood gets the backlog at once, then holds', () => {
    const s = setup();
    let next = flood(s, 1, 5, 1000);
    const panel = new FakePanel();
    s.hold.subscribe(TAB, panel);
    expect(panel.seqs()).toEqual([1, 2, 3, 4, 5]);
    next = flood(s, next, 3, 1000);
    expect(panel.seqs()).toEqual([1, 2, 3, 4, 5]);
    expect(panel.statuses()[0]).toMatchObject({ frames: 1000 });
    s.advance(300);
    s.hold.tick();
    expect(panel.seqs()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(next).toBe(9);
  });

  it('refused-frame reports are held like any item where a panel holds', () => {
    const s = setup();
    const panel = new FakePanel();
    s.hold.subscribe(TAB, panel);
    flood(s, 1, 3, 1000);
    s.buffers.refuse(TAB, { ...batch(4, 5), documentId: 'other' }, 'not captured');
    s.hold.forward(TAB, s.buffers.flushRefused(TAB));
    expect(panel.batches()).toHaveLength(1); // the subscribe backlog only
    s.advance(300);
    s.hold.tick();
    const types = panel.batches().flatMap((b) => b.items.map((i) => i.type));
    expect(types).toEqual(['events', 'events', 'events', 'dropped']);
  });
});

describe('FloodHold at the start of a flood', () => {
  it('holds from the first batch over the rule, although the last second has not seen the rate yet', () => {
    const s = setup();
    const panel = new FakePanel();
    s.hold.subscribe(TAB, panel);
    s.hold.ingest(TAB, batch(1, 600)); // over the rule, under the calm rate over a second
    expect(s.hold.tick()).not.toBeNull();
    s.advance(100);
    s.hold.ingest(TAB, batch(2, 300));
    expect(s.hold.tick()).not.toBeNull();
    expect(panel.seqs()).toEqual([]);
    expect(panel.statuses()[0]).toMatchObject({ frames: 600 });
  });
});

describe('FloodHold and a page that stalls mid-flood', () => {
  it('a flood back within a second of a 300 ms gap was not calm: the tab waits twice as long next time, up to 2.4 s, and 300 ms again after 10 s of quiet', () => {
    const s = setup();
    const panel = new FakePanel();
    s.hold.subscribe(TAB, panel);
    let next = flood(s, 1, 5, 1000);
    s.advance(200); // 300 ms since the last batch
    s.hold.tick();
    expect(panel.seqs()).toHaveLength(5); // looked calm: released
    next = flood(s, next, 3, 1000); // the flood was back 100 ms later
    s.advance(200);
    expect(s.hold.tick()).toBe(300); // 600 ms now: 300 more
    expect(panel.seqs()).toHaveLength(5);
    s.advance(300);
    expect(s.hold.tick()).toBeNull();
    expect(panel.seqs()).toHaveLength(8);
    for (let round = 0; round < 4; round++) {
      next = flood(s, next, 3, 1000);
      s.advance(2400);
      s.hold.tick();
    }
    next = flood(s, next, 3, 1000);
    s.advance(2200);
    expect(s.hold.tick()).toBe(100); // capped at 2.4 s
    s.advance(100);
    s.hold.tick();
    s.advance(10_000);
    next = flood(s, next, 3, 1000);
    s.advance(200);
    expect(s.hold.tick()).toBeNull(); // 300 ms again
    expect(panel.seqs()).toEqual(Array.from({ length: next - 1 }, (_, i) => i + 1));
  });
  it('posts with each status a live tail: the newest frames held, advancing from one status to the next, and the rates', () => {
    const s = setup();
    const panel = new FakePanel();
    s.hold.subscribe(TAB, panel);
    flood(s, 1, 20, 1000); // 10,000 frames/s for 2 s, one connection
    const tails = panel.tails();
    expect(tails.length).toBeGreaterThanOrEqual(4);
    // Each is the newest 20 frames of the connection when it was posted: the last rows of the newest batch.
    for (const tail of tails) {
      expect(tail.length).toBe(20);
      expect(tail.every((t, i) => i === 0 || t === tail[i - 1]! + 1)).toBe(true);
      expect(tail.at(-1)! % 1000).toBe(999);
    }
    expect(tails.every((t, i) => i === 0 || t[0]! > tails[i - 1]![0]!)).toBe(true);
    // The tail goes right before its status, and the status has the rates and the connection's share.
    const last = panel.got.at(-1) as PanelHeld;
    expect(panel.got.at(-2)!.type).toBe('panel-tail');
    expect(last.arriving).toBe(10_000);
    expect(last.heldPerSecond).toBe(10_000);
    expect(last.connections).toEqual([{ connectionId: 'doc:1', frames: last.frames, perSecond: 10_000 }]);
  });

  it('sends an empty tail before the held frames go out, so no sampled frame is listed twice', () => {
    const s = setup();
    const panel = new FakePanel();
    s.hold.subscribe(TAB, panel);
    let next = flood(s, 1, 6, 1000);
    s.hold.release(TAB, panel); // "Show now" mid-flood
    next = flood(s, next, 6, 1000);
    s.advance(300);
    s.hold.tick(); // calm
    // Every batch follows an empty tail, given after the last sample: what the panel lists as sampled is gone first.
    let sampled = false;
    for (const m of panel.got) {
      if (m.type === 'panel-tail') sampled = m.items.length > 0;
      if (m.type === 'panel-batch') expect(sampled).toBe(false);
    }
    expect(panel.tails().filter((t) => t.length === 0).length).toBe(2);
    expect(panel.seqs()).toEqual(Array.from({ length: next - 1 }, (_, i) => i + 1));
    expect(panel.frames()).toBe(12_000);
  });
});

describe("FloodHold and a flood's first batch", () => {
  /** `frames` frames whose times span `spanMs`. */
  function timed(seq: number, frames: number, spanMs: number, as: 'bytes' | 'base64' = 'bytes'): RelayBatch {
    const events = Array.from({ length: frames }, (_, i) =>
      plainFrame(1, new Uint8Array(10), {
        direction: 'received',
        time: 1_700_000_000_000 + (i * spanMs) / Math.max(1, frames - 1),
      }),
    );
    return relayBatch(seq, events, {}, as);
  }

  for (const as of ['bytes', 'base64'] as const) {
    it(`a batch of 250 frames received within 25 ms (10,000 frames/s) starts the hold by itself (${as} table): the flood is held from its first frame`, () => {
      const s = setup();
      const panel = new FakePanel();
      s.hold.subscribe(TAB, panel);
      s.hold.ingest(TAB, timed(1, 250, 25, as));
      expect(panel.seqs()).toEqual([]);
      expect(panel.statuses()).toEqual([{ frames: 250, bytes: expect.any(Number) }]);
      s.advance(300);
      s.hold.tick();
      expect(panel.seqs()).toEqual([1]);
    });
  }

  it('a small batch, or one whose frames came slower than the rule, goes out live', () => {
    const s = setup();
    const panel = new FakePanel();
    s.hold.subscribe(TAB, panel);
    s.hold.ingest(TAB, timed(1, 99, 1)); // under 100 frames
    s.advance(1000);
    s.hold.ingest(TAB, timed(2, 400, 400)); // 1,000 frames/s
    s.advance(1000);
    s.hold.ingest(TAB, timed(3, 400, 400, 'base64'));
    expect(panel.seqs()).toEqual([1, 2, 3]);
  });
});
