/**
 * UTF-8 validation of the walkers' strings: the JS validator (`asciiEnd`, then the
 * multi-byte loop from the first non-ASCII byte, as the walkers ran it before the SIMD one),
 * the WebAssembly SIMD validator given every string whole (its frame window copied in as a
 * walk does), and what the walkers now do (`findInvalidLongUtf8`: SIMD from SIMD_MIN bytes,
 * or from the first non-ASCII byte when SIMD_REST_MIN bytes remain, else JS). Strings of
 * one length at a time, back to back in a 256 KB frame, in three scripts: ASCII, the
 * text-heavy shape's mixed text (a tenth of the words non-ASCII) and CJK. This is where
 * SIMD_MIN and SIMD_REST_MIN come from. `npm run bench -- --utf8-only`.
 */
import {
  asciiEnd,
  byteView,
  findInvalidLongUtf8,
  findInvalidUtf8In,
  findInvalidUtf8With,
  simdUtf8,
} from '../core/utf8.js';
import { measureTimings, type Contender } from './measure.js';
import { makeRng } from '../core/rng.js';
import { sentence } from './shapes.js';

const LENGTHS = [24, 32, 48, 64, 96, 128, 256, 1024, 16384];
const FRAME_BYTES = 256 << 10;
const encoder = new TextEncoder();

const SCRIPTS: readonly { name: string; text: (seed: number) => string }[] = [
  { name: 'ASCII', text: (seed) => sentence(makeRng(seed), 4000, 0, 0) },
  { name: 'mixed (text shape)', text: (seed) => sentence(makeRng(seed), 4000, 0.1, 0.02) },
  { name: 'CJK', text: () => '東京の世界データ、こんにちは。数据和文本。'.repeat(1200) },
];

/** Strings of `length` bytes (cut back to a whole character) back to back, one byte apart. */
function frameOf(source: Uint8Array, length: number): { frame: Uint8Array; ranges: Int32Array } {
  const frame = new Uint8Array(FRAME_BYTES);
  const ranges: number[] = [];
  let from = 0;
  for (let p = 0; p + length + 1 <= frame.length; ) {
    if (from + length > source.length) from = 0;
    let end = from + length;
    while (end > from && (source[end] & 0xc0) === 0x80) end--;
    frame.set(source.subarray(from, end), p + 1);
    ranges.push(p + 1, p + 1 + end - from);
    p += 1 + end - from;
    from = end;
  }
  return { frame, ranges: Int32Array.from(ranges) };
}

export function runUtf8Bench(options: { quick?: boolean; log?: (line: string) => void } = {}): string {
  const simd = simdUtf8();
  if (simd === null) return 'No WebAssembly SIMD here: nothing to compare.';
  const rows: string[] = [];
  for (const script of SCRIPTS) {
    const source = encoder.encode(script.text(13));
    for (const length of LENGTHS) {
      const { frame, ranges } = frameOf(source, length);
      const view = byteView(frame);
      const check = (validate: (start: number, end: number) => number) => () => {
        let bad = 0;
        for (let i = 0; i < ranges.length; i += 2) if (validate(ranges[i], ranges[i + 1]) >= 0) bad++;
        simd.release();
        if (bad !== 0) throw new Error('the bench text is valid UTF-8');
      };
      const contenders: Contender[] = [
        {
          name: 'JS',
          run: check((s, e) => {
            const a = asciiEnd(frame, view, s, e);
            return a === e ? -1 : findInvalidUtf8In(frame, view, a, e);
          }),
        },
        { name: 'SIMD', run: check((s, e) => findInvalidUtf8With(simd, frame, s, e)) },
        { name: 'walkers', run: check((s, e) => findInvalidLongUtf8(frame, view, s, e)) },
      ];
      const [js, wasm, walkers] = measureTimings(frame, contenders, options.quick ? 5 : 9);
      const bytes = ranges.reduce((sum, v, i) => (i % 2 === 1 ? sum + v - ranges[i - 1] : sum), 0);
      const ns = (t: number) => (t / bytes).toFixed(3);
      const row = `| ${script.name} | ${length} | ${ns(js.cpuMin)} | ${ns(wasm.cpuMin)} | ${ns(walkers.cpuMin)} | ${(wasm.cpuMin / js.cpuMin).toFixed(2)}x | ${(walkers.cpuMin / js.cpuMin).toFixed(2)}x |`;
      options.log?.(row);
      rows.push(row);
    }
  }
  return [
    '| Script | string bytes | JS: ns/byte | SIMD: ns/byte | walkers: ns/byte | SIMD / JS | walkers / JS |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
  ].join('\n');
}
