/**
 * deflate-size.ts computes fflate's compressed sizes without writing the output: every
 * size must equal the length of what fflate really writes — `deflateSync` for per-message
 * deflate, the streaming `Deflate` as permessage-deflate.ts drives it for the wire — on
 * realistic sessions, random bytes, long runs (many blocks), empty and repeated messages,
 * and messages large enough to move and grow fflate's window buffer.
 */
import { describe, expect, it } from 'vitest';
import { deflateSync } from 'fflate';
import snappy from 'snappyjs';
import { snappyCompressedSize } from './snappy-size.js';
import { DeflateAloneSizer, huffmanTree, StreamSizer } from './deflate-size.js';
import { fflateEngine, PermessageDeflateSender } from './permessage-deflate.js';
import { sessionOfRecords } from '../../bench/session-data.js';
import { makeRng } from '../../core/rng.js';
import { dynamicBlockTrees } from '../../test/helpers/deflate-block-trees.js';
import { clientMessages, serverMessages } from '../../test/helpers/session-messages.js';

const utf8 = new TextEncoder();
const random = makeRng(16);

function randomBytes(n: number, alphabet = 256): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = random.int(alphabet);
  return out;
}

/** Text with repeats at every distance: matches short and long, near and far. */
function repetitive(n: number): Uint8Array {
  const words = ['price', 'size', 'orders', '{"bid":', '"ask":[', '0.', '1234', ',', '}', 'BTC-USD', ' '];
  let s = '';
  while (s.length < n)
    s += random.bool(0.1)
      ? s.slice(Math.max(0, s.length - random.int(40_000)), s.length - random.int(10)).slice(0, random.int(300))
      : random.pick(words);
  return utf8.encode(s.slice(0, n));
}

/** Messages of every kind the comparison meets, in one interleaved sequence. */
function mixedMessages(): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const m of sessionOfRecords(300, 3)) out.push(m.data);
  for (const t of [...clientMessages(20), ...serverMessages(12)]) out.push(utf8.encode(t));
  for (const n of [0, 1, 2, 3, 4, 5, 100, 423, 424, 8191, 8192, 9000, 20_000])
    out.push(randomBytes(n), randomBytes(n, 4), repetitive(n));
  out.push(
    new Uint8Array(0),
    new Uint8Array(70_000),
    repetitive(70_000),
    randomBytes(100_000, 16),
    repetitive(140_000),
    new Uint8Array(300_000).fill(7),
    randomBytes(250_000),
  );
  // A session repeats itself: the same messages again, and runs of one message.
  out.push(...out.slice(0, 50), out[3], out[3], out[3]);
  // Interleave small and large so the window moves mid-sequence.
  const shuffled = out.slice();
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = random.int(i + 1);
    [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
  }
  return [...out, ...shuffled];
}

const messages = mixedMessages();

describe('deflate-size equals what fflate writes', () => {
  it('DeflateAloneSizer.size = deflateSync(bytes).length, message for message', () => {
    const sizer = new DeflateAloneSizer();
    const got = messages.map((m) => sizer.size(m));
    const want = messages.map((m) => deflateSync(m).length);
    expect(got).toEqual(want);
  });

  it('DeflateAloneSizer(15) = deflateSync(bytes, { mem: 3 }).length (the hash table the wire simulation uses)', () => {
    const sizer = new DeflateAloneSizer(15);
    expect(messages.map((m) => sizer.size(m))).toEqual(messages.map((m) => deflateSync(m, { mem: 3 }).length));
  });

  it('StreamSizer.fresh: one pass gives the no-context-takeover payload and the one-shot deflate', async () => {
    const sizer = new StreamSizer();
    const alone = new DeflateAloneSizer(15);
    const got = messages.map((m) => sizer.fresh(m, alone));
    const want: { payload: number; deflate: number }[] = [];
    for (const m of messages)
      want.push({
        payload: (await new PermessageDeflateSender(fflateEngine, 15, true).payload(m)).length,
        deflate: deflateSync(m, { mem: 3 }).length,
      });
    expect(got).toEqual(want);
    // Both ways through: stored blocks (random bytes) and Huffman ones.
    expect(messages.some((m, i) => m.length > 0 && m.length <= 8191 && got[i].deflate === m.length + 5)).toBe(true);
  });

  it("StreamSizer = the fflate engine sender's payloads, with and without context takeover", async () => {
    for (const noContextTakeover of [false, true]) {
      const sender = new PermessageDeflateSender(fflateEngine, 15, noContextTakeover);
      const sizer = new StreamSizer();
      const got: number[] = [];
      const want: number[] = [];
      for (const m of messages) {
        want.push((await sender.payload(m)).length);
        got.push(sizer.payloadSize(m));
        if (noContextTakeover) sizer.reset();
      }
      expect(got, noContextTakeover ? 'no context takeover' : 'context takeover').toEqual(want);
    }
  });

  it('a reset stream is a fresh one, also after the window moved', async () => {
    const sizer = new StreamSizer();
    const sequence = [repetitive(2000), randomBytes(120_000, 8), repetitive(3000), repetitive(500)];
    for (const m of sequence) {
      const fresh = new PermessageDeflateSender(fflateEngine, 15, true);
      expect(sizer.payloadSize(m)).toBe((await fresh.payload(m)).length);
      sizer.reset();
    }
  });
});

describe('snappy-size equals snappyjs', () => {
  it('snappyCompressedSize = snappy.compress(bytes).length, also on views into a larger buffer and past 64 KB fragments', () => {
    const views = messages.slice(0, 200).map((m) => {
      const host = new Uint8Array(m.length + 40).fill(0x41);
      host.set(m, 20);
      return host.subarray(20, 20 + m.length);
    });
    const all = [...messages, ...views, new Uint8Array(65_536 * 2 + 17).fill(3), repetitive(200_000)];
    expect(all.map((m) => snappyCompressedSize(m))).toEqual(all.map((m) => snappy.compress(m).length));
  });
});

/**
 * Bytes 0..symbols-1 drawn with Fibonacci-weighted odds, each followed by `noise` uniform
 * bytes that keep most of them literals: skewed literal counts, so deep Huffman trees.
 */
function fibonacciWeighted(n: number, symbols: number, noise: number, seed: number): Uint8Array {
  const random = makeRng(seed);
  const weights = [1, 1];
  while (weights.length < symbols) weights.push(weights[weights.length - 1] + weights[weights.length - 2]);
  const total = weights.reduce((a, b) => a + b, 0);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; ) {
    let pick = random.int(total);
    let s = 0;
    while (pick >= weights[s]) pick -= weights[s++];
    out[i++] = s;
    for (let j = 0; j < noise && i < n; j++) out[i++] = 32 + random.int(224);
  }
  return out;
}

/**
 * Inputs with blocks whose literal/length tree is deeper than 15 bits before fflate limits
 * it: such blocks are rare, these seeds give one each (the test checks that they still do).
 */
const deepTreeInputs = [
  fibonacciWeighted(200_000, 26, 1, 5),
  fibonacciWeighted(200_000, 22, 2, 5),
  fibonacciWeighted(200_000, 26, 2, 5),
];

/** huffmanTree's lengths, padded with unused (0) symbols to as many as the block header sends. */
function sentLengths(d: ArrayLike<number>, mb: number, sent: number): { t: Uint8Array; l: number } {
  const { t, l } = huffmanTree(d, mb);
  const padded = new Uint8Array(Math.max(sent, t.length));
  padded.set(t);
  return { t: padded, l };
}

describe('codeLengths = the trees fflate writes', () => {
  it("on every dynamic block of fflate's output, the literal/length, distance and code-length trees (length-limited ones too)", () => {
    const inputs = [...messages.slice(0, 400), ...deepTreeInputs];
    let blocks = 0;
    let limitedLitLen = 0;
    let limitedCodeLength = 0;
    for (const [k, m] of inputs.entries()) {
      for (const block of dynamicBlockTrees(deflateSync(m))) {
        blocks++;
        for (const [name, tree, mb] of [
          ['literal/length', block.litLen, 15],
          ['distance', block.dist, 15],
          ['code-length', block.codeLength, 7],
        ] as const) {
          const sent = { t: tree.lengths, l: Math.max(...tree.lengths) };
          expect(sentLengths(tree.freq, mb, tree.lengths.length), `input ${k}, ${name} tree`).toEqual(sent);
        }
        if (huffmanTree(block.litLen.freq, 64).l > 15) limitedLitLen++;
        if (huffmanTree(block.codeLength.freq, 64).l > 7) limitedCodeLength++;
      }
    }
    // The blocks really went through the length limit, of both bounds.
    expect(blocks).toBeGreaterThan(100);
    expect(limitedLitLen).toBeGreaterThan(0);
    expect(limitedCodeLength).toBeGreaterThan(0);
  });
});
