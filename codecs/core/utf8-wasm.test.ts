import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  byteView,
  findInvalidLongUtf8,
  findInvalidUtf8,
  findInvalidUtf8With,
  releaseByteView,
  setSimdUtf8,
} from './utf8.js';
import { createWasmUtf8, type WasmUtf8 } from './utf8-wasm/wasm-validator.js';
import { referenceFindInvalidUtf8 } from '../test/helpers/utf8.js';

/**
 * The WebAssembly SIMD validator (with the JS rescan that turns its block into a byte) must
 * say exactly what the JS validator says: valid or not, and the same offset, for any bytes
 * at any place in a frame. Bytes around the range are chosen to mislead (a lead byte just
 * before it, continuations just after): they are no part of the text.
 */
const simd: WasmUtf8 = createWasmUtf8(WebAssembly)!;

/** bytes placed at `offset` of a frame, between misleading neighbours; returns [frame, start, end]. */
function inFrame(bytes: Uint8Array, offset: number): [Uint8Array, number, number] {
  const frame = new Uint8Array(offset + bytes.length + 20);
  frame.fill(0xbf);
  if (offset > 0) frame[offset - 1] = 0xf0;
  frame.set(bytes, offset);
  return [frame, offset, offset + bytes.length];
}

/** Both validators on one range; the frame is new to the SIMD one (each call may copy it). */
function bothAgree(frame: Uint8Array, start: number, end: number): boolean {
  simd.release();
  const js = findInvalidUtf8(frame, start, end);
  const wasm = findInvalidUtf8With(simd, frame, start, end);
  return js === wasm && js === referenceFindInvalidUtf8(frame, start, end);
}

function expectAgree(frame: Uint8Array, start: number, end: number, what: string): void {
  simd.release();
  const js = findInvalidUtf8(frame, start, end);
  expect(findInvalidUtf8With(simd, frame, start, end), what).toBe(js);
  expect(referenceFindInvalidUtf8(frame, start, end), what).toBe(js);
}

/** Valid UTF-8 of exactly `length` bytes, from fast-check's choices: widths and code points. */
function validText(length: number, choices: readonly number[]): Uint8Array {
  const out: number[] = [];
  let k = 0;
  while (out.length < length) {
    const c = choices.length === 0 ? 0 : choices[k++ % choices.length];
    const width = 1 + (c % Math.min(4, length - out.length));
    const r = Math.floor(c / 4);
    let cp: number;
    if (width === 1) cp = r % 0x80;
    else if (width === 2) cp = 0x80 + (r % (0x800 - 0x80));
    else if (width === 3) {
      cp = 0x800 + (r % (0x10000 - 0x800 - 0x800));
      if (cp >= 0xd800) cp += 0x800; // past the surrogates
    } else cp = 0x10000 + (r % (0x110000 - 0x10000));
    out.push(...new TextEncoder().encode(String.fromCodePoint(cp)));
  }
  return new Uint8Array(out);
}

describe('the SIMD UTF-8 validator agrees with the JS one', () => {
  it('is available here (Node has WebAssembly SIMD)', () => {
    expect(simd).not.toBeNull();
  });

  it('random bytes, at any offset', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), fc.nat(40), (bytes, offset) =>
        bothAgree(...inFrame(bytes, offset)),
      ),
      { numRuns: 3000, seed: 13 },
    );
  });

  it('random mostly-valid bytes: text with a few bytes changed', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 400 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 60 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 3 }),
        fc.nat(31),
        (length, choices, changes, offset) => {
          const bytes = validText(length, choices);
          for (const [at, value] of changes) if (bytes.length > 0) bytes[at % bytes.length] = value;
          return bothAgree(...inFrame(bytes, offset));
        },
      ),
      { numRuns: 3000, seed: 14 },
    );
  });

  it("the walkers' entry (SIMD whole, SIMD from the first non-ASCII byte, or JS, by length) gives the same offsets", () => {
    setSimdUtf8(simd);
    try {
      fc.assert(
        fc.property(
          fc.integer({ min: 17, max: 300 }),
          fc.array(fc.nat(), { minLength: 1, maxLength: 60 }),
          fc.nat(40),
          fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 2 }),
          fc.nat(31),
          (length, choices, asciiPrefix, changes, offset) => {
            // An ASCII prefix of random length: the split between asciiEnd and SIMD moves.
            const text = validText(length, choices);
            const bytes = new Uint8Array(text.length + asciiPrefix);
            bytes.fill(0x61, 0, asciiPrefix);
            bytes.set(text, asciiPrefix);
            for (const [at, value] of changes) bytes[at % bytes.length] = value;
            const [frame, start, end] = inFrame(bytes, offset);
            const expected = findInvalidUtf8(frame, start, end);
            const got = findInvalidLongUtf8(frame, byteView(frame), start, end);
            releaseByteView();
            return got === expected;
          },
        ),
        { numRuns: 3000, seed: 15 },
      );
    } finally {
      setSimdUtf8(undefined);
    }
  });

  it('random valid UTF-8 of every length 0-300, at every offset modulo 16', () => {
    for (let length = 0; length <= 300; length++) {
      fc.assert(
        fc.property(fc.array(fc.nat(), { minLength: 1, maxLength: 80 }), fc.nat(15), (choices, offset) => {
          const bytes = validText(length, choices);
          if (bytes.length !== length) return false;
          const [frame, start, end] = inFrame(bytes, offset);
          simd.release();
          return findInvalidUtf8With(simd, frame, start, end) === -1 && findInvalidUtf8(frame, start, end) === -1;
        }),
        { numRuns: 12, seed: length },
      );
    }
  });

  it('every lead byte with every second byte, whole or cut off, at every lane position', () => {
    // ASCII before (or a 3-byte character ending just before), the pair, ASCII after.
    for (const before of [[], [0xe2, 0x82, 0xac]]) {
      for (let position = 0; position < 18; position++) {
        for (let b0 = 0x80; b0 <= 0xff; b0++) {
          const bytes = new Uint8Array(40).fill(0x61);
          bytes.set(before, Math.max(0, position - before.length));
          bytes[position] = b0;
          // Cut right after the lead byte: a truncated sequence (or a stray byte).
          expectAgree(bytes, 0, position + 1, `${b0.toString(16)} at ${position}, cut`);
          for (let b1 = 0; b1 <= 0xff; b1++) {
            bytes[position + 1] = b1;
            if (!bothAgree(bytes, 0, position + 2) || !bothAgree(bytes, 0, 40)) {
              expectAgree(bytes, 0, position + 2, `${b0.toString(16)} ${b1.toString(16)} at ${position}`);
              expectAgree(bytes, 0, 40, `${b0.toString(16)} ${b1.toString(16)} at ${position}, then ASCII`);
            }
          }
        }
      }
    }
  });

  it('3- and 4-byte sequences at their edges: overlongs, surrogates, above U+10FFFF, bad and missing continuations', () => {
    const seconds = [0x00, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xff];
    const laters = [0x7f, 0x80, 0xbf, 0xc0];
    for (let position = 0; position < 34; position++) {
      for (let b0 = 0xe0; b0 <= 0xff; b0++) {
        for (const b1 of seconds) {
          for (const b2 of laters) {
            for (const b3 of b0 >= 0xf0 ? laters : [0x61]) {
              const bytes = new Uint8Array(64).fill(0x61);
              bytes.set([b0, b1, b2, b3], position);
              const what = `${[b0, b1, b2, b3].map((b) => b.toString(16)).join(' ')} at ${position}`;
              for (let cut = 1; cut <= 4; cut++) {
                if (!bothAgree(bytes, 0, position + cut))
                  expectAgree(bytes, 0, position + cut, `${what}, cut after ${cut}`);
              }
              if (!bothAgree(bytes, 0, 64)) expectAgree(bytes, 0, 64, what);
            }
          }
        }
      }
    }
  });

  it('a bad byte at every position across the 16-byte lanes of mixed-script text', () => {
    const text = new TextEncoder().encode('naïve café — 東京 😀 Straße привет 👍🏽 the frame socket queue '.repeat(3));
    for (let offset = 0; offset < 16; offset++) {
      for (let at = 0; at < 96; at++) {
        for (const bad of [0x80, 0xbf, 0xc0, 0xc1, 0xe0, 0xed, 0xf0, 0xf4, 0xf5, 0xff, 0x41]) {
          const bytes = text.slice(0, 96);
          bytes[at] = bad;
          const [frame, start, end] = inFrame(bytes, offset);
          if (!bothAgree(frame, start, end))
            expectAgree(frame, start, end, `0x${bad.toString(16)} at ${at}, offset ${offset}`);
        }
      }
    }
  });

  it('long text: many windows, strings across a window edge, a string longer than the memory', () => {
    const unit = new TextEncoder().encode('mixed 世界 text ü 🎉 and more plain words here; ');
    // 300 KiB of strings of 1-3 KiB, validated in order as a walker does.
    const frame = new Uint8Array(300 << 10);
    const ranges: [number, number][] = [];
    for (let p = 0, n = 0; p + 4000 < frame.length; n++) {
      const length = 1000 + ((n * 7919) % 2000);
      for (let i = 0; i < length; i++) frame[p + i] = unit[i % unit.length];
      // Keep whole characters: end where the unit's next character would start.
      let end = p + length;
      while ((unit[(end - p) % unit.length] & 0xc0) === 0x80) end--;
      ranges.push([p, end]);
      p += length + 3;
    }
    frame[ranges[100][0] + 500] = 0xc0;
    simd.release();
    const wasm = ranges.map(([s, e]) => findInvalidUtf8With(simd, frame, s, e));
    expect(wasm).toEqual(ranges.map(([s, e]) => findInvalidUtf8(frame, s, e)));
    // The sequence the changed byte is in: it or up to 3 bytes before.
    const bad = ranges[100][0] + 500;
    expect(wasm.filter((r) => r >= 0)).toEqual([expect.toSatisfy((r: number) => r >= bad - 3 && r <= bad)]);
    // One string of 200 KiB (the memory grows), invalid near its end, then valid.
    const long = new Uint8Array(200 << 10);
    for (let i = 0; i < long.length; i++) long[i] = unit[i % unit.length];
    let end = long.length;
    while ((unit[end % unit.length] & 0xc0) === 0x80) end--;
    expect(findInvalidUtf8With(simd, long, 0, end)).toBe(-1);
    long[end - 2] = 0xe2;
    simd.release();
    expect(findInvalidUtf8With(simd, long, 0, end)).toBe(findInvalidUtf8(long, 0, end));
    expect(findInvalidUtf8With(simd, long, 0, end)).toBe(end - 2);
  });
});

describe('where the SIMD validator cannot run', () => {
  it('no WebAssembly: none is made', () => {
    expect(createWasmUtf8(undefined)).toBeNull();
  });

  it('a CSP without wasm-unsafe-eval (compiling throws): none is made, nothing thrown', () => {
    const forbidden = {
      Module: class {
        constructor() {
          throw new WebAssembly.CompileError(
            "WebAssembly.Module(): Refused to compile or instantiate WebAssembly module because 'unsafe-eval' is not an allowed source of script",
          );
        }
      },
      Instance: WebAssembly.Instance,
    } as unknown as typeof WebAssembly;
    expect(createWasmUtf8(forbidden)).toBeNull();
  });

  it('no SIMD (the module does not validate): none is made', () => {
    const noSimd = {
      Module: class {
        constructor() {
          throw new WebAssembly.CompileError('WebAssembly.Module(): invalid value type 0x7b');
        }
      },
      Instance: WebAssembly.Instance,
    } as unknown as typeof WebAssembly;
    expect(createWasmUtf8(noSimd)).toBeNull();
  });

  it('an engine that runs the module wrong (the self-test fails): none is made', () => {
    // A module exporting `validate` that calls everything valid: wabt's assembly of
    // (module (memory (export "memory") 1) (func (export "validate") (param i32 i32) (result i32) i32.const -1))
    const lying = new Uint8Array([
      0, 97, 115, 109, 1, 0, 0, 0, 1, 7, 1, 96, 2, 127, 127, 1, 127, 3, 2, 1, 0, 5, 3, 1, 0, 1, 7, 21, 2, 6, 109, 101,
      109, 111, 114, 121, 2, 0, 8, 118, 97, 108, 105, 100, 97, 116, 101, 0, 0, 10, 6, 1, 4, 0, 65, 127, 11,
    ]);
    const wrong = {
      Module: class extends WebAssembly.Module {
        constructor() {
          super(lying);
        }
      },
      Instance: WebAssembly.Instance,
    } as unknown as typeof WebAssembly;
    expect(createWasmUtf8(wrong)).toBeNull();
  });
});
