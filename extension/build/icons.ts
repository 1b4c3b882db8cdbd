/**
 * The extension's icons, drawn at build time: a rounded square with byte-size bars (what a
 * frame's fields cost). A minimal PNG encoder: RGBA, no filters, zlib from Node.
 */
import { deflateSync } from 'node:zlib';
import { pngChunk } from '../../codecs/media/png-chunk.js';

/** Encodes `rgba` (width × height × 4 bytes, row-major) as a PNG file. */
export function encodePng(width: number, height: number, rgba: Uint8Array): Uint8Array {
  if (rgba.length !== width * height * 4) throw new Error('encodePng: rgba size does not match');
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, width);
  v.setUint32(4, height);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, no filter method, no interlace
  const raw = new Uint8Array(height * (1 + width * 4));
  for (let y = 0; y < height; y++) raw.set(rgba.subarray(y * width * 4, (y + 1) * width * 4), y * (1 + width * 4) + 1);
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw, { level: 9 })),
    pngChunk('IEND', new Uint8Array()),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The icon at `size` px: 4× supersampled for smooth edges. */
export function drawIcon(size: number): Uint8Array {
  const S = 4;
  const bg = [0x1d, 0x4e, 0xd8];
  const fg = [0xff, 0xff, 0xff];
  const bars = [0.45, 0.8, 0.3, 0.62]; // heights as a share of the inner box
  const rgba = new Uint8Array(size * size * 4);
  const r = 0.22; // corner radius, share of the size
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let inBg = 0;
      let inFg = 0;
      for (let sy = 0; sy < S; sy++) {
        for (let sx = 0; sx < S; sx++) {
          const u = (x + (sx + 0.5) / S) / size;
          const w = (y + (sy + 0.5) / S) / size;
          const dx = Math.max(r - u, 0, u - (1 - r));
          const dy = Math.max(r - w, 0, w - (1 - r));
          if (dx * dx + dy * dy > r * r) continue;
          inBg++;
          // Four bars in the box 0.2..0.8, baseline at 0.8.
          const slot = (u - 0.2) / 0.6;
          if (slot < 0 || slot >= 1 || w > 0.8) continue;
          const i = Math.floor(slot * 4);
          const within = slot * 4 - i;
          if (within > 0.14 && within < 0.86 && w >= 0.8 - bars[i]! * 0.6) inFg++;
        }
      }
      const o = (y * size + x) * 4;
      const f = inBg ? inFg / inBg : 0;
      for (let c = 0; c < 3; c++) rgba[o + c] = Math.round(bg[c]! * (1 - f) + fg[c]! * f);
      rgba[o + 3] = Math.round((inBg / (S * S)) * 255);
    }
  }
  return encodePng(size, size, rgba);
}

export const ICON_SIZES = [16, 32, 48, 128] as const;
