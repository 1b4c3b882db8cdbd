/**
 * The sizes fflate 0.8.3's deflate writes, without writing it and without allocating per
 * message (a 10,000-frame session within its time budget). The session comparison needs only the length of
 * each compressed message, but fflate allocates per call a 100 KB symbol buffer, an output
 * the size of its 32 KB window plus the input, and — per fresh stream — a 98 KB window and
 * 128 KB of hash tables: on ~1 KB messages that zeroing and garbage was most of the time
 * (deflateSync: 270 µs per message on this machine).
 *
 * This is fflate's own match finder and block writer (dflt, wblk, hTree, lc, clen: MIT,
 * Copyright (c) Arjun Barrett, https://github.com/101arrowz/fflate) with the buffers kept
 * and the output replaced by its bit count: the same matches, the same block splits, the
 * same Huffman trees, so the same sizes — codecs/compare/session/deflate-size.test.ts checks
 * them against fflate's real `deflateSync` and streaming `Deflate` output, byte count for
 * byte count, on generated sessions and random bytes. A newer fflate must be checked again
 * (the version is pinned in package.json).
 *
 * Two modes, as the session uses fflate:
 * - `deflateAloneSize(bytes)`: `deflateSync(bytes).length` (per-message deflate; gzip adds
 *   its fixed 18-byte header and trailer).
 * - `StreamSizer`: fflate's streaming `Deflate` driven as permessage-deflate.ts drives it
 *   (`push(message, false)`, `flush(false)`, then the sync-flush block), the payload size
 *   with the `00 00 ff ff` tail removed; `reset()` is a fresh stream (no context takeover).
 */

// fflate's tables (the length and distance extra bits, the code-length order, the fixed trees).
const fleb = new Uint8Array([
  0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0, 0, 0, 0,
]);
const fdeb = new Uint8Array([
  0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13, 0, 0,
]);
const clim = new Uint8Array([16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]);

function freb(eb: Uint8Array, start: number): { b: Uint16Array; r: Int32Array } {
  const b = new Uint16Array(31);
  for (let i = 0; i < 31; ++i) b[i] = start += 1 << eb[i - 1];
  const r = new Int32Array(b[30]);
  for (let i = 1; i < 30; ++i) for (let j = b[i]; j < b[i + 1]; ++j) r[j] = ((j - b[i]) << 5) | i;
  return { b, r };
}
const revfl = freb(fleb, 2).r;
revfl[258] = 28;
const revfd = freb(fdeb, 0).r;

const flt = new Uint8Array(288);
for (let i = 0; i < 144; ++i) flt[i] = 8;
for (let i = 144; i < 256; ++i) flt[i] = 9;
for (let i = 256; i < 280; ++i) flt[i] = 7;
for (let i = 280; i < 288; ++i) flt[i] = 8;
const fdt = new Uint8Array(32).fill(5);

/** (nice << 13) | chain per level 1..9, fflate's `deo`. */
const deo = new Int32Array([65540, 131080, 131088, 131104, 262176, 1048704, 1048832, 2114560, 2117632]);
const LEVEL = 6;

/**
 * Buffers for one tree: fflate's hTree builds objects and sorts them per block, which on
 * ~1 KB messages cost as much as finding the matches. Same algorithm on typed arrays.
 */
class TreeScratch {
  /** Leaves sorted by (frequency, symbol): frequency << 9 | symbol. */
  readonly keys: Int32Array;
  /** fflate's `t`: node ids, leaves then internal nodes written over consumed slots. */
  readonly order: Int32Array;
  readonly freq: Int32Array;
  readonly left: Int32Array;
  readonly right: Int32Array;
  readonly depth: Int32Array;
  /** The radix sort's other buffer and its bucket counts. */
  readonly spare: Int32Array;
  readonly counts = new Int32Array(256);
  /** The code lengths: `lengths[0..length)`, fflate's returned `t`. */
  readonly lengths: Uint8Array;
  length = 0;

  constructor(readonly symbols: number) {
    this.keys = new Int32Array(symbols);
    this.order = new Int32Array(symbols + 1);
    this.freq = new Int32Array(2 * symbols + 1);
    this.left = new Int32Array(2 * symbols + 1);
    this.right = new Int32Array(2 * symbols + 1);
    this.depth = new Int32Array(2 * symbols + 1);
    this.spare = new Int32Array(symbols);
    this.lengths = new Uint8Array(symbols);
  }
}

/**
 * fflate's hTree: code lengths of at most `mb` bits for the frequencies `d[0..n)`, into
 * `ts.lengths[0..ts.length)`; returns the longest length. The order of ties is fflate's:
 * its (stable) sort by frequency over symbols in ascending order is a sort by (frequency,
 * symbol). session-deflate-size.test.ts compares it with fflate's code on skewed tables.
 */
export function codeLengths(d: ArrayLike<number>, n: number, mb: number, ts: TreeScratch): number {
  const { keys, order, freq, left, right, depth } = ts;
  let s = 0;
  let maxSym = -1;
  for (let i = 0; i < n; ++i) {
    if (d[i]) {
      keys[s++] = (d[i] << 9) | i;
      maxSym = i;
    }
  }
  if (!s) {
    ts.length = 0;
    return 0;
  }
  if (s === 1) {
    ts.lengths.fill(0, 0, maxSym + 1);
    ts.lengths[maxSym] = 1;
    ts.length = maxSym + 1;
    return 1;
  }
  sortKeys(keys, s, ts);
  for (let k = 0; k < s; ++k) {
    freq[k] = keys[k] >> 9;
    order[k] = k;
  }
  // The sentinel: "freq must be greater than largest possible number of symbols".
  const sentinel = 2 * s;
  freq[sentinel] = 25001;
  order[s] = sentinel;
  let next = s;
  let i0 = 0;
  let i1 = 1;
  let i2 = 2;
  freq[next] = freq[order[0]] + freq[order[1]];
  left[next] = order[0];
  right[next] = order[1];
  order[0] = next++;
  while (i1 !== s - 1) {
    const l = order[freq[order[i0]] < freq[order[i2]] ? i0++ : i2++];
    const r = order[i0 !== i1 && freq[order[i0]] < freq[order[i2]] ? i0++ : i2++];
    freq[next] = freq[l] + freq[r];
    left[next] = l;
    right[next] = r;
    order[i1++] = next++;
  }
  // Depths from the root down: every internal node is made after its children.
  const root = order[i1 - 1];
  depth[root] = 0;
  // Straight into the byte lengths: a block's frequencies sum below 25,001, so no leaf is deeper
  // than 24 (a Fibonacci-shaped tree; fflate's u16 depths then fit a byte too).
  const tr = ts.lengths;
  tr.fill(0, 0, maxSym + 1);
  let mbt = 0;
  for (let id = root; id >= s; --id) {
    const dd = depth[id] + 1;
    depth[left[id]] = dd;
    depth[right[id]] = dd;
  }
  for (let k = 0; k < s; ++k) {
    const dd = depth[k];
    tr[keys[k] & 511] = dd;
    if (dd > mbt) mbt = dd;
  }
  if (mbt > mb) mbt = limitLengths(d, n, tr, mbt, mb, s);
  ts.length = maxSym + 1;
  return mbt;
}

/**
 * Sorts `keys[0..n)` — collected in symbol order — by frequency, stably: a sort by
 * (frequency, symbol), the order fflate's stable sort of its symbol-ordered leaves gives.
 * Few keys: insertion sort; more: least-significant-digit radix on the frequency's two bytes
 * (one when all are below 256).
 */
function sortKeys(keys: Int32Array, n: number, ts: TreeScratch): void {
  if (n < 48) {
    for (let i = 1; i < n; ++i) {
      const k = keys[i];
      let j = i - 1;
      while (j >= 0 && keys[j] > k) {
        keys[j + 1] = keys[j];
        --j;
      }
      keys[j + 1] = k;
    }
    return;
  }
  const { spare, counts } = ts;
  let high = 0;
  for (let k = 0; k < n; ++k) high |= keys[k] >> 17;
  radixPass(keys, spare, n, 9, counts);
  if (high) radixPass(spare, keys, n, 17, counts);
  else for (let k = 0; k < n; ++k) keys[k] = spare[k];
}

function radixPass(from: Int32Array, to: Int32Array, n: number, shift: number, counts: Int32Array): void {
  counts.fill(0);
  for (let k = 0; k < n; ++k) ++counts[(from[k] >> shift) & 255];
  let sum = 0;
  for (let b = 0; b < 256; ++b) {
    const c = counts[b];
    counts[b] = sum;
    sum += c;
  }
  for (let k = 0; k < n; ++k) {
    const key = from[k];
    to[counts[(key >> shift) & 255]++] = key;
  }
}

/** codeLengths with buffers of its own: fflate's hTree(d, mb) as `{ t, l }` (for tests). */
export function huffmanTree(d: ArrayLike<number>, mb: number): { t: Uint8Array; l: number } {
  const ts = new TreeScratch(d.length);
  const l = codeLengths(d, d.length, mb, ts);
  return { t: ts.lengths.slice(0, ts.length), l };
}

/** fflate's length limiting ("more algorithms from UZIP.js"), on its own objects: rare, so kept verbatim. */
function limitLengths(d: ArrayLike<number>, n: number, tr: Uint8Array, mbt: number, mb: number, s: number): number {
  const t2: { s: number; f: number }[] = [];
  for (let i = 0; i < n; ++i) if (d[i]) t2.push({ s: i, f: d[i] });
  let i = 0;
  let dt = 0;
  const lft = mbt - mb;
  const cst = 1 << lft;
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
  return mb;
}

/**
 * fflate's lc: the run-length coded code lengths of `c[0..len)` into `out`; returns how
 * many entries, and leaves in `sent` how many code lengths the block sends (fflate's `n`).
 */
function runLengths(c: Uint8Array, len: number, out: Uint16Array): { count: number; sent: number } {
  // fflate reads an empty tree's c[0] as undefined and writes it as one 0.
  if (len === 0) {
    out[0] = 0;
    return { count: 1, sent: 1 };
  }
  let s = len;
  while (s && !c[--s]);
  ++s;
  let cli = 0;
  let cln = c[0];
  let cls = 1;
  for (let i = 1; i <= s; ++i) {
    if (i !== s && c[i] === cln) ++cls;
    else {
      if (!cln && cls > 2) {
        for (; cls > 138; cls -= 138) out[cli++] = 32754;
        if (cls > 2) {
          out[cli++] = cls > 10 ? ((cls - 11) << 5) | 28690 : ((cls - 3) << 5) | 12305;
          cls = 0;
        }
      } else if (cls > 3) {
        out[cli++] = cln;
        --cls;
        for (; cls > 6; cls -= 6) out[cli++] = 8304;
        if (cls > 2) {
          out[cli++] = ((cls - 3) << 5) | 8208;
          cls = 0;
        }
      }
      while (cls--) out[cli++] = cln;
      cls = 1;
      cln = c[i];
    }
  }
  return { count: cli, sent: s };
}

function clen(cf: ArrayLike<number>, cl: ArrayLike<number>, len: number): number {
  let l = 0;
  for (let i = 0; i < len; ++i) l += cf[i] * cl[i];
  return l;
}

/**
 * fflate's wblk without the writing: the bit position after the block (stored, fixed or
 * dynamic Huffman, whichever fflate would choose) that starts at bit `p`. The two Huffman
 * lengths are left in `scratch` (a one-shot deflate of the same symbols chooses from them).
 */
function blockEnd(scratch: Scratch, eb: number, bs: number, bl: number, p: number): number {
  const { lf, df, litTree, distTree, lengthTree, litRuns, distRuns, lcfreq } = scratch;
  p++; // BFINAL
  ++lf[256];
  codeLengths(lf, 288, 15, litTree);
  codeLengths(df, 32, 15, distTree);
  const lit = runLengths(litTree.lengths, litTree.length, litRuns);
  const dist = runLengths(distTree.lengths, distTree.length, distRuns);
  lcfreq.fill(0);
  for (let i = 0; i < lit.count; ++i) ++lcfreq[litRuns[i] & 31];
  for (let i = 0; i < dist.count; ++i) ++lcfreq[distRuns[i] & 31];
  codeLengths(lcfreq, 19, 7, lengthTree);
  const lct = lengthTree.lengths;
  const lctLength = lengthTree.length;
  let nlcc = 19;
  // fflate indexes past its code-length tree's end (undefined: no code).
  for (; nlcc > 4 && !(clim[nlcc - 1] < lctLength && lct[clim[nlcc - 1]]); --nlcc);
  const flen = (bl + 5) << 3;
  const ftlen = clen(lf, flt, 288) + clen(df, fdt, 32) + eb;
  const dtlen =
    clen(lf, litTree.lengths, litTree.length) +
    clen(df, distTree.lengths, distTree.length) +
    eb +
    14 +
    3 * nlcc +
    clen(lcfreq, lct, lctLength) +
    2 * lcfreq[16] +
    3 * lcfreq[17] +
    7 * lcfreq[18];
  scratch.fixedBits = ftlen;
  scratch.dynamicBits = dtlen;
  // A stored block: BTYPE, then up to the byte boundary, LEN and NLEN, the bytes (fflate's wfblk).
  if (bs >= 0 && flen <= ftlen && flen <= dtlen) return storedEnd(p, bl);
  // Huffman: BTYPE, then the fixed or the dynamic block (its header and trees counted in dtlen).
  return p + 2 + Math.min(dtlen, ftlen);
}

const storedEnd = (p: number, bl: number): number => (((p + 2 + 7) >> 3) + 4 + bl) * 8;

/** What fflate keeps between calls of one stream (`st`): next index, wait index, end, last. */
interface DeflateState {
  i: number;
  w: number;
}

/** Buffers fflate allocates per call, kept. */
class Scratch {
  readonly syms = new Int32Array(25000);
  readonly lf = new Uint16Array(288);
  readonly df = new Uint16Array(32);
  readonly litTree = new TreeScratch(288);
  readonly distTree = new TreeScratch(32);
  readonly lengthTree = new TreeScratch(19);
  readonly litRuns = new Uint16Array(289);
  readonly distRuns = new Uint16Array(33);
  readonly lcfreq = new Uint16Array(19);
  /** The last block's fixed and dynamic Huffman lengths (bits after BTYPE). */
  fixedBits = 0;
  dynamicBits = 0;
}

/**
 * fflate's dflt (levels 1..9) over `dat[0..s)` from `st.i`, as bits: returns the bit position
 * after the blocks written starting at bit `pos` (the carried partial byte's bits), and
 * leaves `st` as fflate leaves it when the stream goes on (`lst` 0).
 */
function deflateBits(
  dat: Uint8Array,
  s: number,
  plvl: number,
  head: Uint16Array,
  prev: Uint16Array,
  st: DeflateState,
  lst: number,
  pos: number,
  scratch: Scratch,
): number {
  const opt = deo[LEVEL - 1];
  const n = opt >> 13;
  const c = opt & 8191;
  const msk = (1 << plvl) - 1;
  const bs1 = Math.ceil(plvl / 3);
  const bs2 = 2 * bs1;
  const { syms, lf, df } = scratch;
  lf.fill(0);
  df.fill(0);
  let lc_1 = 0;
  let eb = 0;
  let i = st.i;
  let li = 0;
  let wi = st.w;
  let bs = 0;
  for (; i + 2 < s; ++i) {
    const hv = (dat[i] ^ (dat[i + 1] << bs1) ^ (dat[i + 2] << bs2)) & msk;
    let imod = i & 32767;
    let pimod = head[hv];
    prev[imod] = pimod;
    head[hv] = imod;
    if (wi <= i) {
      const rem = s - i;
      if ((lc_1 > 7000 || li > 24576) && (rem > 423 || !lst)) {
        pos = blockEnd(scratch, eb, bs, i - bs, pos);
        li = lc_1 = eb = 0;
        bs = i;
        for (let j = 0; j < 286; ++j) lf[j] = 0;
        for (let j = 0; j < 30; ++j) df[j] = 0;
      }
      let l = 2;
      let d = 0;
      let ch = c;
      let dif = (imod - pimod) & 32767;
      const back = i - dif;
      if (rem > 2 && hv === ((dat[back] ^ (dat[back + 1] << bs1) ^ (dat[back + 2] << bs2)) & msk)) {
        const maxn = Math.min(n, rem) - 1;
        const maxd = Math.min(32767, i);
        const ml = Math.min(258, rem);
        while (dif <= maxd && --ch && imod !== pimod) {
          if (dat[i + l] === dat[i + l - dif]) {
            let nl = 0;
            for (; nl < ml && dat[i + nl] === dat[i + nl - dif]; ++nl);
            if (nl > l) {
              l = nl;
              d = dif;
              if (nl > maxn) break;
              const mmd = Math.min(dif, nl - 2);
              let md = 0;
              for (let j = 0; j < mmd; ++j) {
                const ti = (i - dif + j) & 32767;
                const pti = prev[ti];
                const cd = (ti - pti) & 32767;
                if (cd > md) (md = cd), (pimod = ti);
              }
            }
          }
          imod = pimod;
          pimod = prev[imod];
          dif += (imod - pimod) & 32767;
        }
      }
      if (d) {
        syms[li++] = 268435456 | (revfl[l] << 18) | revfd[d];
        const lin = revfl[l] & 31;
        const din = revfd[d] & 31;
        eb += fleb[lin] + fdeb[din];
        ++lf[257 + lin];
        ++df[din];
        wi = i + l;
        ++lc_1;
      } else {
        syms[li++] = dat[i];
        ++lf[dat[i]];
      }
    }
  }
  for (i = Math.max(i, wi); i < s; ++i) {
    syms[li++] = dat[i];
    ++lf[dat[i]];
  }
  pos = blockEnd(scratch, eb, bs, i - bs, pos);
  if (!lst) {
    st.i = i;
    st.w = wi;
  }
  return pos;
}

/** fflate's hash bits for `deflateSync` of `length` bytes (its `mem` default for one-shot calls). */
const aloneHashBits = (length: number): number => Math.ceil(Math.max(8, Math.min(13, Math.log(length))) * 1.5);

/**
 * Per-message deflate sizes with buffers kept between calls: `deflateSync(bytes, { mem })`
 * of fflate — with `hashBits` = 12 + mem, or without it fflate's default for the length.
 */
export class DeflateAloneSizer {
  private readonly scratch = new Scratch();
  private readonly prev = new Uint16Array(32768);
  private readonly heads = new Map<number, Uint16Array>();

  constructor(private readonly hashBits?: number) {}

  size(bytes: Uint8Array): number {
    const plvl = this.hashBits ?? aloneHashBits(bytes.length);
    let head = this.heads.get(plvl);
    if (!head) this.heads.set(plvl, (head = new Uint16Array(1 << plvl)));
    const st = { i: 0, w: 0 };
    const bits = deflateBits(bytes, bytes.length, plvl, head, this.prev, st, 1, 0, this.scratch);
    // fflate starts each call with zeroed hash heads: clear the ones this message set, or
    // all of them when the message is long enough that a fill is cheaper (a 1 MB value in
    // the re-encode comparison: 2^20 heads filled beat re-hashing a million positions).
    if (bytes.length >= head.length >> 3) head.fill(0);
    else clearHeads(head, bytes, 0, bytes.length, plvl);
    return (bits + 7) >> 3;
  }
}

/** Zeroes the hash heads of every position deflateBits inserted from `dat[from..s)`. */
function clearHeads(head: Uint16Array, dat: Uint8Array, from: number, s: number, plvl: number): void {
  const msk = (1 << plvl) - 1;
  const bs1 = Math.ceil(plvl / 3);
  const bs2 = 2 * bs1;
  for (let i = from; i + 2 < s; ++i) head[(dat[i] ^ (dat[i + 1] << bs1) ^ (dat[i + 2] << bs2)) & msk] = 0;
}

/** fflate's streaming buffer: 32,768 (lookback) + 65,536 (a chunk). */
const WINDOW_BUFFER = 98304;

/** Longest message a fresh stream deflates in one call (push deflates what is buffered beyond 8,191 bytes). */
export const FRESH_SHARED_MAX = 8191;

/** The hash bits of permessage-deflate.ts's streams: fflate's `mem: 3` (12 + 3), zlib's memLevel 8. */
export const STREAM_HASH_BITS = 15;

/**
 * fflate's streaming `Deflate` (level 6) as permessage-deflate.ts drives it, sizes only:
 * `payloadSize(message)` is the length of what `push(message, false)`, `flush(false)` and
 * the sync-flush block write, less the `00 00 ff ff` tail (RFC 7692 §7.2.1).
 */
export class StreamSizer {
  private readonly scratch: Scratch;
  private readonly head: Uint16Array;
  private readonly prev = new Uint16Array(32768);
  /** fflate's window buffer: the 32 KB kept, then room for 64 KB; it grows for a message that does not fit. */
  private b = new Uint8Array(WINDOW_BUFFER);
  private readonly st: DeflateState = { i: 32768, w: 32768 };
  private z = 32768;
  /** Bits of the current message's blocks so far (its first block starts on a byte: the sync flush before it aligned it). */
  private bits = 0;
  /** The buffer moved since the last reset: the heads to clear are no longer the ones the data hashes to. */
  private shifted = false;

  constructor(
    private readonly hashBits = STREAM_HASH_BITS,
    scratch?: Scratch,
  ) {
    this.scratch = scratch ?? new Scratch();
    this.head = new Uint16Array(1 << hashBits);
  }

  /** fflate's `Deflate.p`: deflate what is buffered, the stream going on. */
  private deflateBuffered(): void {
    this.bits = deflateBits(this.b, this.z, this.hashBits, this.head, this.prev, this.st, 0, this.bits, this.scratch);
  }

  private push(chunk: Uint8Array): void {
    const st = this.st;
    const endLen = chunk.length + this.z;
    if (endLen > this.b.length) {
      if (endLen > 2 * this.b.length - 32768) {
        const grown = new Uint8Array(endLen & -32768);
        grown.set(this.b.subarray(0, this.z));
        this.b = grown;
      }
      const split = this.b.length - this.z;
      this.b.set(chunk.subarray(0, split), this.z);
      this.z = this.b.length;
      this.deflateBuffered();
      this.b.set(this.b.subarray(-32768));
      this.b.set(chunk.subarray(split), 32768);
      this.z = chunk.length - split + 32768;
      st.i = 32766;
      st.w = 32768;
      this.shifted = true;
    } else {
      this.b.set(chunk, this.z);
      this.z += chunk.length;
    }
    if (this.z > st.w + 8191) {
      this.deflateBuffered();
      st.w = st.i;
      st.i -= 2;
    }
  }

  /** The permessage-deflate payload size of the next message. */
  payloadSize(message: Uint8Array): number {
    this.bits = 0;
    this.push(message);
    this.deflateBuffered();
    this.st.w = this.st.i;
    this.st.i -= 2;
    // The sync flush: the blocks' bits, 3 bits of an empty stored block's header, up to the
    // byte; its LEN/NLEN (`00 00 ff ff`) is the tail permessage-deflate removes.
    return (this.bits + 3 + 7) >> 3;
  }

  /**
   * One message through a fresh stream (the stream is reset after it): its permessage-deflate
   * payload without context takeover, and `deflateSync(message, { mem: hashBits - 12 }).length`,
   * from one pass when they share it. Up to FRESH_SHARED_MAX bytes the stream deflates the
   * message in one call and one block, from a fresh hash table like the one-shot call, so both
   * find the same matches and build the same trees; they differ only in the block's end
   * (BFINAL, the sync flush) and in that the one-shot may store the block (the stream's first
   * block counts its 32 KB lookback as stored bytes, so it never does). Longer messages take
   * the one-shot deflate on its own.
   */
  fresh(message: Uint8Array, alone: DeflateAloneSizer): { payload: number; deflate: number } {
    if (this.st.i !== 32768 || this.z !== 32768) throw new Error('StreamSizer.fresh needs a fresh stream');
    const payload = this.payloadSize(message);
    let deflate: number;
    if (message.length <= FRESH_SHARED_MAX) {
      const { fixedBits, dynamicBits } = this.scratch;
      const huffman = Math.min(dynamicBits, fixedBits);
      const stored = (message.length + 5) << 3;
      deflate =
        stored <= fixedBits && stored <= dynamicBits ? storedEnd(1, message.length) >> 3 : (3 + huffman + 7) >> 3;
    } else deflate = alone.size(message);
    this.reset();
    return { payload, deflate };
  }

  /** A fresh stream (what no context takeover does before each message). */
  reset(): void {
    // fflate starts a stream with zeroed hash heads. Zeroing the whole table (64 KB) beats
    // re-hashing the message's positions from about 500 bytes on (measured on this machine).
    if (this.shifted || this.z - 32768 >= 512) this.head.fill(0);
    else clearHeads(this.head, this.b, 32768, this.z, this.hashBits);
    // A fresh fflate stream starts with the buffer's first size: when it splits a message depends on it.
    if (this.b.length !== WINDOW_BUFFER) this.b = new Uint8Array(WINDOW_BUFFER);
    this.st.i = 32768;
    this.st.w = 32768;
    this.z = 32768;
    this.shifted = false;
  }
}
