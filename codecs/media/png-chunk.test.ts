import { crc32 as zlibCrc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32, pngChunk } from './png-chunk.js';

describe('PNG chunks', () => {
  it("CRC-32 agrees with zlib's on empty, short and 64 KiB inputs", () => {
    const inputs = [
      new Uint8Array(0),
      Uint8Array.of(0x49, 0x45, 0x4e, 0x44),
      Uint8Array.from({ length: 65536 }, (_, i) => (i * 31) & 0xff),
    ];
    for (const bytes of inputs) expect(crc32(bytes)).toBe(zlibCrc32(bytes));
  });

  it('writes length, type, data and the CRC of type and data (IEND is ae 42 60 82)', () => {
    const iend = pngChunk('IEND', new Uint8Array(0));
    expect(Array.from(iend)).toEqual([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);
    const data = Uint8Array.of(1, 2, 3);
    const chunk = pngChunk('tEXt', data);
    expect(new DataView(chunk.buffer).getUint32(0)).toBe(3);
    expect(Array.from(chunk.subarray(8, 11))).toEqual([1, 2, 3]);
    expect(new DataView(chunk.buffer).getUint32(11)).toBe(zlibCrc32(chunk.subarray(4, 11)));
  });
});
