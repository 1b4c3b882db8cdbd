import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { indexCbor } from './index.js';
import { Flag } from '../core/kinds.js';
import type { SpanIndex } from '../core/span-index.js';
import { childSpans, hex, nestingProblems, toHex } from '../test/helpers/cbor.js';
import { referenceFindInvalidUtf8 } from '../test/helpers/utf8.js';

/**
 * Fast paths of the CBOR walker that must give exactly what the plain code gives.
 *
 * Text: the walker checks text in several places, each with its own fast path: the recording
 * loop (children of a recorded container), the skipping loop (everything below the recorded
 * depth), and the general loop (the root, indefinite-length chunks). Short strings are
 * tested with a fixed number of loads, longer ones a word at a time, through a DataView
 * made once per frame (frames from 256 bytes on; smaller ones are checked bytewise). Every
 * path must report exactly what the plain byte-by-byte reference says, at every depth and
 * for any input view.
 */

function textHead(length: number): number[] {
  return length < 24 ? [0x60 + length] : length < 256 ? [0x78, length] : [0x79, length >> 8, length & 0xff];
}

/** A byte string of `length` 0xff bytes (moves what follows without adding any text). */
function padding(length: number): number[] {
  const head = length < 24 ? [0x40 + length] : length < 256 ? [0x58, length] : [0x59, length >> 8, length & 0xff];
  return [...head, ...new Array<number>(length).fill(0xff)];
}

interface Placement {
  name: string;
  /** The frame around a text string with head `head` and content `text`, and where the content starts. */
  build(pad: number[], head: number[], text: number[]): { frame: number[]; textAt: number };
}

const at = (before: number[], head: number[], text: number[], after: number[] = []) => ({
  frame: [...before, ...head, ...text, ...after],
  textAt: before.length + head.length,
});
/** The root array's head and the padding: [pad, item] or just [item]. */
const root = (pad: number[]) => (pad.length ? [0x82, ...pad] : [0x81]);

const PLACEMENTS: Placement[] = [
  { name: 'root', build: (_pad, head, text) => at([], head, text) },
  // A child of the root: recorded by the recording loop at depth >= 1.
  { name: 'child', build: (pad, head, text) => at(root(pad), head, text) },
  // Below a child: skipped at depth 1.
  { name: 'grandchild', build: (pad, head, text) => at([...root(pad), 0x81], head, text) },
  { name: 'map key', build: (pad, head, text) => at([...root(pad), 0xa1], head, text, [0x00]) },
  {
    name: 'deep map value',
    build: (pad, head, text) => at([...root(pad), 0x81, 0xa1, 0x61, 0x6b, 0x82, 0x00], head, text),
  },
  // After a 4-byte text in the same skipped container: in a large frame that text made the
  // frame's DataView, so short text here takes the skipper's inline test (isValidText).
  {
    name: 'grandchild after a text',
    build: (pad, head, text) => at([...root(pad), 0x82, 0x64, 0x61, 0x62, 0x63, 0x64], head, text),
  },
  {
    name: 'map value after a text key',
    build: (pad, head, text) => at([...root(pad), 0x81, 0xa1, 0x64, 0x6b, 0x65, 0x79, 0x73], head, text),
  },
  // Chunks of indefinite-length text: the general loops.
  { name: 'chunk of a child', build: (pad, head, text) => at([...root(pad), 0x7f], head, text, [0xff]) },
  { name: 'chunk of a grandchild', build: (pad, head, text) => at([...root(pad), 0x81, 0x7f], head, text, [0xff]) },
];

/** Paddings that make small frames (checked bytewise) and large ones (DataView), at several alignments of the text. */
const PADS = [[], padding(3), padding(260), padding(263)];

const SEQUENCES: { name: string; bytes: number[] }[] = [
  { name: 'continuation', bytes: [0x80] },
  { name: 'surrogate', bytes: [0xed, 0xa0, 0x80] },
  { name: 'cut 2-byte', bytes: [0xc3] },
  { name: 'above U+10FFFF', bytes: [0xf4, 0x90, 0x80, 0x80] },
  { name: 'overlong', bytes: [0xe0, 0x9f, 0xbf] },
  { name: 'euro (valid)', bytes: [0xe2, 0x82, 0xac] },
  { name: 'emoji (valid)', bytes: [0xf0, 0x9f, 0x92, 0xaa] },
];

function positions(length: number): number[] {
  if (length <= 24) return Array.from({ length }, (_, i) => i);
  const picked = [
    0,
    1,
    2,
    3,
    4,
    7,
    8,
    15,
    16,
    17,
    31,
    32,
    length >> 1,
    length - 5,
    length - 4,
    length - 3,
    length - 2,
    length - 1,
  ];
  return [...new Set(picked.filter((p) => p >= 0 && p < length))];
}

const LENGTHS = [...Array.from({ length: 71 }, (_, i) => i), 127, 200, 300];

/** The same frame as a Buffer (a view into Node's pool) and as views surrounded by other bytes. */
function otherInputs(frame: Uint8Array): Uint8Array[] {
  const around = (fill: number, offset: number) => {
    const buffer = new Uint8Array(frame.length + offset + 9).fill(fill);
    buffer.set(frame, offset);
    return buffer.subarray(offset, offset + frame.length);
  };
  return [Buffer.from(frame), around(0x61, 3), around(0xff, 5)];
}

const describeIndex = (index: SpanIndex) =>
  JSON.stringify({ error: index.error, children: index.root >= 0 ? childSpans(index, 0) : null });

describe('CBOR text validation on every path', () => {
  it('every depth and input reports the reference offset, for every sequence at every position, text length 0..70 and more', () => {
    const misses: string[] = [];
    let checked = 0;
    for (const placement of PLACEMENTS) {
      for (const pad of placement.name === 'root' ? [[]] : PADS) {
        for (const length of LENGTHS) {
          const base = Array.from({ length }, (_, i) => 0x21 + ((i * 5) % 0x5e));
          const variants: number[][] = [base];
          for (const p of positions(length)) {
            for (const seq of SEQUENCES) {
              const text = base.slice();
              for (let k = 0; k < seq.bytes.length && p + k < length; k++) text[p + k] = seq.bytes[k];
              variants.push(text);
            }
          }
          for (const text of variants) {
            const { frame: list, textAt } = placement.build(pad, textHead(length), text);
            const frame = Uint8Array.from(list);
            const bad = referenceFindInvalidUtf8(frame, textAt, textAt + length);
            const expected =
              bad < 0
                ? null
                : { code: 'invalid-utf8', offset: bad, message: `invalid UTF-8 in text string at byte ${bad}` };
            const full = indexCbor(frame);
            const where = `${placement.name}, pad ${pad.length}, ${toHex(frame.subarray(textAt, textAt + length))}`;
            if (JSON.stringify(full.error) !== JSON.stringify(expected))
              misses.push(`${where}: full index ${JSON.stringify(full.error)}, expected ${JSON.stringify(expected)}`);
            for (const depth of [0, 1, 2]) {
              const shallow = indexCbor(frame, { depth });
              if (JSON.stringify(shallow.error) !== JSON.stringify(full.error))
                misses.push(`${where}: depth ${depth} ${JSON.stringify(shallow.error)}`);
              const problems = nestingProblems(shallow);
              if (problems.length) misses.push(`${where}: depth ${depth} ${problems[0]}`);
            }
            const reference = describeIndex(indexCbor(frame, { depth: 1 }));
            for (const input of otherInputs(frame)) {
              const got = describeIndex(indexCbor(input, { depth: 1 }));
              if (got !== reference) misses.push(`${where}: ${input.constructor.name} at +${input.byteOffset}: ${got}`);
            }
            checked++;
          }
        }
      }
    }
    expect(misses.slice(0, 10)).toEqual([]);
    expect(checked).toBeGreaterThan(50_000);
  });

  it('a recorded text child with invalid UTF-8 is incomplete and spans its whole content, at depth 1 as in the full index', () => {
    for (const pad of PADS) {
      const text = [...new Array<number>(20).fill(0x61), 0xed, 0xa0, 0x80, ...new Array<number>(20).fill(0x62)];
      const frame = Uint8Array.from([pad.length ? 0x83 : 0x82, ...pad, ...textHead(text.length), ...text, 0x00]);
      const textStart = 1 + pad.length;
      for (const index of [indexCbor(frame), indexCbor(frame, { depth: 1 })]) {
        expect(index.error).toMatchObject({ code: 'invalid-utf8', offset: textStart + 2 + 20 });
        const id = pad.length ? 2 : 1;
        expect(index.store.start[id]).toBe(textStart);
        expect(index.store.end[id]).toBe(textStart + 2 + text.length);
        expect(index.store.flags[id] & Flag.incomplete).toBeTruthy();
        expect(index.isIncomplete(0)).toBe(true);
      }
    }
  });

  it('many strings in one large frame: the per-frame view serves all of them, and each walk makes its own', () => {
    // 200 strings of lengths 0..39 in a map below the root; one bad byte in the last.
    const parts: number[] = [];
    for (let i = 0; i < 100; i++) {
      const key = Array.from({ length: i % 13 }, (_, k) => 0x61 + k);
      const value = Array.from({ length: (i * 7) % 40 }, (_, k) => 0x30 + (k % 10));
      parts.push(...textHead(key.length), ...key, ...textHead(value.length), ...value);
    }
    const good = Uint8Array.from([0x81, 0xb8, 100, ...parts]);
    expect(good.length).toBeGreaterThan(1000);
    const index = indexCbor(good, { depth: 1 });
    expect(index.error).toBeNull();
    index.expandAll(0);
    expect(index.error).toBeNull();
    expect(index.store.size).toBe(202);
    const bad = good.slice();
    bad[bad.length - 3] = 0xc0;
    for (const depth of [0, 1, 2, Infinity]) {
      expect(indexCbor(bad, { depth }).error, `depth ${depth}`).toMatchObject({
        code: 'invalid-utf8',
        offset: bad.length - 3,
      });
    }
    // The same bytes through another view of another buffer right after: no view is reused.
    const shifted = new Uint8Array(bad.length + 1);
    shifted.set(good, 1);
    expect(indexCbor(shifted.subarray(1), { depth: 1 }).error).toBeNull();
    expect(indexCbor(bad, { depth: 1 }).error).toMatchObject({ offset: bad.length - 3 });
  });
});

describe("the skipping loop past the walk stack's first 64 levels", () => {
  /**
   * Walks share one stack of 64 levels that grows on demand, and is replaced by a fresh one
   * after a walk past 65,536 levels (acquireWalkStack): indexing such a frame first makes the
   * next walk grow the stack itself, here inside the skipping loop.
   */
  const HUGE = new Uint8Array(70_000).fill(0x81);
  const freshStack = () => indexCbor(HUGE, { depth: 0 });

  it('deeply nested arrays and maps: the same result at every depth, for well-formed frames and errors at the bottom', () => {
    const misses: string[] = [];
    for (const levels of [62, 63, 64, 65, 66, 130, 300]) {
      // [ {"k": [ {"k": ... ] } ] alternating, around one of several bottoms.
      const open: number[] = [];
      for (let i = 0; i < levels; i++) open.push(...(i % 2 ? [0xa1, 0x61, 0x6b] : [0x81]));
      for (const bottom of ['00', '63 61 62 63', '1c', '63 61 ed a0', 'ff', '5f 41 00 ff', '7f 61 61 01 ff', '']) {
        const frame = Uint8Array.from([...open, ...hex(bottom)]);
        const full = indexCbor(frame);
        for (const depth of [0, 1, 2, 3]) {
          freshStack();
          const shallow = indexCbor(frame, { depth });
          if (JSON.stringify(shallow.error) !== JSON.stringify(full.error))
            misses.push(
              `${levels} levels, bottom ${bottom || '(none)'}, depth ${depth}: ${JSON.stringify(shallow.error)} != ${JSON.stringify(full.error)}`,
            );
          if (nestingProblems(shallow).length)
            misses.push(`${levels} levels, bottom ${bottom}, depth ${depth}: ${nestingProblems(shallow)[0]}`);
        }
        if (bottom === '00' && full.error) misses.push(`${levels} levels around 00: ${JSON.stringify(full.error)}`);
      }
    }
    expect(misses).toEqual([]);
  });
});

describe('store sizing for depth-limited indexes', () => {
  it('depth 1 records exactly the root and its items; the store is sized for them and grows on expansion', () => {
    const frame = hex('84 19 03 e8 82 02 03 a1 61 61 82 04 05 9f 62 78 79 ff');
    const index = indexCbor(frame, { depth: 1 });
    expect(index.store.size).toBe(5);
    expect(index.store.capacity).toBe(5);
    index.expandAll(0);
    expect(index.store.size).toBe(indexCbor(frame).store.size);
    expect(index.value(0)).toEqual(indexCbor(frame).value(0));
    expect(indexCbor(hex('a2 01 02 03 04'), { depth: 1 }).store.capacity).toBe(5);
    expect(indexCbor(hex('82 01 02'), { depth: 0 }).store.capacity).toBe(4);
  });

  it('a header that claims more items than the frame holds does not size the store by its word', () => {
    const lying = hex('9b 00 00 00 01 00 00 00 00 01 02 03');
    const index = indexCbor(lying, { depth: 1 });
    expect(index.error).toMatchObject({ code: 'truncated', offset: 12 });
    expect(index.store.capacity).toBeLessThanOrEqual(lying.length);
    // 2^32 - 1 items claimed, one 1 MB byte string present.
    const big = new Uint8Array(1 << 20);
    big.set(hex('9a ff ff ff ff 5a 00 0f ff f6'));
    const bigIndex = indexCbor(big, { depth: 1 });
    expect(bigIndex.error).toMatchObject({ code: 'truncated', offset: big.length });
    expect(bigIndex.store.size).toBe(2);
    expect(bigIndex.store.capacity).toBeLessThanOrEqual((1 << 16) + 1);
  });
});

describe('duplicate map keys (the walker asks for a report only when two keys have the same encoded length)', () => {
  /** Encoded keys, several of the same length and some equal, one beyond 32 bytes (not told apart by length). */
  const KEYS = [
    '61 61',
    '61 62',
    '18 20',
    '62 61 61',
    '43 01 02 03',
    'f5',
    'f4',
    '20',
    '21',
    '80',
    'a0',
    '81 00',
    '81 01',
    '78 21 ' + '61 '.repeat(33),
    '78 21 ' + '61 '.repeat(32) + '62',
    '7f 61 61 ff',
  ].map(hex);

  /** The reference: every key that repeats an earlier complete key byte for byte, with the first such key. */
  function expectedWarnings(keys: Uint8Array[], firstAt: number[]): string[] {
    const out: string[] = [];
    keys.forEach((key, i) => {
      const first = keys.findIndex((k, j) => j < i && toHex(k) === toHex(key));
      if (first >= 0)
        out.push(
          `duplicate-key@${firstAt[i]}: duplicate map key at byte ${firstAt[i]} (first at byte ${firstAt[first]})`,
        );
    });
    return out;
  }

  it('reports the same warnings as a plain byte comparison, for maps of 0 to 30 keys, at every depth after expansion', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(KEYS.length - 1), { maxLength: 30, size: 'max' }), fc.boolean(), (picks, nested) => {
        const keys = picks.map((k) => KEYS[k]);
        const head = keys.length < 24 ? [0xa0 + keys.length] : [0xb8, keys.length];
        const prefix = nested ? [0x82, 0x00, ...head] : head;
        const parts: number[] = [...prefix];
        const at: number[] = [];
        // Values of lengths no two alike (so a filter that looked at values instead of keys
        // would see no repeat): byte strings of 0, 1, 2, ... bytes.
        keys.forEach((key, i) => {
          at.push(parts.length);
          parts.push(...key, ...padding(i));
        });
        const frame = Uint8Array.from(parts);
        const expected = expectedWarnings(keys, at);
        const warned = (index: SpanIndex) => index.warnings.map((w) => `${w.code}@${w.offset}: ${w.message}`);
        const full = indexCbor(frame);
        expect(full.error).toBeNull();
        expect(warned(full)).toEqual(expected);
        for (const depth of [0, 1]) {
          const shallow = indexCbor(frame, { depth });
          shallow.expandAll(0);
          expect(warned(shallow)).toEqual(expected);
        }
      }),
      { numRuns: 400, seed: 7 },
    );
  });

  it('an incomplete key is not compared', () => {
    // {"a": 0, "a" (cut off)}: the second key is incomplete, no warning.
    const index = indexCbor(hex('a2 61 61 00 62 61'));
    expect(index.error?.code).toBe('length-exceeds-input');
    expect(index.warnings).toEqual([]);
    expect(indexCbor(hex('a2 61 61 00 61 61 00')).warnings).toHaveLength(1);
  });
});
