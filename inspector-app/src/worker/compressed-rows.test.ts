import zlib from 'node:zlib';
import { encode as cborEncode } from 'cbor-x';
import { describe, expect, it } from 'vitest';
import { WorkerHandlers } from './handlers.js';
import type { IngestFrame } from './api.js';

/** Compressed frames and per-connection compressed streams in the worker. */
const u8 = (b: Uint8Array) => new Uint8Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
let nextId = 1;
function ingest(h: WorkerHandlers, data: Uint8Array, over: Partial<IngestFrame> = {}) {
  const frame: IngestFrame = {
    frameId: nextId++,
    connectionId: 'c1',
    direction: 'received',
    time: 0,
    opcode: 'binary',
    data,
    ...over,
  };
  h.store.add(frame);
  return { frame, summary: h.summarize(frame) };
}

async function syncFlushed(messages: Uint8Array[]): Promise<Uint8Array[]> {
  const handle = zlib.createDeflate();
  let pending: Buffer[] = [];
  handle.on('data', (c: Buffer) => pending.push(c));
  const out: Uint8Array[] = [];
  for (const m of messages) {
    handle.write(m);
    await new Promise<void>((r) => handle.flush(zlib.constants.Z_SYNC_FLUSH, () => r()));
    out.push(u8(Buffer.concat(pending)));
    pending = [];
  }
  handle.close();
  return out;
}

describe('compressed frames in the worker', () => {
  it('a gzip frame: the row and the root say "gzip → cbor, n → m bytes (r x)", the tree reads the decompressed bytes', () => {
    const h = new WorkerHandlers();
    const inner = u8(cborEncode({ items: Array.from({ length: 50 }, (_, i) => ({ id: i, name: `item ${i}` })) }));
    const gz = u8(zlib.gzipSync(inner));
    const { frame, summary } = ingest(h, gz);
    const ratio = (inner.length / gz.length).toFixed(1);
    const text = `gzip → cbor, ${gz.length.toLocaleString('en-US')} → ${inner.length.toLocaleString('en-US')} bytes (${ratio}x)`;
    expect(summary).toMatchObject({ format: 'cbor', verdict: 'decoded', compression: text });
    const d = h.methods.decode({ frameId: frame.frameId, format: 'auto' })!;
    expect(d.compression).toMatchObject({
      method: 'gzip',
      compressedBytes: gz.length,
      decompressedBytes: inner.length,
      summary: text,
      error: null,
    });
    expect(d.root).toMatchObject({ label: text, kind: 'map', start: 0, end: inner.length });
    expect(h.methods.bytes({ frameId: frame.frameId, decompressed: true })).toEqual(inner);
    expect(h.methods.bytes({ frameId: frame.frameId })).toEqual(gz);
    const [items] = h.methods.children({ frameId: frame.frameId, format: 'auto', nodeId: d.root!.id }).nodes;
    expect(items).toMatchObject({ label: 'items', childCount: 50 });
  });

  it('a zlib-stream connection: each frame inflates with the context of the ones before it, in order', async () => {
    const h = new WorkerHandlers();
    const messages = [0, 1, 2].map((i) =>
      new TextEncoder().encode(
        JSON.stringify({ op: 0, s: i, t: 'MESSAGE_CREATE', d: { content: 'hello there, hello there' } }),
      ),
    );
    const frames = await syncFlushed(messages);
    const rows = frames.map((f) => ingest(h, f));
    expect(rows.map((r) => r.summary.format)).toEqual(['json', 'json', 'json']);
    expect(rows.every((r) => r.summary.compression?.startsWith('zlib stream → json'))).toBe(true);
    // Read later (the index cache long gone), a frame still reads from what it inflated to.
    for (let i = 0; i < 8; i++) ingest(h, u8(cborEncode({ filler: i })), { connectionId: 'other' });
    const d = h.methods.decode({ frameId: rows[2].frame.frameId, format: 'auto' })!;
    expect(d.verdict).toBe('decoded');
    expect(
      h.methods.text({ frameId: rows[2].frame.frameId, format: 'auto', nodeId: d.root!.id, mode: 'json' }).text,
    ).toContain('"s": 2');
  });

  it('stream frames interleaved with other frames on the same connection: each reads as what it is', async () => {
    const h = new WorkerHandlers();
    const messages = [0, 1, 2].map((i) =>
      new TextEncoder().encode(JSON.stringify({ op: 0, s: i, d: { content: 'hello there, hello there' } })),
    );
    const frames = await syncFlushed(messages);
    const rows = [];
    for (const [i, f] of frames.entries()) {
      rows.push(ingest(h, f).summary);
      rows.push(ingest(h, u8(cborEncode({ between: i, name: 'plain cbor frame' }))).summary);
    }
    expect(rows.map((r) => `${r.format}${r.compression ? ' (' + r.compression.split(' → ')[0] + ')' : ''}`)).toEqual([
      'json (zlib stream)',
      'cbor',
      'json (zlib stream)',
      'cbor',
      'json (zlib stream)',
      'cbor',
    ]);
  });

  it('a frame after a lost one on the stream says its context is missing, with the offset', async () => {
    const h = new WorkerHandlers();
    const messages = [0, 1, 2].map((i) =>
      new TextEncoder().encode(JSON.stringify({ op: 0, s: i, d: { content: 'hello there, hello there' } })),
    );
    const frames = await syncFlushed(messages);
    ingest(h, frames[0]);
    h.store.streams.lost({ connectionId: 'c1', direction: 'received' }, 'evicted before the panel opened');
    const { frame, summary } = ingest(h, frames[2]);
    expect(summary.verdict).toBe('malformed');
    expect(summary.error).toMatchObject({ code: 'invalid-compressed-data', offset: 0 });
    expect(summary.error!.message).toBe(
      'cannot inflate: an earlier frame of this compressed stream is missing (evicted before the panel opened) at input offset 0',
    );
    expect(h.methods.decode({ frameId: frame.frameId, format: 'auto' })!.error!.message).toBe(summary.error!.message);
  });

  it('a gzip bomb is a malformed row with the input offset, not an out-of-memory tab; what inflated is kept', () => {
    const h = new WorkerHandlers();
    // 40 MiB of zeros: one MiB compressed to a sync flush, repeated, then an empty final block.
    const block = zlib.deflateRawSync(new Uint8Array(1024 * 1024), {
      level: 9,
      finishFlush: zlib.constants.Z_SYNC_FLUSH,
    });
    const parts = [
      Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 2, 0xff]),
      ...Array.from({ length: 40 }, () => block),
      Buffer.from([0x03, 0x00]),
      Buffer.alloc(8),
    ];
    const bomb = u8(Buffer.concat(parts));
    const { frame, summary } = ingest(h, bomb);
    expect(summary.verdict).toBe('malformed');
    expect(summary.error!.code).toBe('decompressed-too-large');
    expect(summary.error!.offset).toBeLessThan(bomb.length / 4);
    const d = h.methods.decode({ frameId: frame.frameId, format: 'auto' })!;
    expect(d.compression!.error!.message).toMatch(/^compression ratio exceeds 500:1 .* at input offset \d+$/);
    expect(d.compression!.decompressedBytes).toBeLessThan(8 * 1024 * 1024);
    expect(h.methods.bytes({ frameId: frame.frameId, decompressed: true })!.length).toBe(
      d.compression!.decompressedBytes,
    );
  });

  it('the list text filter finds words inside gzip frames and zlib-stream messages', async () => {
    const h = new WorkerHandlers();
    const gz = ingest(h, u8(zlib.gzipSync(u8(cborEncode({ note: 'needle-in-gzip', pad: 'x'.repeat(50) })))));
    const frames = await syncFlushed(
      [0, 1].map((i) =>
        new TextEncoder().encode(JSON.stringify({ s: i, d: i ? 'needle-in-stream' : 'first message' })),
      ),
    );
    const first = ingest(h, frames[0]);
    const second = ingest(h, frames[1]);
    h.setContentFilter({ text: 'needle-in-gzip', path: '' });
    expect([gz, first, second].map((r) => h.matches(r.frame.frameId))).toEqual([true, false, false]);
    h.setContentFilter({ text: 'needle-in-stream', path: '' });
    expect([gz, first, second].map((r) => h.matches(r.frame.frameId))).toEqual([false, false, true]);
    h.setContentFilter({ text: '', path: 'd' });
    expect([gz, first, second].map((r) => h.matches(r.frame.frameId))).toEqual([false, true, true]);
  });

  it('two zlib-stream messages diff by what they inflated to', async () => {
    const h = new WorkerHandlers();
    const frames = await syncFlushed([0, 1].map((i) => new TextEncoder().encode(JSON.stringify({ s: i, d: 'same' }))));
    const [a, b] = frames.map((f) => ingest(h, f));
    const diff = h.methods.diff({ frameA: a.frame.frameId, frameB: b.frame.frameId })!;
    expect(diff.rows).toMatchObject([{ path: '$.s', change: 'changed', before: '0', after: '1' }]);
    // The frames' sizes are what they were on the wire, as the list gives them.
    expect([diff.frameBefore, diff.frameAfter]).toEqual([frames[0]!.length, frames[1]!.length]);
  });

  it('what stream messages inflated to counts against the memory cap, and the frames it evicts are named', async () => {
    const h = new WorkerHandlers();
    const messages = [0, 1, 2, 3].map((i) => new TextEncoder().encode(JSON.stringify({ s: i, pad: 'y'.repeat(4000) })));
    const frames = await syncFlushed(messages);
    const rows = frames.map((f) => ingest(h, f));
    const raw = frames.reduce((n, f) => n + f.length, 0);
    const inflated = messages.reduce((n, m) => n + m.length, 0);
    expect(h.store.bytesHeld).toBe(raw + inflated);
    expect(h.store.takeEvictedLate()).toEqual([]);
    // A cap below what the last two frames hold: the oldest go, counted with their inflated bytes.
    const last = frames[3].length + messages[3].length + frames[2].length + messages[2].length;
    h.methods.setCap({ bytes: last });
    expect(h.store.bytesHeld).toBe(last);
    expect(h.store.get(rows[0].frame.frameId)).toBeUndefined();
    // At ingest: a message whose compressed bytes fit but whose inflated bytes do not evicts the
    // oldest frame, and its id waits for the dispatcher to tell the list.
    const [more] = await syncFlushed([new TextEncoder().encode(JSON.stringify({ s: 9, pad: 'z'.repeat(4000) }))]);
    h.methods.setCap({ bytes: h.store.bytesHeld + more.length });
    const next = ingest(h, more);
    expect(next.summary.compression).toMatch(/^zlib stream → json/);
    expect(h.store.takeEvictedLate()).toEqual([rows[2].frame.frameId]);
    expect(h.store.bytesHeld).toBeLessThanOrEqual(h.store.capBytes);
  });
});
