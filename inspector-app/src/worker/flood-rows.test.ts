import { describe, expect, it } from 'vitest';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import zlib from 'node:zlib';
import type { FrameSummary, FromWorker, IngestFrame } from './api.js';
import { createDispatcher } from './dispatcher.js';
import { WorkerHandlers } from './handlers.js';
import { numberedFrames } from './test/numbered-frames.js';

const cbor = (v: unknown) => new CborEncoder().encode(v);
const frame = numberedFrames({ connectionId: 'c' });

/** A dispatcher with a hand-driven clock and timers: `advance` runs the timers that are due. */
function floodRig() {
  const posts: FromWorker[] = [];
  let clock = 0;
  const timers: { at: number; run: () => void }[] = [];
  const yields: (() => void)[] = [];
  const dispatch = createDispatcher((m) => posts.push(m), {
    now: () => clock,
    sliceMs: 5,
    yieldTo: (next) => yields.push(next),
    flood: {
      framesPerWindow: 100,
      windowMs: 50,
      calmMs: 150,
      later: (run, ms) => timers.push({ at: clock + ms, run }),
    },
  });
  const advance = (ms: number) => {
    clock += ms;
    for (let guard = 0; guard < 10_000; guard++) {
      const due = timers.findIndex((t) => t.at <= clock);
      if (due >= 0) {
        timers.splice(due, 1)[0]!.run();
        continue;
      }
      const next = yields.shift();
      if (!next) return;
      next();
    }
  };
  /** The newest row posted for each frame, in the order rows were first posted. */
  const rows = (): Map<number, FrameSummary> => {
    const out = new Map<number, FrameSummary>();
    for (const p of posts) if (p.type === 'summaries') for (const s of p.summaries) out.set(s.frameId, s);
    return out;
  };
  const posted = () =>
    posts
      .filter((p): p is Extract<FromWorker, { type: 'summaries' }> => p.type === 'summaries')
      .flatMap((p) => p.summaries);
  /** Lets the worker's 50 ms row flush (a real timer) run. */
  const settle = () => new Promise((r) => setTimeout(r, 70));
  return { dispatch, advance, rows, posted, posts, settle };
}

/** What the row of each frame is when read at once, one frame at a time (no flood). */
function eagerRows(frames: readonly IngestFrame[]): Map<number, FrameSummary> {
  const h = new WorkerHandlers();
  const out = new Map<number, FrameSummary>();
  for (const f of frames) {
    h.store.add(f);
    out.set(f.frameId, h.summarize(f));
  }
  return out;
}

describe('rows under a flood (the worker keeps the bytes, reads rows later)', () => {
  it('lists every frame at once, reads none of a flood until it calms, then reads all in order, as they read without a flood', async () => {
    const rig = floodRig();
    const frames = Array.from({ length: 600 }, (_, i) =>
      frame(cbor({ i, kind: i % 3 ? 'tick' : 'trade', price: i * 1.5 })),
    );
    // 600 frames in 30 ms: a flood (over 100 per 50 ms).
    for (let b = 0; b < 6; b++) {
      rig.dispatch({ type: 'ingest', frames: frames.slice(b * 100, b * 100 + 100) });
      rig.advance(5);
    }
    await rig.settle();
    const during = rig.rows();
    expect(during.size).toBe(600); // nothing missing from the list
    const waiting = [...during.values()].filter((r) => r.waiting);
    // The first window's frames came before the flood was seen; the rest wait.
    expect(waiting.length).toBeGreaterThanOrEqual(500);
    for (const r of waiting)
      expect(r).toMatchObject({
        format: null,
        size: frames[r.frameId - frames[0]!.frameId]!.data.byteLength,
        direction: 'received',
      });
    // Calm: every waiting row is read, in frame order, and equals the row read without a flood.
    rig.advance(1_000);
    const after = rig.rows();
    const expected = eagerRows(
      frames.map((f) => ({
        ...f,
        data: cbor({
          i: f.frameId - frames[0]!.frameId,
          kind: (f.frameId - frames[0]!.frameId) % 3 ? 'tick' : 'trade',
          price: (f.frameId - frames[0]!.frameId) * 1.5,
        }),
      })),
    );
    for (const f of frames) expect(after.get(f.frameId)).toEqual(expected.get(f.frameId));
    const finals = rig
      .posted()
      .filter((r) => !r.waiting)
      .map((r) => r.frameId);
    expect(finals).toEqual([...finals].sort((a, b) => a - b));
  });

  it('reads the rows in view at once, while the flood goes on', async () => {
    const rig = floodRig();
    const frames = Array.from({ length: 400 }, (_, i) => frame(cbor({ seq: i, note: 'x'.repeat(i % 40) })));
    rig.dispatch({ type: 'ingest', frames });
    await rig.settle();
    const inView = frames.slice(380, 400).map((f) => f.frameId);
    expect(inView.every((id) => rig.rows().get(id)!.waiting)).toBe(true);
    rig.dispatch({ type: 'view', frameIds: inView });
    const rows = rig.rows();
    for (const id of inView)
      expect(rows.get(id)).toMatchObject({ format: 'cbor', preview: expect.stringContaining('seq') });
    expect(rows.get(inView[0]! - 1)!.waiting).toBe(true); // out of view: still waiting
  });

  it('answers a request on a waiting frame as if it had been read (its predecessors first)', () => {
    const rig = floodRig();
    const frames = Array.from({ length: 300 }, (_, i) => frame(cbor({ n: i })));
    rig.dispatch({ type: 'ingest', frames });
    const last = frames.at(-1)!.frameId;
    rig.dispatch({ type: 'call', callId: 1, method: 'decode', params: { frameId: last, format: 'auto' } });
    const result = rig.posts.find((p) => p.type === 'result') as Extract<FromWorker, { type: 'result' }>;
    expect(result.result).toMatchObject({ frameId: last, format: 'cbor' });
    // The rows before it were read (in order) and reached the list before the answer.
    const before = rig.posts.slice(0, rig.posts.indexOf(result));
    const read = new Set(
      before.flatMap((p) =>
        p.type === 'summaries' ? p.summaries.filter((s) => !s.waiting).map((s) => s.frameId) : [],
      ),
    );
    expect(frames.every((f) => read.has(f.frameId))).toBe(true);
  });

  it('keeps a zlib stream in order: a waiting stream message in view is read after the ones before it', async () => {
    const rig = floodRig();
    // One deflate context across messages, each ending in a sync flush: each needs the ones before it.
    const texts = Array.from({ length: 150 }, (_, i) => JSON.stringify({ i, word: 'repeated words compress well' }));
    const frames = (await syncFlushed(texts.map((t) => new TextEncoder().encode(t)))).map((data) => frame(data));
    rig.dispatch({ type: 'ingest', frames });
    rig.dispatch({ type: 'view', frameIds: [frames.at(-1)!.frameId] });
    const row = rig.rows().get(frames.at(-1)!.frameId)!;
    expect(row.waiting).toBeUndefined();
    expect(row.compression).toMatch(/^zlib stream → json/);
    expect(row).toEqual(eagerRows(frames).get(frames.at(-1)!.frameId));
  });

  it('does not defer while the list filters by what a row says (the filters need every row read)', async () => {
    const rig = floodRig();
    rig.dispatch({ type: 'defer-rows', allowed: false });
    const frames = Array.from({ length: 300 }, (_, i) => frame(cbor({ n: i })));
    rig.dispatch({ type: 'ingest', frames });
    await rig.settle();
    expect(rig.rows().size).toBe(300);
    expect([...rig.rows().values()].filter((r) => r.waiting)).toEqual([]);
  });

  it('a lost frame keeps its place among waiting rows; an evicted waiting frame is never read', async () => {
    const rig = floodRig();
    const frames = Array.from({ length: 200 }, (_, i) => frame(cbor({ n: i })));
    const lost = frame(new Uint8Array(0), { lost: { size: 99, reason: 'dropped: too large' } });
    rig.dispatch({ type: 'ingest', frames: [...frames, lost] });
    await rig.settle();
    expect(rig.rows().get(lost.frameId)).toMatchObject({ lost: 'dropped: too large', size: 99 });
    rig.dispatch({ type: 'call', callId: 1, method: 'setCap', params: { bytes: 200 } });
    rig.advance(1_000);
    const evicted = (rig.posts.find((p) => p.type === 'result') as Extract<FromWorker, { type: 'result' }>).result as {
      evictedIds: number[];
    };
    expect(evicted.evictedIds.length).toBeGreaterThan(100);
    const readAfter = new Set(
      rig
        .posted()
        .filter((r) => !r.waiting && !r.lost)
        .map((r) => r.frameId),
    );
    // A frame evicted before it was read gets no late row (the list removed it with the eviction).
    const lateForEvicted = evicted.evictedIds.filter(
      (id) =>
        readAfter.has(id) &&
        rig.posted().findIndex((r) => r.frameId === id && !r.waiting) > rig.posted().findIndex((r) => r.frameId === id),
    );
    expect(lateForEvicted).toEqual([]);
  });
});

/** zlib-stream messages: one deflate context, each message ending in a sync flush. */
async function syncFlushed(messages: Uint8Array[]): Promise<Uint8Array[]> {
  const handle = zlib.createDeflate();
  let pending: Buffer[] = [];
  handle.on('data', (c: Buffer) => pending.push(c));
  const out: Uint8Array[] = [];
  for (const m of messages) {
    handle.write(m);
    await new Promise<void>((r) => handle.flush(zlib.constants.Z_SYNC_FLUSH, () => r()));
    const b = Buffer.concat(pending);
    out.push(new Uint8Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)));
    pending = [];
  }
  handle.close();
  return out;
}

describe('reading the waiting rows after a flood (no panel task over 100 ms)', () => {
  it('rests between read slices as long as a slice: the panel and the page keep a core while 30,000 rows are read', () => {
    // Reading costs 1 ms per frame on this clock (each read looks at the clock once).
    let clock = 0;
    let msPerLook = 0;
    const timers: { at: number; run: () => void }[] = [];
    const yields: (() => void)[] = [];
    const posts: FromWorker[] = [];
    const dispatch = createDispatcher((m) => posts.push(m), {
      now: () => (clock += msPerLook),
      sliceMs: 5,
      yieldTo: (next) => yields.push(next),
      flood: {
        framesPerWindow: 100,
        windowMs: 50,
        calmMs: 150,
        later: (run, ms) => timers.push({ at: clock + ms, run }),
      },
    });
    const frames = Array.from({ length: 2000 }, (_, i) => frame(cbor({ seq: i })));
    dispatch({ type: 'ingest', frames });
    const read = () =>
      posts.flatMap((p) => (p.type === 'summaries' ? p.summaries : [])).filter((r) => !r.waiting).length;
    expect(read()).toBe(0);
    msPerLook = 1;
    // Run the worker for 400 ms of this clock: timers when due, queued turns at once, else time passes.
    const start = clock;
    while (clock < start + 400) {
      const due = timers.findIndex((t) => t.at <= clock);
      if (due >= 0) timers.splice(due, 1)[0]!.run();
      else if (yields.length) yields.shift()!();
      else clock += 1;
    }
    // Calm after 150 ms; of the 250 ms left, about half go to reading (a row per ms), none lost or reordered.
    const finals = posts
      .flatMap((p) => (p.type === 'summaries' ? p.summaries : []))
      .filter((r) => !r.waiting)
      .map((r) => r.frameId);
    expect(finals.length).toBeGreaterThan(50);
    expect(finals.length).toBeLessThanOrEqual(130); // back to back: 180
    expect(finals).toEqual(frames.slice(0, finals.length).map((f) => f.frameId));
    // And the rest are read in the end.
    msPerLook = 0;
    for (let guard = 0; guard < 100_000 && (timers.length || yields.length); guard++) {
      if (yields.length) yields.shift()!();
      else timers.shift()!.run();
    }
    expect(read()).toBe(2000);
  });
});
