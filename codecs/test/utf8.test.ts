import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeUtf8, findInvalidUtf8 } from '../core/utf8.js';

const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Reference: does a strict decoder accept the bytes? */
function referenceValid(bytes: Uint8Array): boolean {
  try {
    fatal.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

describe('findInvalidUtf8', () => {
  it('agrees with a strict TextDecoder at every length and alignment, with a bad byte anywhere', () => {
    const text = new TextEncoder().encode('The quick brown fox — jumps over the lazy dog ✓ 𝄞 '.repeat(12));
    for (let offset = 0; offset < 8; offset++) {
      for (const length of [0, 1, 3, 4, 5, 31, 32, 33, 64, 100, 255, 256, 300, text.length]) {
        const buffer = new Uint8Array(offset + length + 8);
        buffer.set(text.subarray(0, length), offset);
        const view = buffer.subarray(offset, offset + length);
        // Cutting the sample may split a character: the reference decides.
        expect(findInvalidUtf8(buffer, offset, offset + length) < 0).toBe(referenceValid(view));
        for (const bad of [0x80, 0xc0, 0xff]) {
          for (let at = 0; at < length; at += length > 100 ? 37 : 7) {
            const copy = buffer.slice();
            copy[offset + at] = bad;
            const found = findInvalidUtf8(copy, offset, offset + length);
            const valid = referenceValid(copy.subarray(offset, offset + length));
            expect(found < 0, `offset ${offset} length ${length} bad 0x${bad.toString(16)} at ${at}`).toBe(valid);
            if (!valid) expect(found).toBeLessThanOrEqual(offset + at);
          }
        }
      }
    }
  });

  it('random byte strings: valid exactly when TextDecoder says so', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), fc.nat(7), (bytes, offset) => {
        const buffer = new Uint8Array(bytes.length + offset);
        buffer.set(bytes, offset);
        return findInvalidUtf8(buffer, offset, buffer.length) < 0 === referenceValid(bytes);
      }),
      { numRuns: 2000, seed: 1 },
    );
  });

  it('random text: valid, and decodes back', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), (s) => {
        const bytes = new TextEncoder().encode(s);
        return findInvalidUtf8(bytes, 0, bytes.length) === -1 && decodeUtf8(bytes, 0, bytes.length) === s;
      }),
      { numRuns: 1000, seed: 2 },
    );
  });
});

describe('utf16LengthOfUtf8', () => {
  it('equals the decoded string length, at every alignment', async () => {
    const { utf16LengthOfUtf8 } = await import('../core/utf8.js');
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.nat(7), (s, offset) => {
        const encoded = new TextEncoder().encode(s);
        const buffer = new Uint8Array(encoded.length + offset);
        buffer.set(encoded, offset);
        return utf16LengthOfUtf8(buffer, offset, buffer.length) === s.length;
      }),
      { numRuns: 1000, seed: 3 },
    );
  });
});

describe('utf16LengthIfValidUtf8', () => {
  it('is the decoded length for valid UTF-8 (short and long) and -1 for invalid bytes', async () => {
    const { utf16LengthIfValidUtf8 } = await import('../core/utf8.js');
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 400 }), (s) => {
        const bytes = new TextEncoder().encode(s);
        return utf16LengthIfValidUtf8(bytes, 0, bytes.length) === s.length;
      }),
      { numRuns: 500, seed: 4 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => (utf16LengthIfValidUtf8(bytes, 0, bytes.length) >= 0) === referenceValid(bytes)),
      { numRuns: 1000, seed: 5 },
    );
  });
});
