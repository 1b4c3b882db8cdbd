import { crc32 as zlibCrc32, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { socketIoUpload } from './real-traffic.js';
import { makeRng } from './rng.js';

/** The chunks of a PNG, with whether each one's CRC is right. */
function chunks(png: Uint8Array): { type: string; data: Uint8Array; crcOk: boolean }[] {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const out = [];
  for (let at = 8; at < png.length; ) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    const data = png.subarray(at + 8, at + 8 + length);
    const crc = view.getUint32(at + 8 + length);
    out.push({ type, data, crcOk: crcOf(png.subarray(at + 4, at + 8 + length)) === crc });
    at += 12 + length;
  }
  return out;
}

// zlib's own CRC-32 (Node 20.15+), independent of the demo's.
const crcOf = (bytes: Uint8Array): number => zlibCrc32(bytes) >>> 0;

describe("the demo's Socket.IO upload", () => {
  it('is a whole PNG a browser can draw: 320×200, every chunk CRC right, the image data inflates to every scanline', () => {
    const [, png] = socketIoUpload(makeRng(3));
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const list = chunks(png);
    expect(list.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect(list.every((c) => c.crcOk)).toBe(true);
    const ihdr = new DataView(list[0].data.buffer, list[0].data.byteOffset);
    expect([ihdr.getUint32(0), ihdr.getUint32(4)]).toEqual([320, 200]);
    expect(inflateSync(list[1].data).length).toBe(200 * (1 + 320 * 3));
  });
});
