import { describe, expect, it } from 'vitest';
import { deflateSync, zipSync } from 'fflate';
import { decodeFrame, previewValue } from '../index.js';
import { assertTiles } from '../protocols/test/tiles.js';

const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));
const u32be = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];

/** A 320×200 PNG header, an IDAT of zeros and IEND (CRCs are not checked). */
function png(width = 320, height = 200): Uint8Array {
  const ihdr = [...u32be(13), ...ascii('IHDR'), ...u32be(width), ...u32be(height), 8, 6, 0, 0, 0, 0, 0, 0, 0];
  const idat = deflateSync(new Uint8Array(64));
  return Uint8Array.from([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    ...ihdr,
    ...u32be(idat.length),
    ...ascii('IDAT'),
    ...idat,
    0,
    0,
    0,
    0,
    ...u32be(0),
    ...ascii('IEND'),
    0xae,
    0x42,
    0x60,
    0x82,
  ]);
}

const read = (bytes: Uint8Array) => decodeFrame(bytes, { isText: false });

describe('media frames by their magic', () => {
  it('a PNG is image/png with its IHDR size, each header field spanning its bytes', () => {
    const d = read(png());
    expect(d).toMatchObject({ format: 'media', verdict: 'decoded', error: null });
    const index = d.index!;
    expect(previewValue(index, index.root)).toBe(`image/png 320×200, ${d.index!.bytes.length} B`);
    const byKey = new Map(index.children(index.root).map((c) => [String(index.value(index.keyOf(c))), c]));
    const width = byKey.get('width')!;
    expect([index.store.start[width], index.store.end[width], index.value(width)]).toEqual([16, 20, 320]);
    expect(index.value(byKey.get('height')!)).toBe(200);
    expect([...(index.value(byKey.get('magic')!) as Uint8Array)]).toEqual([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a,
    ]);
    assertTiles(index);
  });

  it('a PNG cut inside its IHDR is malformed at the byte where it ends, its magic kept', () => {
    const d = read(png().subarray(0, 20));
    expect(d.format).toBe('media');
    expect(d.verdict).toBe('malformed');
    expect(d.error).toMatchObject({ code: 'truncated', offset: 20 });
    expect(d.index!.value(d.index!.root)).toMatchObject({
      magic: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    });
  });

  it('JPEG, GIF, WebP, PDF, zip and wasm are named, with a size where the header holds one', () => {
    const jpeg = Uint8Array.from([
      0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xc0, 0, 11, 8, 0, 120, 0, 160, 3, 1, 2, 3,
    ]);
    const gif = Uint8Array.from([...ascii('GIF89a'), 64, 0, 32, 0, 0, 0, 0, ...new Array(8).fill(0)]);
    const webp = Uint8Array.from([
      ...ascii('RIFF'),
      30,
      0,
      0,
      0,
      ...ascii('WEBPVP8X'),
      10,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      99,
      0,
      0,
      49,
      0,
      0,
    ]);
    const pdf = Uint8Array.from(ascii('%PDF-1.7\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n'));
    const zip = zipSync({ 'a.txt': new Uint8Array([1, 2, 3]) });
    const wasm = Uint8Array.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
    const previews = [jpeg, gif, webp, pdf, zip, wasm].map((b) => {
      const d = read(b);
      expect(d.format).toBe('media');
      assertTiles(d.index!);
      return previewValue(d.index!, d.index!.root);
    });
    expect(previews.map((p) => p.replace(/, \d+ B$/, ''))).toEqual([
      'image/jpeg 160×120',
      'image/gif 64×32',
      'image/webp 100×50',
      'application/pdf',
      'application/zip',
      'application/wasm',
    ]);
  });

  it('sizes read in KiB past 1,023 bytes', () => {
    const big = new Uint8Array(1250);
    big.set(png());
    expect(previewValue(read(big).index!, 0)).toBe('image/png 320×200, 1.2 KiB');
  });

  it('a text frame that starts like a GIF is text, not media', () => {
    expect(decodeFrame(new TextEncoder().encode('GIF89a is a format'), { isText: true }).format).not.toBe('media');
  });
});
