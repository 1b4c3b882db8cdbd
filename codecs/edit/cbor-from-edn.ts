import { ByteParts } from './byte-parts.js';
import type { ByteWriter } from './byte-writer.js';
import { type EditResult, editError } from './edit-error.js';
import { FLOAT_BYTES, type FloatWidth, floatBits, isNanBits, preferredFloatWidth, widenNanBits } from './float-bits.js';
import { SyntaxFailure, TextReader } from './text-reader.js';

/**
 * CBOR from diagnostic notation (EDN): what `diagnostic()` prints (the Text tab, `inspect
 * --diag`) parses back to the very bytes it was printed from, and an edited text encodes
 * with preferred serialization wherever it does not say otherwise. Understood:
 * - integers (decimal, `0x`, `0o`, `0b`; beyond 64 bits as bignum tags 2 / 3), floats
 *   (`1.5`, `1e300`, `0x1.8p3`, `Infinity`, `-Infinity`, `NaN`, `-0.0`, `float'7e01'` raw
 *   bits: a NaN's payload and sign), `true`, `false`, `null`, `undefined`, `simple(n)`;
 * - `"text"` (JSON escapes, `\u{…}`), `'bytes as text'`, `h'…'`, `b64'…'`, `<<item, …>>`
 *   (embedded CBOR);
 * - `[…]`, `{k: v, …}`, tags `n(item)`;
 * - encoding indicators: `_i` and `_0`..`_3` on an integer, a length or a tag (the argument
 *   in the initial byte, or in 1, 2, 4, 8 bytes), `_1`..`_3` on a float (binary16, 32, 64);
 *   `_` for indefinite lengths: `[_ …]`, `{_ …}`, `(_ chunk, …)`, `''_`, `""_`;
 * - comments `/ … /` and `#` to the end of the line; trailing commas.
 * A bad text gives an error with line and column and no bytes; nothing is thrown.
 */
export function cborFromEdn(text: string): EditResult {
  const reader = new TextReader(text);
  try {
    const out = new ByteParts();
    const parser = new EdnParser(reader);
    reader.skipSpace();
    if (reader.atEnd) reader.fail('expected a CBOR item, found end of input');
    parser.parse(out);
    reader.skipSpace();
    if (!reader.atEnd) reader.fail(`expected end of input after the item, found ${reader.here()}`);
    return { ok: true, bytes: out.toBytes() };
  } catch (e) {
    if (e instanceof SyntaxFailure) return { ok: false, error: editError(text, e.offset, e.message) };
    return { ok: false, error: editError(text, reader.pos, `internal error: ${(e as Error)?.message ?? e}`) };
  }
}

/** No indicator (preferred), `_i`, `_0`..`_3`, or `_` (indefinite length). */
type Indicator = null | 'i' | 0 | 1 | 2 | 3 | 'indefinite';

const MAX_ARGUMENT = (1n << 64n) - 1n;

/** A frame of the parse stack: an item that holds items, until its close. */
interface Open {
  readonly kind: 'array' | 'map' | 'chunks' | 'embedded' | 'tag';
  readonly at: number;
  readonly ind: Indicator;
  readonly close: string;
  readonly parts: ByteParts;
  /** Items (pairs for a map) so far. */
  count: number;
  /** A map: the key is read, its value comes next. */
  keyDone: boolean;
  /** Chunks: their major type once the first is read (2 or 3), else -1. */
  major: number;
  /** Chunks: where the chunk being read starts in the text (-1 between chunks). */
  itemAt: number;
  readonly tag: bigint;
}

function open(kind: Open['kind'], at: number, ind: Indicator, close: string): Open {
  return { kind, at, ind, close, parts: new ByteParts(), count: 0, keyDone: false, major: -1, itemAt: -1, tag: 0n };
}

class EdnParser {
  constructor(private readonly r: TextReader) {}

  /**
   * Parses one item into `root`. Iterative: containers, tags, chunked strings and embedded
   * items are frames on an explicit stack, so nesting depth costs no call-stack depth.
   */
  parse(root: ByteParts): void {
    const r: TextReader = this.r;
    const stack: Open[] = [];
    for (;;) {
      r.skipSpace();
      const top = stack[stack.length - 1];
      const parts = top ? top.parts : root;
      let done: { major: number; indefinite: boolean };
      if (top && top.kind !== 'tag' && !top.keyDone && r.startsWith(top.close)) {
        r.pos += top.close.length;
        stack.pop();
        done = this.finish(top, stack.length ? stack[stack.length - 1].parts : root);
      } else {
        if (r.atEnd)
          r.fail(
            top && top.kind !== 'tag' && !top.keyDone
              ? `expected '${top.close}', found end of input`
              : 'expected a CBOR item, found end of input',
          );
        const before = parts.writer.size;
        if (top?.kind === 'chunks') top.itemAt = r.pos;
        const opened = this.item(parts.writer);
        if (opened) {
          stack.push(opened);
          continue;
        }
        const first = parts.writer.byteAt(before);
        done = { major: first >> 5, indefinite: (first & 31) === 31 };
      }
      // An item is complete: close the tags around it, then expect what follows it.
      for (;;) {
        const t = stack[stack.length - 1];
        if (!t) return;
        if (t.kind === 'tag') {
          r.skipSpace();
          r.expect(')', "')' closing the tag");
          stack.pop();
          const parent = stack.length ? stack[stack.length - 1].parts : root;
          this.head(parent.writer, 6, t.tag, t.ind, t.at);
          parent.append(t.parts);
          done = { major: 6, indefinite: false };
          continue;
        }
        if (t.kind === 'chunks' && t.itemAt >= 0) this.checkChunk(t, done, t.itemAt);
        if (t.kind === 'map' && !t.keyDone) {
          r.skipSpace();
          r.expect(':', "':' between a key and its value");
          t.keyDone = true;
          break;
        }
        t.keyDone = false;
        t.count++;
        r.skipSpace();
        if (r.eat(',')) break;
        if (!r.startsWith(t.close)) r.fail(`expected ',' or '${t.close}', found ${r.here()}`);
        break;
      }
      const t = stack[stack.length - 1];
      if (t?.kind === 'chunks') t.itemAt = -1;
    }
  }

  /** A chunk of `(_ …)` must be a definite-length string of the chunks' one type. */
  private checkChunk(t: Open, item: { major: number; indefinite: boolean }, at: number): void {
    if ((item.major !== 2 && item.major !== 3) || item.indefinite)
      this.r.fail('a chunk of an indefinite-length string is a definite-length byte or text string', at);
    if (t.major >= 0 && item.major !== t.major) this.r.fail('the chunks mix byte strings and text strings', at);
    t.major = item.major;
  }

  /** Writes a closed frame into its parent's parts; what kind of item that was. */
  private finish(t: Open, parent: ByteParts): { major: number; indefinite: boolean } {
    const w = parent.writer;
    switch (t.kind) {
      case 'array':
      case 'map': {
        const major = t.kind === 'array' ? 4 : 5;
        if (t.ind === 'indefinite') w.byte((major << 5) | 31);
        else this.head(w, major, BigInt(t.count), t.ind, t.at);
        parent.append(t.parts);
        if (t.ind === 'indefinite') parent.writer.byte(0xff);
        return { major, indefinite: t.ind === 'indefinite' };
      }
      case 'chunks':
        if (!t.count) this.r.fail('(_ ) has no chunk to say its type: write \'\'_ or ""_ for an empty one', t.at);
        w.byte((t.major << 5) | 31);
        parent.append(t.parts);
        parent.writer.byte(0xff);
        return { major: t.major, indefinite: true };
      default:
        // embedded: a byte string holding the items' encoding.
        this.string(w, 2, t.parts.toBytes(), t.at);
        return { major: 2, indefinite: false };
    }
  }

  /** One item into `w`, or the frame it opens (a container, a tag, chunks, embedded items). */
  private item(w: ByteWriter): Open | null {
    const r: TextReader = this.r;
    const at = r.pos;
    const c = r.peek();
    if (c === '[' || c === '{') {
      r.pos++;
      return open(c === '[' ? 'array' : 'map', at, this.indicator(), c === '[' ? ']' : '}');
    }
    if (c === '(') {
      r.pos++;
      const s = r.suffix();
      if (s?.text !== '') r.fail('expected "(_" opening an indefinite-length string', at);
      return open('chunks', at, null, ')');
    }
    if (r.startsWith('<<')) {
      r.pos += 2;
      return open('embedded', at, null, '>>');
    }
    if ((c === '-' && !r.startsWith('-Infinity')) || (c >= '0' && c <= '9')) return this.numberOrTag(w);
    this.leaf(w);
    return null;
  }

  /** A scalar or a string into `w`. */
  private leaf(w: ByteWriter): void {
    const r: TextReader = this.r;
    const at = r.pos;
    const c = r.peek();
    if (c === '"') {
      const s = r.quotedText();
      return this.string(w, 3, new TextEncoder().encode(s), at);
    }
    if (c === "'") {
      const { body } = r.singleQuoted();
      return this.string(w, 2, new TextEncoder().encode(body), at);
    }
    if (r.startsWith('-Infinity')) {
      r.pos += 9;
      return this.float(w, -Infinity, at);
    }
    const word = r.word();
    switch (word) {
      case 'true':
        return this.simpleHead(w, 21);
      case 'false':
        return this.simpleHead(w, 20);
      case 'null':
        return this.simpleHead(w, 22);
      case 'undefined':
        return this.simpleHead(w, 23);
      case 'NaN':
        return this.float(w, Number.NaN, at);
      case 'Infinity':
        return this.float(w, Infinity, at);
      case 'simple':
        return this.simple(w, at);
      case 'h':
      case 'b64':
        if (r.peek() === "'") {
          const { body, at: bodyAt } = r.singleQuoted();
          return this.string(w, 2, word === 'h' ? r.hexBytes(body, bodyAt) : r.base64Bytes(body, bodyAt), at);
        }
        break;
      case 'float':
        if (r.peek() === "'") return this.rawFloat(w, at);
        break;
    }
    r.pos = at;
    r.fail(`expected a CBOR item, found ${r.here()}`);
  }

  private indicator(): Indicator {
    const s = this.r.suffix();
    if (!s) return null;
    if (s.text === '') return 'indefinite';
    if (s.text === 'i') return 'i';
    if (/^[0-3]$/.test(s.text)) return Number(s.text) as 0 | 1 | 2 | 3;
    return this.r.fail(`unknown encoding indicator _${s.text} (use _i, _0 to _3, or _ for indefinite)`, s.at);
  }

  /** The head of `major` with argument `arg`, as wide as the indicator says (preferred without one). */
  private head(w: ByteWriter, major: number, arg: bigint, ind: Indicator, at: number): void {
    if (arg > MAX_ARGUMENT) this.r.fail(`${arg} does not fit in a CBOR head (64 bits at most)`, at);
    if (ind === 'indefinite') this.r.fail('"_" (indefinite length) does not apply here', at);
    let size: number;
    if (ind === null) size = arg < 24n ? 0 : arg < 0x100n ? 1 : arg < 0x10000n ? 2 : arg < 0x100000000n ? 4 : 8;
    else if (ind === 'i') {
      if (arg >= 24n) this.r.fail(`_i puts the argument in the initial byte, which holds 0 to 23, not ${arg}`, at);
      size = 0;
    } else {
      size = 1 << ind;
      if (arg >> BigInt(8 * size) !== 0n)
        this.r.fail(`${arg} does not fit in ${size} byte${size > 1 ? 's' : ''} (_${ind})`, at);
    }
    const m = major << 5;
    if (size === 0) w.byte(m | Number(arg));
    else {
      w.byte(m | (size === 1 ? 24 : size === 2 ? 25 : size === 4 ? 26 : 27));
      w.uint(arg, size);
    }
  }

  private simpleHead(w: ByteWriter, n: number): void {
    w.byte(0xe0 | n);
  }

  private string(w: ByteWriter, major: 2 | 3, data: Uint8Array, at: number): void {
    const ind = this.indicator();
    if (ind === 'indefinite') {
      if (data.length) this.r.fail('"_" after a string marks an empty indefinite-length one; chunks go in (_ …)', at);
      w.byte((major << 5) | 31);
      w.byte(0xff);
      return;
    }
    this.head(w, major, BigInt(data.length), ind, at);
    w.bytes(data);
  }

  private numberOrTag(w: ByteWriter): Open | null {
    const r: TextReader = this.r;
    const at = r.pos;
    const n = r.number();
    if (!n) return r.fail(`expected a number, found ${r.here()}`);
    if (n.kind === 'float') {
      this.float(w, n.value, at);
      return null;
    }
    const ind = this.indicator();
    if (r.peek() === '(') {
      if (n.value < 0n) r.fail('a tag number cannot be negative', at);
      if (n.value > MAX_ARGUMENT) r.fail(`${n.value} does not fit in a CBOR head (64 bits at most)`, at);
      if (ind === 'indefinite') r.fail('"_" (indefinite length) does not apply to a tag', at);
      r.pos++;
      return { ...open('tag', at, ind, ')'), tag: n.value };
    }
    const v = n.value;
    const [major, arg] = v >= 0n ? [0, v] : [1, -1n - v];
    if (arg > MAX_ARGUMENT) {
      if (ind !== null) r.fail(`${v} is beyond 64 bits: a bignum, which takes no encoding indicator`, at);
      // RFC 8949 section 3.4.3: tag 2 / 3 around the magnitude's bytes, no leading zeros.
      const bytes: number[] = [];
      for (let m = arg; m > 0n; m >>= 8n) bytes.unshift(Number(m & 0xffn));
      this.head(w, 6, major === 0 ? 2n : 3n, null, at);
      this.head(w, 2, BigInt(bytes.length), null, at);
      w.bytes(Uint8Array.from(bytes));
      return null;
    }
    this.head(w, major, arg, ind, at);
    return null;
  }

  private float(w: ByteWriter, v: number, at: number): void {
    const ind = this.indicator();
    let width: FloatWidth;
    if (ind === null) width = preferredFloatWidth(v);
    else if (ind === 1 || ind === 2 || ind === 3) width = ind;
    else return this.r.fail('a float takes _1 (binary16), _2 (binary32) or _3 (binary64)', at);
    const bits = Number.isNaN(v) ? widenNanBits(0x7e00n, 1, width) : floatBits(v, width);
    if (bits === null)
      this.r.fail(
        `${this.r.text.slice(at, this.r.pos)}: the value does not fit exactly in a ${16 << (width - 1)}-bit float`,
        at,
      );
    this.floatHead(w, width, bits);
  }

  private floatHead(w: ByteWriter, width: FloatWidth, bits: bigint): void {
    w.byte(0xf8 + width);
    w.uint(bits, FLOAT_BYTES[width]);
  }

  /** `float'7e01'`: the bits of a binary16, 32 or 64 (4, 8 or 16 hex digits), widened by an indicator. */
  private rawFloat(w: ByteWriter, at: number): void {
    const r: TextReader = this.r;
    const { body, at: bodyAt } = r.singleQuoted();
    const bytes = r.hexBytes(body, bodyAt);
    const widths: Record<number, FloatWidth> = { 2: 1, 4: 2, 8: 3 };
    const from = widths[bytes.length];
    if (from === undefined) r.fail("float'…' holds 4, 8 or 16 hex digits (a 16-, 32- or 64-bit float)", at);
    let bits = 0n;
    for (const b of bytes) bits = (bits << 8n) | BigInt(b);
    const ind = this.indicator();
    let width: FloatWidth = from;
    if (ind === 1 || ind === 2 || ind === 3) width = ind;
    else if (ind !== null) r.fail('a float takes _1 (binary16), _2 (binary32) or _3 (binary64)', at);
    if (width < from) r.fail(`float'${body.trim()}' is ${bytes.length} bytes: _${width} cannot narrow it`, at);
    if (width > from)
      bits = isNanBits(bits, from) ? widenNanBits(bits, from, width) : floatBits(floatOfBits(bits, from), width)!;
    this.floatHead(w, width, bits);
  }

  private simple(w: ByteWriter, at: number): void {
    const r: TextReader = this.r;
    r.expect('(', "'(' after simple");
    r.skipSpace();
    const n = r.number();
    if (n?.kind !== 'int' || n.value < 0n || n.value > 255n) r.fail('simple(n) takes an integer from 0 to 255', at);
    const v = Number(n.value);
    if (v >= 24 && v < 32) r.fail(`simple(${v}) is not well-formed (24 to 31 are reserved, RFC 8949 section 3.3)`, at);
    r.skipSpace();
    r.expect(')', "')' closing simple(…)");
    if (v < 24) w.byte(0xe0 | v);
    else {
      w.byte(0xf8);
      w.byte(v);
    }
  }
}

function floatOfBits(bits: bigint, width: FloatWidth): number {
  const view = new DataView(new ArrayBuffer(8));
  if (width === 3) {
    view.setBigUint64(0, bits);
    return view.getFloat64(0);
  }
  if (width === 2) {
    view.setUint32(0, Number(bits));
    return view.getFloat32(0);
  }
  const h = Number(bits);
  const sign = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 31;
  const m = h & 1023;
  if (e === 0) return sign * m * 2 ** -24;
  if (e === 31) return m ? Number.NaN : sign * Infinity;
  return sign * (1 + m / 1024) * 2 ** (e - 15);
}
