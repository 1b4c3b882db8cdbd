import { afterEach, describe, expect, it } from 'vitest';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { Packr } from 'msgpackr';
import { SpanIndex, type FormatWalker } from './span-index.js';
import { cborWalker } from '../cbor/walker.js';
import { msgpackWalker } from '../msgpack/walker.js';
import { setSimdUtf8, simdUtf8 } from './utf8.js';
import { createWasmUtf8, type WasmUtf8 } from './utf8-wasm/wasm-validator.js';
import { shapeValues, SHAPES } from '../bench/shapes.js';

/**
 * The CBOR and MessagePack walkers check long text with the WebAssembly SIMD validator where
 * it runs, and give the same index, errors and warnings where it does not (no WebAssembly, a
 * CSP that forbids it): the JS validator is the fallback, silently.
 */
const cbor = new CborEncoder();
const packr = new Packr({ useRecords: false });
const encoders: [string, FormatWalker, (v: unknown) => Uint8Array][] = [
  ['cbor', cborWalker, (v) => cbor.encode(v).slice()],
  ['msgpack', msgpackWalker, (v) => Uint8Array.from(packr.pack(v))],
];

afterEach(() => setSimdUtf8(undefined));

/** The real validator, counting the strings it is given. */
function countingValidator(): WasmUtf8 & { calls: number } {
  const real = createWasmUtf8(WebAssembly)!;
  const counting = {
    calls: 0,
    errorBlock(bytes: Uint8Array, start: number, end: number) {
      counting.calls++;
      return real.errorBlock(bytes, start, end);
    },
    release: () => real.release(),
    heldBytes: () => real.heldBytes(),
  };
  return counting;
}

/** What an index says: every node's span, kind and flags, the error and the warnings. */
function summary(index: SpanIndex): unknown {
  const { store } = index;
  const nodes: number[] = [];
  for (let id = 0; id < store.size; id++) nodes.push(store.kind[id], store.start[id], store.end[id], store.flags[id]);
  return { nodes, error: index.error, warnings: index.warnings };
}

const texts = shapeValues(
  13,
  SHAPES.filter((s) => s.id === 'text' || s.id === 'tweets'),
  [64 << 10],
).filter((v) => v.target >= 3500);

describe('text validation in the walkers', () => {
  it('long text goes to the SIMD validator, at full depth and at depth 1', () => {
    for (const [format, walker, encode] of encoders) {
      const frame = encode(texts.find((v) => v.shape.id === 'text' && v.target === 64 << 10)!.value);
      for (const depth of [Infinity, 1]) {
        const validator = countingValidator();
        setSimdUtf8(validator);
        const index = new SpanIndex(frame, walker, { depth });
        expect(index.error, format).toBeNull();
        // MessagePack leaves text below the recorded depth to be checked when it is opened.
        if (format === 'cbor' || depth === Infinity)
          expect(validator.calls, `${format} depth ${depth}`).toBeGreaterThan(20);
      }
    }
  });

  it('the same index with and without it, valid frames and frames with bad bytes in their text', () => {
    let flagged = 0;
    let compared = 0;
    for (const [format, walker, encode] of encoders) {
      for (const { shape, target, value } of texts) {
        const frame = encode(value);
        // Bad bytes in long strings, one per frame, at a few places.
        const frames = [frame];
        for (const fraction of [0.13, 0.5, 0.87]) {
          for (const bad of [0x80, 0xc0, 0xed, 0xf5]) {
            const copy = frame.slice();
            let at = Math.floor(copy.length * fraction);
            while (at < copy.length && copy[at] < 0x61) at++; // a letter: inside text
            copy[at] = bad;
            frames.push(copy);
          }
        }
        for (const f of frames) {
          for (const depth of [Infinity, 1]) {
            setSimdUtf8(null);
            const js = summary(new SpanIndex(f, walker, { depth }));
            setSimdUtf8(createWasmUtf8(WebAssembly));
            const wasm = summary(new SpanIndex(f, walker, { depth }));
            expect(wasm, `${format} ${shape.id} ${target} depth ${depth}`).toEqual(js);
            const { error, warnings } = js as { error: unknown; warnings: unknown[] };
            if (error !== null || warnings.length > 0) flagged++;
            compared++;
          }
        }
      }
    }
    // Most changed frames are flagged (a changed byte may still be valid text, or MessagePack
    // text below depth 1, checked when opened).
    expect(flagged).toBeGreaterThan(compared / 2);
  });

  it('a frame changed in place and indexed again is checked again', () => {
    for (const [format, walker, encode] of encoders) {
      const frame = encode({ body: 'grüße aus 東京, '.repeat(40), more: 'x'.repeat(300) });
      expect(new SpanIndex(frame, walker).error, format).toBeNull();
      const at = frame.indexOf(0xe6); // the lead byte of 東
      frame[at + 1] = 0x41;
      const again = new SpanIndex(frame, walker);
      if (format === 'cbor') expect(again.error?.offset).toBe(at);
      else expect(again.warnings.map((w) => [w.code, w.offset])).toEqual([['invalid-utf8', at]]);
    }
  });

  it('memory grown for a long string is let go when the walk ends', () => {
    const validator = simdUtf8()!;
    expect(validator).not.toBeNull();
    for (const [format, walker, encode] of encoders) {
      const frame = encode(['é'.repeat(150_000)]);
      expect(new SpanIndex(frame, walker).error, format).toBeNull();
      expect(validator.heldBytes(), format).toBeLessThanOrEqual(64 << 10);
    }
  });
});
