import { describe, expect, it } from 'vitest';
import { parseHex } from '../input.js';
import { bytesFromHex, hexText } from './hex-text.js';

describe('hex edits', () => {
  it('read hex as the paste page does: 0x prefixes, commas and # comments', () => {
    const text = 'a2        # map(2)\n  61 61   # "a"\n  01\n  0x61, 0x62  # "b"\n  f5';
    const edited = bytesFromHex(text);
    expect(edited).toEqual({ ok: true, bytes: Uint8Array.from([0xa2, 0x61, 0x61, 0x01, 0x61, 0x62, 0xf5]) });
    const pasted = parseHex(text);
    expect(pasted.ok && pasted.bytes).toEqual(edited.ok && edited.bytes);
  });

  it('an empty text is an empty frame; a stray character or a lone digit is an error at its line and column', () => {
    expect(bytesFromHex('  # nothing\n')).toEqual({ ok: true, bytes: new Uint8Array(0) });
    expect(bytesFromHex('a1\n6g')).toMatchObject({ ok: false, error: { line: 2, column: 2 } });
    expect(bytesFromHex('a1 6')).toMatchObject({ ok: false, error: { line: 1, column: 4 } });
  });

  it('gives back the bytes hexText wrote', () => {
    const bytes = Uint8Array.from({ length: 40 }, (_, i) => (i * 37) & 255);
    expect(bytesFromHex(hexText(bytes))).toEqual({ ok: true, bytes });
  });
});
