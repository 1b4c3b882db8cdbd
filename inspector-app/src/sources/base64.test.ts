import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeBase64, encodeBase64 } from './base64.js';

describe('base64', () => {
  it('matches Node for every length and both alphabets', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const buf = Buffer.from(bytes);
        expect(encodeBase64(bytes)).toBe(buf.toString('base64'));
        expect(encodeBase64(bytes, { url: true })).toBe(buf.toString('base64url'));
        expect(encodeBase64(bytes, { url: true, pad: true })).toBe(
          buf.toString('base64').replace(/\+/g, '-').replace(/\//g, '_'),
        );
        for (const text of [buf.toString('base64'), buf.toString('base64url')]) {
          const decoded = decodeBase64(text);
          expect(decoded.ok && Buffer.from(decoded.bytes).equals(buf)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('encodes a multi-megabyte frame', () => {
    const big = new Uint8Array(5 * 1024 * 1024).map((_, i) => (i * 31) & 255);
    const text = encodeBase64(big);
    expect(text).toBe(Buffer.from(big).toString('base64'));
    const back = decodeBase64(text);
    expect(back.ok && Buffer.from(back.bytes).equals(Buffer.from(big))).toBe(true);
  });

  it('ignores whitespace; rejects bad characters, lengths and padding with an offset', () => {
    expect(decodeBase64('gwEC\nAw==')).toMatchObject({ ok: true, bytes: Uint8Array.of(0x83, 1, 2, 3) });
    expect(decodeBase64('gw*C')).toMatchObject({ ok: false, offset: 2 });
    expect(decodeBase64('gwECA')).toMatchObject({ ok: false, error: expect.stringContaining('impossible length') });
    expect(decodeBase64('gw=C')).toMatchObject({ ok: false, offset: 3 });
    expect(decodeBase64('gwE==')).toMatchObject({ ok: false, error: expect.stringContaining('padding') });
    expect(decodeBase64('')).toMatchObject({ ok: true, bytes: new Uint8Array(0) });
  });
});
