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

/** fflate 0.8.3's hTree and ln, verbatim (index.mjs), the reference for deflate-size.ts's codeLengths. */
function fflateHTree(d: ArrayLike<number>, mb: number): { t: Uint8Array; l: number } {
  const t: any[] = [];
  for (let i = 0; i < d.length; ++i) if (d[i]) t.push({ s: i, f: d[i] });
  const s = t.length;
  const t2 = t.slice();
  if (!s) return { t: new Uint8Array(0), l: 0 };
  if (s === 1) {
    const v = new Uint8Array(t[0].s + 1);
    v[t[0].s] = 1;
    return { t: v, l: 1 };
  }
  t.sort((a, b) => a.f - b.f);
  t.push({ s: -1, f: 25001 });
  let l = t[0],
    r = t[1],
    i0 = 0,
    i1 = 1,
    i2 = 2;
  t[0] = { s: -1, f: l.f + r.f, l, r };
  while (i1 !== s - 1) {
    l = t[t[i0].f < t[i2].f ? i0++ : i2++];
    r = t[i0 !== i1 && t[i0].f < t[i2].f ? i0++ : i2++];
    t[i1++] = { s: -1, f: l.f + r.f, l, r };
  }
  let maxSym = t2[0].s;
  for (let i = 1; i < s; ++i) if (t2[i].s > maxSym) maxSym = t2[i].s;
  const tr = new Uint16Array(maxSym + 1);
  const ln = (n: any, d: number): number => (n.s === -1 ? Math.max(ln(n.l, d + 1), ln(n.r, d + 1)) : (tr[n.s] = d));
  let mbt = ln(t[i1 - 1], 0);
  if (mbt > mb) {
    let i = 0,
      dt = 0;
    const lft = mbt - mb,
      cst = 1 << lft;
    t2.sort((a, b) => tr[b.s] - tr[a.s] || a.f - b.f);
    for (; i < s; ++i) {
      const i2_1 = t2[i].s;
      if (tr[i2_1] > mb) {
        dt += cst - (1 << (mbt - tr[i2_1]));
        tr[i2_1] = mb;
      } else break;
    }
    dt >>= lft;
    while (dt > 0) {
      const i2_2 = t2[i].s;
      if (tr[i2_2] < mb) dt -= 1 << (mb - tr[i2_2]++ - 1);
      else ++i;
    }
    for (; i >= 0 && dt; --i) {
      const i2_3 = t2[i].s;
      if (tr[i2_3] === mb) {
        --tr[i2_3];
        ++dt;
      }
    }
    mbt = mb;
  }
  return { t: new Uint8Array(tr), l: mbt };
}
/* eslint-enable */

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

describe('codeLengths = fflate hTree', () => {
  it('on random, tied, sparse and skewed (length-limited) frequency tables', () => {
    const tables: Uint16Array[] = [];
    for (const [n, mb] of [
      [288, 15],
      [32, 15],
      [19, 7],
    ] as const) {
      for (let k = 0; k < 300; k++) {
        const d = new Uint16Array(n);
        const kind = k % 5;
        // fflate's blocks hold at most ~24,600 symbols: its sentinel frequency (25,001) is above any sum.
        let total = 0;
        for (let i = 0; i < n; i++) {
          if (kind === 0) d[i] = random.int(100);
          else if (kind === 1)
            d[i] = random.bool(0.1) ? 1 + random.int(3) : 0; // sparse, many ties
          else if (kind === 2)
            d[i] = random.bool(0.5) ? 7 : 0; // all tied
          else if (kind === 3)
            d[i] = random.bool(0.7) ? Math.floor(1.6 ** random.int(20)) : 0; // skewed: deep trees, limited to mb
          else d[i] = i < 1 + random.int(3) ? 1 + random.int(5000) : 0; // one to three symbols
          if (total + d[i] > 24_000) d[i] = 0;
          total += d[i];
        }
        tables.push(d);
        expect(huffmanTree(d, mb), `table ${k} of ${n}`).toEqual(fflateHTree(d, mb));
      }
    }
    // The skewed tables really went through the length limit.
    expect(
      tables.some(
        (d) => fflateHTree(d, d.length === 19 ? 7 : 15).l === (d.length === 19 ? 7 : 15) && new Set(d).size > 10,
      ),
    ).toBe(true);
  });
});
