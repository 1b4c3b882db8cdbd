import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { asciiEnd, byteView, decodeUtf8, findInvalidUtf8, findInvalidUtf8In } from './utf8.js';
import { referenceFindInvalidUtf8 } from '../test/helpers/utf8.js';

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
    const { utf16LengthOfUtf8 } = await import('./utf8.js');
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
    const { utf16LengthIfValidUtf8 } = await import('./utf8.js');
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 400 }), (s) => {
        const bytes = new TextEncoder().encode(s);
        return utf16LengthIfValidUtf8(bytes, 0, bytes.length) === s.length;
      }),
      { numRuns: 500, seed: 4 },
    );
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 600 }),
        (bytes) => utf16LengthIfValidUtf8(bytes, 0, bytes.length) >= 0 === referenceValid(bytes),
      ),
      { numRuns: 1000, seed: 5 },
    );
  });
});

/** Sequences to place at every position of a string: ill-formed ones, and well-formed ones that straddle word boundaries. */
const PLACED: { name: string; bytes: number[] }[] = [
  { name: 'lone continuation', bytes: [0x80] },
  { name: 'byte 0xff', bytes: [0xff] },
  { name: 'overlong 2-byte', bytes: [0xc0, 0x80] },
  { name: 'overlong 3-byte', bytes: [0xe0, 0x80, 0x80] },
  { name: 'overlong 4-byte', bytes: [0xf0, 0x80, 0x80, 0x80] },
  { name: 'surrogate', bytes: [0xed, 0xa0, 0x80] },
  { name: 'above U+10FFFF', bytes: [0xf4, 0x90, 0x80, 0x80] },
  { name: 'lead 0xf5', bytes: [0xf5, 0x80, 0x80, 0x80] },
  { name: 'cut 3-byte', bytes: [0xe2, 0x82] },
  { name: 'cut 4-byte', bytes: [0xf0, 0x9f, 0x92] },
  { name: 'bad continuation', bytes: [0xe2, 0x41, 0x80] },
  { name: 'é', bytes: [0xc3, 0xa9] },
  { name: '€', bytes: [0xe2, 0x82, 0xac] },
  { name: 'U+FFFF', bytes: [0xef, 0xbf, 0xbf] },
  { name: '💪', bytes: [0xf0, 0x9f, 0x92, 0xaa] },
  { name: 'U+10FFFF', bytes: [0xf4, 0x8f, 0xbf, 0xbf] },
];

describe('findInvalidUtf8In / asciiEnd (four bytes per load through a DataView)', () => {
  it('the reference agrees with a strict TextDecoder', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 40 }),
        (bytes) => referenceFindInvalidUtf8(bytes, 0, bytes.length) < 0 === referenceValid(bytes),
      ),
      { numRuns: 3000, seed: 6 },
    );
  });

  it('find the exact offset for every sequence at every position, length 0..70, view offset and start alignment', () => {
    const misses: string[] = [];
    for (const viewOffset of [0, 1, 2, 3, 5, 7]) {
      for (const start of [0, 1, 2, 3]) {
        for (let length = 0; length <= 70; length++) {
          // Bytes around the string (inside and outside the view) are 0xff: a load that
          // strays past the string's ends would see them.
          const buffer = new ArrayBuffer(viewOffset + start + length + 16);
          new Uint8Array(buffer).fill(0xff);
          const bytes = new Uint8Array(buffer, viewOffset, start + length + 5);
          const end = start + length;
          for (let i = start; i < end; i++) bytes[i] = 0x20 + ((i * 7) % 0x5f);
          const view = byteView(bytes);
          const check = (what: string) => {
            const expected = referenceFindInvalidUtf8(bytes, start, end);
            const got = [
              findInvalidUtf8In(bytes, view, start, end),
              findInvalidUtf8In(bytes, null, start, end),
              findInvalidUtf8(bytes, start, end),
            ];
            if (got.some((g) => g !== expected))
              misses.push(
                `${what} (view +${viewOffset}, start ${start}, length ${length}): expected ${expected}, got ${got}`,
              );
            let firstHigh = start;
            while (firstHigh < end && bytes[firstHigh] < 0x80) firstHigh++;
            const ascii = asciiEnd(bytes, view, start, end);
            if (ascii !== firstHigh)
              misses.push(
                `asciiEnd ${what} (view +${viewOffset}, start ${start}, length ${length}): expected ${firstHigh}, got ${ascii}`,
              );
          };
          check('ASCII');
          for (const placed of PLACED) {
            for (let at = start; at < end; at++) {
              const saved = bytes.slice(at, at + placed.bytes.length);
              const n = Math.min(placed.bytes.length, end - at);
              for (let k = 0; k < n; k++) bytes[at + k] = placed.bytes[k];
              check(`${placed.name} at ${at - start}`);
              bytes.set(saved, at);
            }
          }
        }
      }
    }
    expect(misses.slice(0, 20)).toEqual([]);
  });

  it('long strings, beyond every threshold (16-byte steps, the former 256-byte TextDecoder path)', () => {
    for (const length of [255, 256, 257, 1000, 4099, 70_001]) {
      const text = new TextEncoder().encode(
        'Level-up on the skills most in demand. '.repeat(Math.ceil(length / 39)).slice(0, length),
      );
      const bytes = new Uint8Array(text.length + 3);
      bytes.set(text, 3);
      const view = byteView(bytes);
      expect(findInvalidUtf8In(bytes, view, 3, bytes.length)).toBe(-1);
      expect(asciiEnd(bytes, view, 3, bytes.length)).toBe(bytes.length);
      for (const at of [
        3,
        4,
        5,
        6,
        7,
        18,
        19,
        20,
        bytes.length >> 1,
        bytes.length - 5,
        bytes.length - 2,
        bytes.length - 1,
      ]) {
        for (const bad of [[0x80], [0xed, 0xa0, 0x80], [0xc3]]) {
          const copy = bytes.slice();
          copy.set(bad.slice(0, copy.length - at), at);
          const expected = referenceFindInvalidUtf8(copy, 3, copy.length);
          expect(findInvalidUtf8In(copy, byteView(copy), 3, copy.length), `length ${length}, at ${at}`).toBe(expected);
          expect(findInvalidUtf8(copy, 3, copy.length)).toBe(expected);
          expect(asciiEnd(copy, byteView(copy), 3, copy.length)).toBe(at);
        }
      }
      // Non-ASCII text of the same length: valid, and the same answer as TextDecoder.
      const mixed = new TextEncoder().encode('ünïcødé 数据 😀 '.repeat(length / 10));
      expect(findInvalidUtf8In(mixed, byteView(mixed), 0, mixed.length)).toBe(-1);
      expect(findInvalidUtf8(mixed, 0, mixed.length)).toBe(-1);
    }
  });

  it('a Node Buffer (a view into the shared pool at some offset) and subarrays of one buffer', () => {
    const text = 'é'.repeat(20) + 'a'.repeat(40) + '€'.repeat(10);
    for (let k = 0; k < 8; k++) {
      const buf = Buffer.from('x'.repeat(k) + text);
      expect(buf.buffer.byteLength).toBeGreaterThan(buf.length); // a view into Node's pool
      expect(findInvalidUtf8(buf, k, buf.length)).toBe(-1);
      expect(findInvalidUtf8In(buf, byteView(buf), k, buf.length)).toBe(-1);
      buf[k + 45] = 0xc3; // cuts nothing: 'a' becomes a lead byte without its continuation
      expect(findInvalidUtf8(buf, k, buf.length)).toBe(k + 45);
      expect(findInvalidUtf8In(buf, byteView(buf), k, buf.length)).toBe(k + 45);
    }
    // Two views of one buffer at different offsets, one after the other: each is scanned as itself.
    const whole = new Uint8Array(200).fill(0x61);
    whole[150] = 0xff;
    const head = whole.subarray(0, 100);
    const tail = whole.subarray(100);
    expect(findInvalidUtf8(head, 0, 100)).toBe(-1);
    expect(findInvalidUtf8(tail, 0, 100)).toBe(50);
    expect(findInvalidUtf8(head, 0, 100)).toBe(-1);
  });

  it('a length-tracking view over a resizable buffer that grew between calls', () => {
    const buffer = new (
      ArrayBuffer as unknown as new (
        n: number,
        o: { maxByteLength: number },
      ) => ArrayBuffer & { resize(n: number): void }
    )(40, { maxByteLength: 400 });
    const bytes = new Uint8Array(buffer);
    bytes.fill(0x61);
    expect(findInvalidUtf8(bytes, 0, bytes.length)).toBe(-1);
    buffer.resize(400);
    bytes.fill(0x61);
    bytes[300] = 0x80;
    expect(bytes.length).toBe(400);
    expect(findInvalidUtf8(bytes, 0, bytes.length)).toBe(300);
  });
});
