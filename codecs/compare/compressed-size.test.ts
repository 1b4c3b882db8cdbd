/**
 * The comparison's gzip and deflate sizes are counted, not compressed
 * (compare/compressed-size.ts). Every size must be what fflate really writes: checked here
 * against `deflateSync` / `gzipSync` on generated values in every json-pack codec, on
 * random and repetitive bytes across fflate's block and hash-size boundaries, and on the
 * ~1 MB document of the benchmark (bench-1mb.ts) in the rows a comparison makes.
 */
import fc from 'fast-check';
import { deflateSync, gzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { generateDocument } from '../bench/generate.js';
import { CODECS, encodedBytes } from './codecs.js';
import { isMeasured, runComparison } from './compare.js';
import { CompressedSizer } from './compressed-size.js';

const jsonPackCodecs = CODECS.filter((c) => c.family !== 'json-joy');

const fflateSizes = (bytes: Uint8Array) => ({ deflate: deflateSync(bytes).length, gzip: gzipSync(bytes).length });

describe('compressed sizes without compressing', () => {
  it('equal fflate on generated values in every json-pack codec', () => {
    const sizer = new CompressedSizer();
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.integer({ min: 1, max: 40 }), (value, copies) => {
        // Copies of one value: long repeats, as real documents have them (the match finder's work).
        const doc = { list: Array.from({ length: copies }, () => value), tail: value };
        for (const codec of jsonPackCodecs) {
          if (codec.represent(doc)) continue;
          const bytes = encodedBytes(codec.encode(doc));
          expect(sizer.sizes(bytes), codec.name).toEqual(fflateSizes(bytes));
        }
      }),
      { numRuns: 60 },
    );
  });

  it('equal fflate on bytes of every length class (empty, one byte, block splits, hash sizes)', () => {
    const sizer = new CompressedSizer();
    let seed = 7;
    const rand = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 16) & 0xff;
    const text = new TextEncoder().encode(
      '{"id":1,"type":"trade","price":12.5,"tags":["alpha","bravo"]},'.repeat(4000),
    );
    for (const length of [0, 1, 2, 3, 100, 4096, 70_000, 200_000]) {
      const random = Uint8Array.from({ length }, rand);
      const words = Uint8Array.from({ length }, () => 97 + (rand() % 4));
      for (const bytes of [random, words, text.subarray(0, length)])
        expect(sizer.sizes(bytes), `${length}`).toEqual(fflateSizes(bytes));
    }
  });

  it("a 1 MB comparison shows fflate's sizes in every json-pack row", async () => {
    const doc = generateDocument(1 << 20);
    const rows = await runComparison(doc, { runs: 1, warmup: 0, codecs: jsonPackCodecs });
    expect(rows.filter(isMeasured)).toHaveLength(jsonPackCodecs.length);
    for (const row of rows.filter(isMeasured)) {
      const bytes = encodedBytes(CODECS.find((c) => c.name === row.codec)!.encode(doc));
      expect(bytes.length).toBeGreaterThan(600_000);
      expect({ deflate: row.deflate, gzip: row.gzip }, row.codec).toEqual(fflateSizes(bytes));
    }
  }, 60_000);
});
