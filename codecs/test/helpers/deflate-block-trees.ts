/**
 * Reads a raw deflate stream (RFC 1951) and returns, for each dynamic-Huffman block, the
 * code lengths its header sends and how often the block's data uses each symbol: what a
 * deflater's tree builder was given and what it made, taken from the bytes it wrote.
 * A test oracle, written from the RFC alone; it decodes and counts and checks nothing.
 */

/** One Huffman tree of a block: symbol frequencies (counted) and code lengths (sent). */
export interface SentTree {
  /** How many times the block uses each symbol, indexed by symbol. */
  readonly freq: Uint16Array;
  /** The code lengths the header sends, indexed by symbol, as many as it sends. */
  readonly lengths: Uint8Array;
}

export interface DynamicBlockTrees {
  /** Literal/length: 286 counts; `lengths` has HLIT + 257 entries. */
  readonly litLen: SentTree;
  /** Distance: 30 counts; `lengths` has HDIST + 1 entries. */
  readonly dist: SentTree;
  /** The code-length code: 19 counts; `lengths` by symbol, all 19 (unsent ones are 0). */
  readonly codeLength: SentTree;
}

/** The order the code-length code's lengths are sent in. */
const CODE_LENGTH_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
/** Extra bits of length symbols 257..285 and distance symbols 0..29. */
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];

class BitReader {
  private pos = 0;
  constructor(private readonly bytes: Uint8Array) {}

  bits(n: number): number {
    let v = 0;
    for (let i = 0; i < n; i++, this.pos++) {
      const byte = this.bytes[this.pos >> 3];
      if (byte === undefined) throw new Error(`deflate stream ends at bit ${this.pos}`);
      v |= ((byte >> (this.pos & 7)) & 1) << i;
    }
    return v;
  }

  alignToByte(): void {
    this.pos = (this.pos + 7) & ~7;
  }

  skipBytes(n: number): void {
    this.pos += n * 8;
  }
}

/** A canonical Huffman decoder (RFC 1951 3.2.2), one bit at a time. */
class Decoder {
  private readonly count = new Uint16Array(16);
  private readonly symbols: number[] = [];

  constructor(lengths: ArrayLike<number>) {
    for (let s = 0; s < lengths.length; s++) this.count[lengths[s]]++;
    this.count[0] = 0;
    for (let len = 1; len < 16; len++)
      for (let s = 0; s < lengths.length; s++) if (lengths[s] === len) this.symbols.push(s);
  }

  decode(r: BitReader): number {
    let code = 0;
    let first = 0;
    let index = 0;
    for (let len = 1; len < 16; len++) {
      code |= r.bits(1);
      const n = this.count[len];
      if (code - first < n) return this.symbols[index + code - first];
      index += n;
      first = (first + n) << 1;
      code <<= 1;
    }
    throw new Error('no Huffman code matches');
  }
}

function fixedLitLenLengths(): Uint8Array {
  const l = new Uint8Array(288);
  l.fill(8, 0, 144).fill(9, 144, 256).fill(7, 256, 280).fill(8, 280, 288);
  return l;
}

/** Decodes a block's data up to its end-of-block, counting each symbol used. */
function countSymbols(r: BitReader, litLen: Decoder, dist: Decoder, litFreq: Uint16Array, distFreq: Uint16Array): void {
  for (;;) {
    const sym = litLen.decode(r);
    litFreq[sym]++;
    if (sym === 256) return;
    if (sym > 256) {
      r.bits(LENGTH_EXTRA[sym - 257]);
      const d = dist.decode(r);
      distFreq[d]++;
      r.bits(DIST_EXTRA[d]);
    }
  }
}

/** The trees of every dynamic block of a raw deflate stream, in stream order. */
export function dynamicBlockTrees(deflated: Uint8Array): DynamicBlockTrees[] {
  const r = new BitReader(deflated);
  const out: DynamicBlockTrees[] = [];
  for (let final = 0; !final; ) {
    final = r.bits(1);
    const type = r.bits(2);
    if (type === 0) {
      r.alignToByte();
      const len = r.bits(16);
      r.bits(16);
      r.skipBytes(len);
    } else if (type === 1) {
      countSymbols(
        r,
        new Decoder(fixedLitLenLengths()),
        new Decoder(new Uint8Array(30).fill(5)),
        new Uint16Array(288),
        new Uint16Array(30),
      );
    } else if (type === 2) {
      out.push(readDynamicBlock(r));
    } else throw new Error('reserved block type 3');
  }
  return out;
}

function readDynamicBlock(r: BitReader): DynamicBlockTrees {
  const hlit = r.bits(5) + 257;
  const hdist = r.bits(5) + 1;
  const hclen = r.bits(4) + 4;
  const clLengths = new Uint8Array(19);
  for (let i = 0; i < hclen; i++) clLengths[CODE_LENGTH_ORDER[i]] = r.bits(3);
  const clDecoder = new Decoder(clLengths);
  const clFreq = new Uint16Array(19);
  const lengths = new Uint8Array(hlit + hdist);
  for (let i = 0; i < lengths.length; ) {
    const sym = clDecoder.decode(r);
    clFreq[sym]++;
    if (sym < 16) lengths[i++] = sym;
    else {
      const [repeat, value] =
        sym === 16 ? [3 + r.bits(2), lengths[i - 1]] : sym === 17 ? [3 + r.bits(3), 0] : [11 + r.bits(7), 0];
      lengths.fill(value, i, i + repeat);
      i += repeat;
    }
  }
  const litLengths = lengths.slice(0, hlit);
  const distLengths = lengths.slice(hlit);
  const litFreq = new Uint16Array(286);
  const distFreq = new Uint16Array(30);
  countSymbols(r, new Decoder(litLengths), new Decoder(distLengths), litFreq, distFreq);
  return {
    litLen: { freq: litFreq, lengths: litLengths },
    dist: { freq: distFreq, lengths: distLengths },
    codeLength: { freq: clFreq, lengths: clLengths },
  };
}
