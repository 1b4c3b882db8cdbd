import zlib from 'node:zlib';
import { encode as cborEncode } from 'cbor-x';
import { pack as msgpackEncode } from 'msgpackr';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compressionSummary, ConnectionInflater, decodeFrame, MAX_DECOMPRESSED_BYTES } from '../index.js';

/** Compressed frames (gzip, zlib, raw deflate), per-connection streams, and the caps. */
const u8 = (b: Uint8Array | Buffer) => new Uint8Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
const value = {
  users: [
    { name: 'ann', score: 12 },
    { name: 'bob', score: 7 },
  ],
  note: 'x'.repeat(200),
};

describe('compressed frames', () => {
  it('gzip of CBOR: decoded as CBOR, with the method, sizes and ratio', () => {
    const inner = u8(cborEncode(value));
    const frame = u8(zlib.gzipSync(inner));
    const d = decodeFrame(frame);
    expect(d).toMatchObject({
      format: 'cbor',
      verdict: 'decoded',
      error: null,
      compression: { method: 'gzip', compressedBytes: frame.length, decompressedBytes: inner.length, error: null },
    });
    expect(d.index!.value(d.index!.root)).toEqual(value);
    // Node offsets are in the decompressed stream.
    expect(d.index!.bytes).toEqual(inner);
    const ratio = inner.length / frame.length;
    expect(compressionSummary(d.compression!, d.format)).toBe(
      `gzip → cbor, ${frame.length.toLocaleString('en-US')} → ${inner.length.toLocaleString('en-US')} bytes (${ratio >= 10 ? ratio.toFixed(0) : ratio.toFixed(1)}x)`,
    );
  });

  it('zlib of JSON and raw deflate of MessagePack', () => {
    const json = new TextEncoder().encode(JSON.stringify(value));
    const z = decodeFrame(u8(zlib.deflateSync(json)));
    expect(z).toMatchObject({
      format: 'json',
      verdict: 'decoded',
      compression: { method: 'zlib', decompressedBytes: json.length },
    });
    const mp = u8(msgpackEncode(value));
    const raw = decodeFrame(u8(zlib.deflateRawSync(mp)));
    expect(raw).toMatchObject({
      format: 'msgpack',
      verdict: 'decoded',
      compression: { method: 'deflate', decompressedBytes: mp.length },
    });
    expect(raw.index!.value(raw.index!.root)).toEqual(value);
  });

  it('a CBOR text string whose head passes the zlib header check is still CBOR', () => {
    // 78 5e: text(94); (0x78 * 256 + 0x5e) % 31 === 0 and no preset dictionary.
    expect((0x78 * 256 + 0x5e) % 31).toBe(0);
    const frame = u8(Buffer.concat([Buffer.from([0x78, 0x5e]), Buffer.from('a'.repeat(94))]));
    const d = decodeFrame(frame);
    expect(d).toMatchObject({ format: 'cbor', verdict: 'decoded' });
    expect(d.compression).toBeUndefined();
  });

  it('random bytes are not raw deflate: a byte or two that inflate by chance and read as a scalar do not count', () => {
    // Seeded bytes (xorshift), 3000 frames of 3 B to 2 KB.
    let x = 0x2545f491;
    const next = () => ((x ^= x << 13), (x ^= x >>> 17), (x ^= x << 5), x & 0xff);
    const found: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const frame = Uint8Array.from({ length: [3, 5, 8, 16, 40, 200, 2000][i % 7] }, next);
      const d = decodeFrame(frame, { depth: 1 });
      if (d.compression && !d.compression.error)
        found.push(`${frame.length} B → ${d.format} ${d.compression.decompressedBytes} B`);
    }
    expect(found).toEqual([]);
    // A small real one still reads: {"a":1} (7 bytes) deflates to more than 7.
    const small = decodeFrame(u8(zlib.deflateRawSync(Buffer.from('{"a":1}'))));
    expect(small).toMatchObject({ format: 'json', verdict: 'decoded', compression: { method: 'deflate' } });
  });

  it('a truncated gzip frame is malformed with the input offset, and what inflated is kept', () => {
    const json = new TextEncoder().encode(JSON.stringify({ list: Array.from({ length: 2000 }, (_, i) => i) }));
    const gz = u8(zlib.gzipSync(json));
    const cut = gz.subarray(0, gz.length >> 1);
    const d = decodeFrame(cut);
    expect(d.verdict).toBe('malformed');
    expect(d.compression).toMatchObject({ method: 'gzip', compressedBytes: cut.length });
    expect(d.error!.code).toBe('invalid-compressed-data');
    expect(d.error!.message).toMatch(/at input offset \d+$/);
    expect(d.compression!.decompressedBytes).toBeGreaterThan(0);
    expect(d.format).toBe('json');
  });

  it('mutated and truncated compressed frames never throw', () => {
    const frames = [
      zlib.gzipSync(u8(cborEncode(value))),
      zlib.deflateSync(u8(msgpackEncode(value))),
      zlib.deflateRawSync(Buffer.from(JSON.stringify(value))),
    ].map(u8);
    fc.assert(
      fc.property(
        fc.constantFrom(...frames),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }),
        fc.nat(),
        (f, flips, cut) => {
          const bytes = f.slice(0, Math.max(1, f.length - (cut % f.length)));
          for (const [at, b] of flips) bytes[at % bytes.length] = b;
          const d = decodeFrame(bytes);
          expect(['decoded', 'malformed', 'unknown', 'empty']).toContain(d.verdict);
          if (d.compression?.error) expect(d.compression.error.offset).toBeLessThanOrEqual(bytes.length);
        },
      ),
      { seed: 0x7a6c6962, numRuns: 300 },
    );
  });
});

/**
 * A deflate stream of `mib` MiB of zeros, built without ever holding its output: one MiB of
 * zeros compressed once up to a sync flush (byte-aligned, not final) and repeated, then an
 * empty final block (`03 00`); gzip adds its header and trailer (CRC-32 and size of the zeros).
 */
function bomb(kind: 'gzip' | 'raw', mib: number): Uint8Array {
  const zeros = new Uint8Array(1024 * 1024);
  const block = zlib.deflateRawSync(zeros, { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  const parts: Buffer[] = [];
  if (kind === 'gzip') parts.push(Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 2, 0xff]));
  for (let i = 0; i < mib; i++) parts.push(block);
  parts.push(Buffer.from([0x03, 0x00]));
  if (kind === 'gzip') {
    let crc = 0;
    for (let i = 0; i < mib; i++) crc = zlib.crc32(zeros, crc);
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc >>> 0, 0);
    trailer.writeUInt32LE((mib * 1024 * 1024) >>> 0, 4);
    parts.push(trailer);
  }
  return u8(Buffer.concat(parts));
}

it("the bomb builder makes a real stream (a small one inflates whole with Node's zlib)", () => {
  expect(zlib.gunzipSync(bomb('gzip', 2)).length).toBe(2 * 1024 * 1024);
  expect(zlib.inflateRawSync(bomb('raw', 2)).length).toBe(2 * 1024 * 1024);
});

describe('caps: a zip bomb is an error with its offset, not an out-of-memory tab', () => {
  it('a gzip bomb (80 MiB of zeros in ~80 KB) stops at the ratio cap, long before the end of its input', () => {
    const frame = bomb('gzip', 80);
    expect(frame.length).toBeLessThan(200 * 1024);
    const d = decodeFrame(frame);
    expect(d.verdict).toBe('malformed');
    expect(d.error!.code).toBe('decompressed-too-large');
    expect(d.error!.message).toMatch(/^compression ratio exceeds 500:1 .* at input offset \d+$/);
    expect(d.error!.offset).toBeLessThan(frame.length / 10);
    // What inflated before the cap is kept (and read: zeros are CBOR 0 and trailing bytes).
    expect(d.compression!.decompressedBytes).toBeLessThan(8 * 1024 * 1024);
    expect(d.compression!.decompressedBytes).toBeGreaterThan(1024 * 1024);
  });

  it('with the ratio cap off, the 64 MiB size cap stops it: "decompressed size exceeds 64 MiB at input offset N"', () => {
    const frame = bomb('raw', 80);
    const d = decodeFrame(frame, { inflateLimits: { maxRatio: Infinity } });
    // Raw deflate has no header: it is tried because nothing else reads the frame.
    expect(d.compression?.method).toBe('deflate');
    expect(d.error!.code).toBe('decompressed-too-large');
    expect(d.error!.message).toMatch(/^decompressed size exceeds 64 MiB at input offset (\d+)$/);
    // Stopped inside the input: the last 16 MiB were never inflated.
    expect(d.error!.offset).toBeLessThan(frame.length * 0.9);
    expect(d.compression!.decompressedBytes).toBe(MAX_DECOMPRESSED_BYTES);
  });

  it('a few KB that inflate past a 1 MiB cap', () => {
    const frame = bomb('gzip', 4);
    expect(frame.length).toBeLessThan(8 * 1024);
    const d = decodeFrame(frame, { inflateLimits: { maxBytes: 1024 * 1024, maxRatio: Infinity } });
    expect(d.error!.message).toMatch(/^decompressed size exceeds 1 MiB at input offset \d+$/);
    expect(d.error!.offset).toBeLessThan(frame.length);
    expect(d.compression!.decompressedBytes).toBe(1024 * 1024);
  });
});

/** Messages of one zlib stream, each ending in a sync flush (as Discord's zlib-stream). */
async function zlibStream(messages: Uint8Array[], raw = false): Promise<Uint8Array[]> {
  const handle = raw ? zlib.createDeflateRaw() : zlib.createDeflate();
  let pending: Buffer[] = [];
  handle.on('data', (c: Buffer) => pending.push(c));
  const frames: Uint8Array[] = [];
  for (const m of messages) {
    handle.write(m);
    await new Promise<void>((resolve) => handle.flush(zlib.constants.Z_SYNC_FLUSH, () => resolve()));
    frames.push(u8(Buffer.concat(pending)));
    pending = [];
  }
  handle.close();
  return frames;
}

describe('per-connection compressed streams', () => {
  const messages = [0, 1, 2, 3].map((i) =>
    new TextEncoder().encode(JSON.stringify({ op: 0, seq: i, d: { content: 'hello hello hello', author: 'ann' } })),
  );

  it('a zlib stream with context carried across frames: each frame inflates to its message, in order', async () => {
    const frames = await zlibStream(messages);
    expect(frames.every((f) => f.subarray(-4).join() === '0,0,255,255')).toBe(true);
    // Later messages refer back to earlier ones: alone, frame 2 does not read.
    expect(decodeFrame(frames[2]).verdict).not.toBe('decoded');
    const inflater = new ConnectionInflater();
    const out = frames.map((f) => inflater.push(f, true));
    expect(out.map((o) => o && new TextDecoder().decode(o.output))).toEqual(
      messages.map((m) => new TextDecoder().decode(m)),
    );
    expect(out.every((o) => o!.method === 'zlib-stream' && o!.error === null)).toBe(true);
  });

  it('a raw deflate stream starts when its first frame reads as nothing else', async () => {
    const frames = await zlibStream(messages, true);
    const inflater = new ConnectionInflater();
    expect(inflater.push(frames[0])).toBeNull();
    const first = inflater.push(frames[0], true, (o) => decodeFrame(o).verdict === 'decoded');
    expect(first).toMatchObject({ method: 'deflate-stream', error: null });
    expect(new TextDecoder().decode(inflater.push(frames[1], true)!.output)).toBe(
      new TextDecoder().decode(messages[1]),
    );
  });

  it('a frame after a lost one says the earlier frame is missing, with the offset', async () => {
    const frames = await zlibStream(messages);
    const inflater = new ConnectionInflater();
    inflater.push(frames[0], true);
    inflater.lost('evicted by the memory cap');
    // Not otherwise undecodable: left to the usual rules.
    expect(inflater.push(frames[2])).toBeNull();
    const r = inflater.push(frames[2], true)!;
    expect(r.error).toMatchObject({ code: 'invalid-compressed-data', offset: 0 });
    expect(r.error!.message).toBe(
      'cannot inflate: an earlier frame of this compressed stream is missing (evicted by the memory cap) at input offset 0',
    );
  });
});
