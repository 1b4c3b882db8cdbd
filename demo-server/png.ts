import { deflateSync } from 'node:zlib';
import { pngChunk } from '../codecs/media/png-chunk.js';

/** A real PNG (8-bit RGB, no interlace) of `width`×`height` whose pixel at (x, y) is `rgb(x, y)`. */
export function pngImage(
  width: number,
  height: number,
  rgb: (x: number, y: number) => [number, number, number],
): Uint8Array {
  const header = new Uint8Array(13);
  const hv = new DataView(header.buffer);
  hv.setUint32(0, width);
  hv.setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8);
  // Each scanline: filter type 1 (Sub: each byte less the same byte of the pixel to its left), then its pixels.
  const raw = new Uint8Array(height * (1 + width * 3));
  for (let y = 0, at = 0; y < height; y++) {
    raw[at++] = 1;
    let left = [0, 0, 0];
    for (let x = 0; x < width; x++) {
      const px = rgb(x, y);
      for (let c = 0; c < 3; c++) raw[at++] = (px[c] - left[c]) & 0xff;
      left = px;
    }
  }
  const parts = [
    Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a),
    pngChunk('IHDR', header),
    pngChunk('IDAT', new Uint8Array(deflateSync(raw))),
    pngChunk('IEND', new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
