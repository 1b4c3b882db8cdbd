/**
 * Work the comparison shares between codecs must not change a row. A value is
 * converted once per encoder family (not once per codec), and the gzip size is derived
 * from the one raw-deflate run (+ GZIP_FRAMING), which a real gzip reader accepts.
 */
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { deflateSync, gzipSync } from 'fflate';
import { codecByName, encodedBytes, encodedSize, type PrepareCache } from './codecs.js';
import { GZIP_FRAMING, isMeasured, runComparison } from './compare.js';
import { scanValue } from './features.js';
import { TaggedValue } from '../core/values.js';

// Not plain JSON (a Map, a bigint beyond 64 bits, a tag, bytes): every family converts it.
const value = {
  m: new Map<unknown, unknown>([
    [1, 'one'],
    ['k', [1, 2]],
  ]),
  big: 1n << 70n,
  t: new TaggedValue(1, 1700000000),
  b: Uint8Array.of(1, 2, 3),
  list: [
    { a: 1, b: 'x' },
    { a: 2, b: 'y' },
  ],
};

describe('work shared between codecs', () => {
  it('a value is converted once per family: codecs of one family get the same prepared value', () => {
    const f = scanValue(value);
    const cache: PrepareCache = new Map();
    const prepared = (name: string): unknown => codecByName(name)!.prepare(value, f, cache);
    expect(prepared('cbor-stable')).toBe(prepared('cbor'));
    expect(prepared('cbor-dag')).toBe(prepared('cbor'));
    expect(prepared('ion')).toBe(prepared('ubjson'));
    expect(prepared('bson')).toBe(prepared('ubjson'));
    // Different targets stay apart (CBOR keeps Maps; cbor-fast and MessagePack do not).
    expect(prepared('cbor-fast')).not.toBe(prepared('cbor'));
    expect(prepared('msgpack')).not.toBe(prepared('cbor'));
    expect(prepared('json')).not.toBe(prepared('ubjson'));
  });

  it('rows measured with shared conversions keep the sizes of codecs run alone', async () => {
    const rows = await runComparison(value, {
      runs: 1,
      warmup: 0,
      codecs: ['cbor', 'cbor-stable', 'cbor-dag', 'ubjson', 'bson', 'json', 'msgpack'],
    });
    expect(rows.filter(isMeasured)).toHaveLength(7);
    for (const row of rows.filter(isMeasured)) {
      const bytes = encodedBytes(codecByName(row.codec)!.encode(value));
      expect(row.size, row.codec).toBe(encodedSize(bytes));
      expect(row.deflate, row.codec).toBe(deflateSync(bytes).length);
      expect(row.gzip, row.codec).toBe(gzipSync(bytes).length);
    }
  });

  it('gzip = raw deflate + 18 bytes: the derived gzip member is what fflate writes and what zlib reads', () => {
    const bytes = new TextEncoder().encode(
      JSON.stringify({ list: Array.from({ length: 500 }, (_, i) => ({ i, s: `v${i % 17}` })) }),
    );
    const raw = deflateSync(bytes);
    const gz = gzipSync(bytes);
    expect(gz.length).toBe(raw.length + GZIP_FRAMING);
    // RFC 1952: a 10-byte header, the raw deflate stream unchanged, CRC-32 and length.
    expect(gz.subarray(10, 10 + raw.length)).toEqual(raw);
    expect(new Uint8Array(gunzipSync(gz))).toEqual(bytes);
  });
});
