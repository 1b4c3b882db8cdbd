/**
 * Rows already listed are read again after a schema is loaded (or removed) or a connection's
 * message type changes: in slices with progress, superseded by a newer change, evicted frames
 * skipped, only the frames the change can alter.
 */
import { describe, expect, it } from 'vitest';
import protobuf from 'protobufjs';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { createDispatcher } from './dispatcher.js';
import type { FromWorker, IngestFrame, ToWorker } from './api.js';

const PROTO =
  'syntax = "proto3"; package demo; enum Side { BUY = 0; SELL = 1; } message Trade { string symbol = 1; Side side = 2; double price = 3; uint32 qty = 4; }';
const Trade = protobuf.parse(PROTO, new protobuf.Root(), { keepCase: true }).root.lookupType('demo.Trade');
const trade = (qty: number) => Trade.encode(Trade.fromObject({ symbol: 'ACME', side: 1, price: 12.5, qty })).finish();
const NAMED = (qty: number) => `{symbol: "ACME", side: SELL (1), price: 12.5, qty: ${qty}}`;

type Reread = Extract<FromWorker, { type: 'reread' }>;

/** A dispatcher whose search / re-read slices run only when the test says, on a clock that ticks once per read. */
function harness(sliceMs = 3) {
  const posted: FromWorker[] = [];
  const queued: (() => void)[] = [];
  let clock = 0;
  const send = createDispatcher((m) => posted.push(m), {
    sliceMs,
    now: () => clock++,
    yieldTo: (next) => void queued.push(next),
  });
  let nextId = 1;
  let callId = 1;
  const frames: IngestFrame[] = [];
  return {
    posted,
    frames,
    ingest(data: Uint8Array, extra: Partial<IngestFrame> = {}): IngestFrame {
      const f: IngestFrame = {
        frameId: nextId++,
        connectionId: 'c1',
        direction: 'received',
        time: 1,
        opcode: 'binary',
        data,
        ...extra,
      };
      frames.push(f);
      send({ type: 'ingest', frames: [f] });
      return f;
    },
    call(method: string, params: unknown) {
      send({ type: 'call', callId: callId++, method, params } as ToWorker);
    },
    send,
    /** Runs the queued slices until none is left. */
    drain() {
      while (queued.length) queued.shift()!();
    },
    step() {
      queued.shift()?.();
    },
    rereads: (generation?: number) =>
      posted.filter(
        (m): m is Reread => m.type === 'reread' && (generation === undefined || m.generation === generation),
      ),
    summaries: () => posted.flatMap((m) => (m.type === 'summaries' ? m.summaries : [])),
  };
}

describe('re-reading listed rows after a schema change', () => {
  it('rows listed before the schema was loaded get its field names, in slices with progress', () => {
    const h = harness();
    for (let q = 1; q <= 20; q++) h.ingest(trade(q));
    h.ingest(new TextEncoder().encode('{"a":1}'), { opcode: 'text' });
    h.call('decode', { frameId: 1, format: 'auto' }); // flushes the rows
    expect(h.summaries().map((r) => r.preview)[0]).not.toBe(NAMED(1));
    h.call('setSchema', { files: [{ name: 'demo.proto', source: PROTO }] });
    h.drain();
    const slices = h.rereads();
    expect(slices.length).toBeGreaterThan(2);
    // Progress only grows and ends done, over the 20 binary frames (the text frame is not read with a schema).
    expect(slices.map((s) => s.total)).toEqual(slices.map(() => 20));
    expect(slices.map((s) => s.searched)).toEqual([...slices.map((s) => s.searched)].sort((a, b) => a - b));
    expect(slices.at(-1)).toMatchObject({ searched: 20, done: true });
    expect(slices.slice(0, -1).every((s) => !s.done)).toBe(true);
    const rows = slices.flatMap((s) => s.rows);
    expect(rows.map((r) => r.frameId)).toEqual(h.frames.slice(0, 20).map((f) => f.frameId));
    expect(rows.map((r) => r.preview)).toEqual(Array.from({ length: 20 }, (_, i) => NAMED(i + 1)));
    expect(rows.every((r) => r.format === 'protobuf' && r.verdict === 'decoded')).toBe(true);
  });

  it('removing the schema re-reads them raw again; choosing raw for one connection re-reads only its frames', () => {
    const h = harness(1000);
    h.call('setSchema', { files: [{ name: 'demo.proto', source: PROTO }] });
    h.drain();
    const a = h.ingest(trade(1));
    const b = h.ingest(trade(2), { connectionId: 'c2' });
    h.call('setSchemaType', { connectionId: 'c2', choice: 'raw' });
    h.drain();
    const typeChange = h.rereads().at(-1)!;
    expect(typeChange.rows.map((r) => r.frameId)).toEqual([b.frameId]);
    expect(typeChange.rows[0].preview).not.toBe(NAMED(2));
    expect(typeChange.rows[0].preview).toMatch(/^\{1: "ACME"/);
    h.call('setSchema', { files: [] });
    h.drain();
    const removed = h.rereads().at(-1)!;
    expect(removed.rows.map((r) => [r.frameId, r.preview.startsWith('{1: "ACME"')])).toEqual([
      [a.frameId, true],
      [b.frameId, true],
    ]);
  });

  it('a newer change supersedes a run still going', () => {
    const h = harness(2);
    for (let q = 1; q <= 30; q++) h.ingest(trade(q));
    h.call('setSchema', { files: [{ name: 'demo.proto', source: PROTO }] });
    h.step();
    const first = h.rereads()[0].generation;
    const before = h.rereads(first).length;
    h.call('setSchemaType', { connectionId: 'c1', choice: 'raw' });
    h.drain();
    // The older run posted nothing more; the newer one covers every frame, raw.
    expect(h.rereads(first).length).toBe(before);
    expect(h.rereads(first).at(-1)!.done).toBe(false);
    const newer = h.rereads().filter((m) => m.generation !== first);
    expect(newer.at(-1)).toMatchObject({ searched: 30, total: 30, done: true });
    expect(newer.flatMap((m) => m.rows).every((r) => r.preview.startsWith('{1: "ACME"'))).toBe(true);
  });

  it('frames evicted while the re-read runs are skipped, not re-listed', () => {
    const h = harness(2);
    for (let q = 1; q <= 30; q++) h.ingest(trade(q));
    h.call('setSchema', { files: [{ name: 'demo.proto', source: PROTO }] });
    h.step();
    h.call('setCap', { bytes: trade(1).length * 5 });
    h.drain();
    const rows = h.rereads().flatMap((m) => m.rows);
    const held = new Set(h.frames.slice(-5).map((f) => f.frameId));
    const afterCap = h
      .rereads()
      .slice(2)
      .flatMap((m) => m.rows);
    expect(afterCap.every((r) => held.has(r.frameId))).toBe(true);
    expect(h.rereads().at(-1)).toMatchObject({ searched: 30, done: true });
    expect(new Set(rows.map((r) => r.frameId)).size).toBe(rows.length);
  });

  it('a clear while the re-read runs leaves nothing to re-list', () => {
    const h = harness(2);
    for (let q = 1; q <= 30; q++) h.ingest(trade(q));
    h.call('setSchema', { files: [{ name: 'demo.proto', source: PROTO }] });
    h.step();
    const before = h.rereads().flatMap((m) => m.rows).length;
    h.call('clear', {});
    h.drain();
    expect(h.rereads().flatMap((m) => m.rows).length).toBe(before);
    expect(h.rereads().at(-1)).toMatchObject({ searched: 30, done: true });
  });

  it('carries which re-read rows match the content filter', () => {
    const h = harness(1000);
    h.ingest(trade(7));
    h.ingest(new CborEncoder().encode({ note: 'nothing here' }));
    h.send({ type: 'filter', generation: 4, text: 'ACME', path: '' });
    h.drain();
    h.call('setSchema', { files: [{ name: 'demo.proto', source: PROTO }] });
    h.drain();
    const last = h.rereads().at(-1)!;
    expect(last.filterGeneration).toBe(4);
    expect(last.matching).toEqual([1]);
  });

  it('a Socket.IO attachment keeps its row (it says whose attachment it is)', () => {
    const h = harness(1000);
    h.ingest(new TextEncoder().encode('451-["upload",{"_placeholder":true,"num":0}]'), {
      opcode: 'text',
      direction: 'sent',
    });
    const att = h.ingest(trade(3), { direction: 'sent' });
    h.call('setSchema', { files: [{ name: 'demo.proto', source: PROTO }] });
    h.drain();
    expect(
      h
        .rereads()
        .flatMap((m) => m.rows)
        .map((r) => r.frameId),
    ).not.toContain(att.frameId);
  });
  it('MQTT rows put together from split packets keep their rows: the reassembled packet and each "part N of …"', () => {
    const h = harness(1000);
    h.send({ type: 'connection', connectionId: 'c1', subprotocol: 'mqtt' });
    // A PUBLISH `sensors/x` {"t":1} written as mqtt.js in Node does: type byte, length, then the rest, each its own frame.
    const body = new Uint8Array([
      0x00,
      9,
      ...new TextEncoder().encode('sensors/x'),
      ...new TextEncoder().encode('{"t":1}'),
    ]);
    const parts = [new Uint8Array([0x30]), new Uint8Array([body.length]), body];
    const frames = parts.map((p) => h.ingest(p, { direction: 'sent' }));
    h.call('decode', { frameId: frames[0].frameId, format: 'auto' }); // flushes the rows
    const listed = h.summaries();
    expect(listed.map((r) => r.protocol?.message)).toEqual(['PUBLISH (part 1)', 'PUBLISH (part 2)', 'PUBLISH']);
    expect(listed[2].preview).toContain('reassembled from frames 1–3');
    h.call('setSchema', { files: [{ name: 'demo.proto', source: PROTO }] });
    h.drain();
    const reread = h
      .rereads()
      .flatMap((m) => m.rows)
      .map((r) => r.frameId);
    for (const f of frames) expect(reread).not.toContain(f.frameId);
  });
  it('under a flood, rows still waiting to be read are left to their turn (read then with the new schema)', () => {
    const posted: FromWorker[] = [];
    const yields: (() => void)[] = [];
    const timers: (() => void)[] = [];
    let clock = 0;
    const send = createDispatcher((m) => posted.push(m), {
      now: () => clock,
      sliceMs: 5,
      yieldTo: (next) => yields.push(next),
      flood: { framesPerWindow: 10, windowMs: 50, calmMs: 150, later: (run) => timers.push(run) },
    });
    const frames: IngestFrame[] = Array.from({ length: 40 }, (_, i) => ({
      frameId: i + 1,
      connectionId: 'c1',
      direction: 'received',
      time: 1,
      opcode: 'binary',
      data: trade(i + 1),
    }));
    // Five read as they come, then a flood: its rows wait.
    send({ type: 'ingest', frames: frames.slice(0, 5) });
    send({ type: 'ingest', frames: frames.slice(5) });
    send({ type: 'call', callId: 1, method: 'setSchema', params: { files: [{ name: 'demo.proto', source: PROTO }] } });
    // Run the re-read's slices only (the flood's catch-up waits for its timer).
    const rereads = () => posted.filter((m): m is Reread => m.type === 'reread');
    for (let guard = 0; guard < 100 && !rereads().at(-1)?.done; guard++) yields.shift()?.();
    const reread = rereads().flatMap((m) => m.rows.map((r) => r.frameId));
    const read = new Set(
      posted.flatMap((m) =>
        m.type === 'summaries' ? m.summaries.filter((r) => !r.waiting).map((r) => r.frameId) : [],
      ),
    );
    // Every re-read row was one already read; the waiting ones were not touched.
    expect(reread.length).toBeGreaterThan(0);
    expect(reread.every((id) => read.has(id))).toBe(true);
    expect(reread.length).toBeLessThan(40);
    // The flood calms: the waiting rows are read, with the schema.
    clock += 1000;
    while (timers.length || yields.length) (timers.shift() ?? yields.shift())!();
    send({ type: 'call', callId: 2, method: 'decode', params: { frameId: 40, format: 'auto' } });
    const last = new Map<number, string>();
    for (const m of posted)
      if (m.type === 'summaries') for (const r of m.summaries) if (!r.waiting) last.set(r.frameId, r.preview);
    for (let id = 1; id <= 40; id++) if (!reread.includes(id)) expect(last.get(id)).toBe(NAMED(id));
  });
});
