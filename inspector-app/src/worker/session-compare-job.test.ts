import { describe, expect, it } from 'vitest';
import type { IngestFrame } from './api';
import { framesOf, runSessionCompare, type SessionSink } from './session-compare-job';
import { SESSION_CODECS, type SessionRow } from '../../../codecs/compare/session/session';
import { createDispatcher } from './dispatcher';
import type { FromWorker } from './api';

const enc = new TextEncoder();
function frames(n: number, connections = 2): IngestFrame[] {
  return Array.from({ length: n }, (_, i) => ({
    frameId: i + 1,
    connectionId: `c${i % connections}`,
    direction: i % 3 === 0 ? 'sent' : 'received',
    time: 1000 + i,
    opcode: 'text',
    data: enc.encode(JSON.stringify({ type: 'tick', seq: i, price: 100 + (i % 7) * 0.25, tags: ['a', 'b'] })),
  }));
}

function collect() {
  const rows: SessionRow[] = [];
  let end: Parameters<SessionSink['end']>[0] | null = null;
  let progress = 0;
  const sink: SessionSink = { progress: () => progress++, rows: (batch) => rows.push(...batch), end: (e) => (end = e) };
  return {
    sink,
    rows,
    get end() {
      return end;
    },
    get progress() {
      return progress;
    },
  };
}

describe('session comparison job', () => {
  it('picks frames by connection, id list or all, in arrival order', () => {
    const all = frames(10);
    expect(framesOf(all, { kind: 'all' })).toHaveLength(10);
    expect(framesOf(all, { kind: 'connection', connectionId: 'c1' }).map((f) => f.frameId)).toEqual([2, 4, 6, 8, 10]);
    expect(framesOf(all, { kind: 'frames', frameIds: [9, 3, 42] }).map((f) => f.frameId)).toEqual([3, 9]);
  });

  it('streams rows, then a chart whose last points are the totals\u2019 sizes', async () => {
    const c = collect();
    await runSessionCompare(frames(600), { negotiated: {}, signal: new AbortController().signal, sink: c.sink });
    expect(c.end?.cancelled).toBe(false);
    expect(c.end?.error).toBeNull();
    expect(c.end?.messages).toBe(600);
    expect(c.progress).toBeGreaterThan(0);
    const totals = c.rows.filter((r) => r.connectionId === null);
    expect(totals.map((r) => r.codec)).toEqual([...SESSION_CODECS]);
    const chart = c.end!.chart!;
    expect(chart.at[chart.at.length - 1]).toBe(600);
    for (const s of chart.series) expect(s.bytes.at(-1)).toBe(totals.find((t) => t.codec === s.codec)!.size);
    expect(chart.series.length + chart.notCharted.length).toBe(totals.length);
  });

  it('gives the message loop its turns through the yieldTurn it is passed (the worker\u2019s MessageChannel, not a clamped setTimeout chain); same rows', async () => {
    const plain = collect();
    await runSessionCompare(frames(600), { negotiated: {}, signal: new AbortController().signal, sink: plain.sink });
    const turned = collect();
    let turns = 0;
    await runSessionCompare(frames(600), {
      negotiated: {},
      signal: new AbortController().signal,
      sink: turned.sink,
      yieldTurn: () => {
        turns++;
        return Promise.resolve();
      },
    });
    expect(turns).toBe(turned.progress - SESSION_CODECS.length - 1);
    expect(turns).toBeGreaterThan(0);
    expect(turned.rows).toEqual(plain.rows);
    expect(turned.end?.chart).toEqual(plain.end?.chart);
  });

  it('passes the negotiated header on: deflate simulated for c0, the plain wire for c1 (none negotiated)', async () => {
    const c = collect();
    await runSessionCompare(frames(40), {
      negotiated: { c0: 'permessage-deflate; server_no_context_takeover', c1: '' },
      signal: new AbortController().signal,
      sink: c.sink,
    });
    const c0 = c.rows.find((r) => r.connectionId === 'c0' && r.codec === 'captured')!;
    const c1 = c.rows.find((r) => r.connectionId === 'c1' && r.codec === 'captured')!;
    expect(c0.wire.negotiated).not.toBeNull();
    expect(c1.wire.negotiated).toEqual(c1.plainWire);
  });

  it('posts one rows message per codec, however many connections (the page renders once per codec)', async () => {
    const posted: FromWorker[] = [];
    let ended: () => void = () => {};
    const done = new Promise<void>((r) => (ended = r));
    const dispatch = createDispatcher((m) => {
      posted.push(m);
      if (m.type === 'session-end') ended();
    });
    dispatch({ type: 'ingest', frames: frames(600, 300) });
    dispatch({ type: 'session-compare', jobId: 1, scope: { kind: 'all' }, negotiated: {} });
    await done;
    const batches = posted.filter((m): m is Extract<FromWorker, { type: 'session-rows' }> => m.type === 'session-rows');
    expect(batches).toHaveLength(SESSION_CODECS.length);
    // Frame i is on connection i % 300 and sent when i % 3 == 0: one direction per connection here, + the total.
    for (const b of batches) expect(b.rows.length).toBe(300 + 1);
  });

  it('a cancel through the dispatcher ends the job early, marked cancelled', async () => {
    const posted: FromWorker[] = [];
    let ended: () => void = () => {};
    const done = new Promise<void>((r) => (ended = r));
    const dispatch = createDispatcher((m) => {
      posted.push(m);
      if (m.type === 'session-end') ended();
    });
    dispatch({ type: 'ingest', frames: frames(5000) });
    dispatch({ type: 'session-compare', jobId: 7, scope: { kind: 'all' }, negotiated: {} });
    // Let the job start, then cancel after its first progress report.
    await new Promise((r) => setTimeout(r, 0));
    dispatch({ type: 'cancel-compare', jobId: 7 });
    await done;
    const end = posted.find((m) => m.type === 'session-end');
    expect(end && end.type === 'session-end' && end.cancelled).toBe(true);
    // Cancelled during decoding or the first codec: not every codec's total came in.
    expect(
      posted.filter((m) => m.type === 'session-rows' && m.rows.some((r) => r.connectionId === null)).length,
    ).toBeLessThan(SESSION_CODECS.length);
  });
});

describe('session comparison job, no permessage-deflate negotiated ', () => {
  it('passes an empty header on: "as negotiated" is the plain wire size', async () => {
    const c = collect();
    await runSessionCompare(frames(20, 1), {
      negotiated: { c0: '' },
      signal: new AbortController().signal,
      sink: c.sink,
    });
    const total = c.rows.find((r) => r.codec === 'captured' && r.connectionId === null)!;
    expect(total.wire.negotiated).toEqual(total.plainWire);
  });
});
