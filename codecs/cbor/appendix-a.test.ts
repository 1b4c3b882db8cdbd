import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { indexCbor } from './index.js';
import { diagnostic } from '../core/diagnostic.js';
import { hex, parseJsonExact, reencodeIndexed, repoRoot, tilingProblems, toHex } from '../test/helpers/cbor.js';

/** RFC 8949 Appendix A: the examples of encoded CBOR data items. */
interface Vector {
  cbor: string;
  hex: string;
  roundtrip: boolean;
  decoded?: unknown;
  diagnostic?: string;
}

const file = path.resolve(repoRoot, '../shared/test-vectors/cbor-appendix-a.json');
// Parsed so that the four integers beyond 2^53 stay exact (as bigint).
const vectors = parseJsonExact(fs.readFileSync(file, 'utf8')) as Vector[];

/**
 * `f818` (simple(24)) is copied from RFC 7049's Appendix A. RFC 8949 section 3.3 makes a
 * two-byte simple value below 32 not well-formed, and Appendix F.1 lists `f8 18` among the
 * reserved two-byte encodings of simple values, so the walker must refuse it.
 */
const NOT_WELL_FORMED_IN_RFC_8949 = new Set(['f818']);

const checked = {
  decoded: new Set<string>(),
  diagnostic: new Set<string>(),
  roundtrip: new Set<string>(),
  refused: new Set<string>(),
};

describe('RFC 8949 Appendix A vectors', () => {
  it('has 82 vectors, each with base64 matching hex and exactly one of decoded / diagnostic', () => {
    expect(vectors).toHaveLength(82);
    for (const v of vectors) {
      expect(Buffer.from(v.cbor, 'base64').toString('hex')).toBe(v.hex);
      expect('decoded' in v !== 'diagnostic' in v).toBe(true);
    }
    // The four integers beyond 2^53 were kept exact.
    const big = vectors.filter((v) => typeof v.decoded === 'bigint').map((v) => [v.hex, v.decoded]);
    expect(big).toEqual([
      ['1bffffffffffffffff', 18446744073709551615n],
      ['c249010000000000000000', 18446744073709551616n],
      ['3bffffffffffffffff', -18446744073709551616n],
      ['c349010000000000000000', -18446744073709551617n],
    ]);
  });

  for (const v of vectors) {
    describe(v.hex, () => {
      if (NOT_WELL_FORMED_IN_RFC_8949.has(v.hex)) {
        it('is refused as not well-formed under RFC 8949 (invalid-simple at 0)', () => {
          const index = indexCbor(hex(v.hex));
          expect(index.error).not.toBeNull();
          expect(index.error!.code).toBe('invalid-simple');
          expect(index.error!.offset).toBe(0);
          expect(() => index.value(0)).not.toThrow();
          checked.refused.add(v.hex);
        });
        return;
      }

      it('indexes without error and tiles the whole buffer', () => {
        const index = indexCbor(hex(v.hex));
        expect(index.error).toBeNull();
        index.expandAll(0);
        expect(tilingProblems(index)).toEqual([]);
      });

      if ('decoded' in v) {
        it('materializes the decoded value', () => {
          const value = indexCbor(hex(v.hex)).value(0);
          expect(value).toStrictEqual(v.decoded);
          // toStrictEqual already tells -0 from 0; make the f98000 case explicit anyway.
          if (typeof v.decoded === 'number') expect(Object.is(value, v.decoded)).toBe(true);
          checked.decoded.add(v.hex);
        });
      } else {
        it('prints the diagnostic notation', () => {
          const index = indexCbor(hex(v.hex));
          expect(diagnostic(index, 0, { indicators: 'never' })).toBe(v.diagnostic);
          checked.diagnostic.add(v.hex);
        });
      }

      if (v.roundtrip) {
        it('re-encodes to the same bytes', () => {
          const index = indexCbor(hex(v.hex));
          expect(toHex(reencodeIndexed(index, 0))).toBe(v.hex);
          checked.roundtrip.add(v.hex);
        });
      }
    });
  }

  // Runs last (tests run in declaration order): every vector went through one of the branches
  // above, which guards against a silently skipped case.
  it('checked every vector', () => {
    const all = new Set([...checked.decoded, ...checked.diagnostic, ...checked.refused]);
    expect(all.size).toBe(82);
    expect(checked.refused).toEqual(NOT_WELL_FORMED_IN_RFC_8949);
    expect(checked.decoded.size + checked.diagnostic.size).toBe(81);
    expect(checked.roundtrip.size).toBe(vectors.filter((v) => v.roundtrip).length - 1);
  });
});
