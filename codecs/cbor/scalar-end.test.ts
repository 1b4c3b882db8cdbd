import { describe, expect, it } from 'vitest';
import { indexCbor } from './index.js';
import { cborScalarEnd } from './scalar-end.js';
import { makeRng } from '../core/rng.js';

describe('cborScalarEnd', () => {
  it('ends every one-byte simple value 0..23 after its byte (RFC 8949 3.3: all well-formed)', () => {
    for (let v = 0; v < 24; v++) {
      const bytes = Uint8Array.of(0xe0 | v, 0x00);
      expect(cborScalarEnd(bytes, 0, bytes.length)).toBe(1);
      expect(indexCbor(bytes.subarray(0, 1)).error).toBeNull();
    }
  });

  it('leaves two-byte simple values, containers, tags and indefinite strings to the walker', () => {
    for (const b of [0xf8, 0x80, 0xa0, 0xc0, 0x5f, 0x7f, 0xfc, 0xff, 0x1c])
      expect(cborScalarEnd(Uint8Array.of(b, 0x20, 0x20), 0, 3)).toBe(-1);
  });

  it('on random bytes, an end it gives is where the CBOR walker ends the first item, without error', () => {
    const rng = makeRng(8949);
    let found = 0;
    for (let n = 0; n < 20000; n++) {
      const bytes = new Uint8Array(1 + rng.int(12));
      for (let i = 0; i < bytes.length; i++) bytes[i] = rng.int(256);
      const end = cborScalarEnd(bytes, 0, bytes.length);
      if (end < 0) continue;
      found++;
      const item = indexCbor(bytes.subarray(0, end));
      expect(item.error).toBeNull();
      expect(item.store.end[0]).toBe(end);
    }
    expect(found).toBeGreaterThan(5000);
  });

  it('gives -1 for a string cut off by the limit and for text that is not UTF-8', () => {
    expect(cborScalarEnd(Uint8Array.of(0x63, 0x61, 0x62, 0x63), 0, 3)).toBe(-1);
    expect(cborScalarEnd(Uint8Array.of(0x62, 0xc3, 0x28), 0, 3)).toBe(-1);
    expect(cborScalarEnd(Uint8Array.of(0x62, 0xc3, 0xa9), 0, 3)).toBe(3);
  });
});
