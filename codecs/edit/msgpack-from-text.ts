import { ByteParts } from './byte-parts.js';
import { ByteWriter } from './byte-writer.js';
import { type EditResult, editError } from './edit-error.js';
import { float32Bits, float64Bits } from './float-bits.js';
import { preferredIntFormat } from './msgpack-edit-text.js';
import { SyntaxFailure, TextReader } from './text-reader.js';

/**
 * MessagePack from its edit text (what `msgpackEditText` prints, see there), or from JSON
 * (a subset of it). Without a suffix a value takes its narrowest format (integers: unsigned
 * formats from 0 up, signed below; floats: float 64); a suffix names the format and must
 * hold the value. Also understood: `null` for nil, `'text'` and `b64'…'` bins,
 * `timestamp("2025-11-21T22:24:02.123456789Z")` or `timestamp(seconds, nanoseconds)` (the
 * timestamp extension in its narrowest form), comments and trailing commas.
 * A bad text gives an error with line and column and no bytes; nothing is thrown.
 */
export function msgpackFromText(text: string): EditResult {
  const reader = new TextReader(text);
  try {
    const out = new ByteParts();
    reader.skipSpace();
    if (reader.atEnd) reader.fail('expected a MessagePack value, found end of input');
    new MsgpackTextParser(reader).parse(out);
    reader.skipSpace();
    if (!reader.atEnd) reader.fail(`expected end of input after the value, found ${reader.here()}`);
    return { ok: true, bytes: out.toBytes() };
  } catch (e) {
    if (e instanceof SyntaxFailure) return { ok: false, error: editError(text, e.offset, e.message) };
    return { ok: false, error: editError(text, reader.pos, `internal error: ${(e as Error)?.message ?? e}`) };
  }
}

const INT_FORMATS: Readonly<Record<string, { byte: number; min: bigint; max: bigint; size: number }>> = {
  u8: { byte: 0xcc, min: 0n, max: 0xffn, size: 1 },
  u16: { byte: 0xcd, min: 0n, max: 0xffffn, size: 2 },
  u32: { byte: 0xce, min: 0n, max: 0xffffffffn, size: 4 },
  u64: { byte: 0xcf, min: 0n, max: (1n << 64n) - 1n, size: 8 },
  i8: { byte: 0xd0, min: -0x80n, max: 0x7fn, size: 1 },
  i16: { byte: 0xd1, min: -0x8000n, max: 0x7fffn, size: 2 },
  i32: { byte: 0xd2, min: -0x80000000n, max: 0x7fffffffn, size: 4 },
  i64: { byte: 0xd3, min: -(1n << 63n), max: (1n << 63n) - 1n, size: 8 },
};

const BYTE_SIZE: Readonly<Record<number, number>> = {
  0xcc: 1,
  0xcd: 2,
  0xce: 4,
  0xcf: 8,
  0xd0: 1,
  0xd1: 2,
  0xd2: 4,
  0xd3: 8,
};

/** Length fields: `[fix byte or -1, 8-bit, 16-bit, 32-bit format bytes]` and the fix form's limit. */
const LENGTHS = {
  str: { fix: 0xa0, fixMax: 31, b8: 0xd9, b16: 0xda, b32: 0xdb },
  bin: { fix: -1, fixMax: -1, b8: 0xc4, b16: 0xc5, b32: 0xc6 },
  array: { fix: 0x90, fixMax: 15, b8: -1, b16: 0xdc, b32: 0xdd },
  map: { fix: 0x80, fixMax: 15, b8: -1, b16: 0xde, b32: 0xdf },
  ext: { fix: -1, fixMax: -1, b8: 0xc7, b16: 0xc8, b32: 0xc9 },
} as const;

/** An open array or map on the parse stack. */
interface OpenContainer {
  readonly map: boolean;
  readonly at: number;
  readonly suffix: { bits: 8 | 16 | 32; at: number } | null;
  readonly parts: ByteParts;
  /** Items (pairs for a map) so far. */
  count: number;
  /** A map: the key is read, its value comes next. */
  keyDone: boolean;
}

class MsgpackTextParser {
  constructor(private readonly r: TextReader) {}

  /** One value into `root`. Iterative: any nesting depth, no call-stack recursion. */
  parse(root: ByteParts): void {
    const r: TextReader = this.r;
    const stack: OpenContainer[] = [];
    for (;;) {
      r.skipSpace();
      const top = stack[stack.length - 1];
      const close = top?.map ? '}' : ']';
      if (top && !top.keyDone && r.eat(close)) {
        stack.pop();
        const parent = stack.length ? stack[stack.length - 1].parts : root;
        this.lengthHead(parent.writer, top.map ? 'map' : 'array', top.count, top.at, top.suffix);
        parent.append(top.parts);
      } else {
        if (r.atEnd && top && !top.keyDone) r.fail(`expected '${close}', found end of input`);
        const c = r.peek();
        if (c === '[' || c === '{') {
          const at = r.pos++;
          stack.push({
            map: c === '{',
            at,
            suffix: this.lengthSuffix(),
            parts: new ByteParts(),
            count: 0,
            keyDone: false,
          });
          continue;
        }
        this.item((top ? top.parts : root).writer);
      }
      const t = stack[stack.length - 1];
      if (!t) return;
      r.skipSpace();
      if (t.map && !t.keyDone) {
        r.expect(':', "':' between a key and its value");
        t.keyDone = true;
        continue;
      }
      t.keyDone = false;
      t.count++;
      const tClose = t.map ? '}' : ']';
      if (r.eat(',')) continue;
      if (!r.startsWith(tClose)) r.fail(`expected ',' or '${tClose}', found ${r.here()}`);
    }
  }

  /** A value that is not an array or a map, into `w`. */
  private item(w: ByteWriter): void {
    const r: TextReader = this.r;
    const at = r.pos;
    const c = r.peek();
    if (c === '"') return this.str(w, new TextEncoder().encode(r.quotedText()), at);
    if (c === "'") return this.bin(w, new TextEncoder().encode(r.singleQuoted().body), at);
    if (r.startsWith('-Infinity')) {
      r.pos += 9;
      return this.float(w, -Infinity, at);
    }
    if (c === '-' || (c >= '0' && c <= '9')) return this.number(w);
    const word = r.word();
    switch (word) {
      case 'nil':
      case 'null':
        return w.byte(0xc0);
      case 'false':
        return w.byte(0xc2);
      case 'true':
        return w.byte(0xc3);
      case 'NaN':
        return this.float(w, Number.NaN, at);
      case 'Infinity':
        return this.float(w, Infinity, at);
      case 'h':
      case 'b64':
        if (r.peek() === "'") {
          const { body, at: bodyAt } = r.singleQuoted();
          return this.bin(w, word === 'h' ? r.hexBytes(body, bodyAt) : r.base64Bytes(body, bodyAt), at);
        }
        break;
      case 'float':
        if (r.peek() === "'") return this.rawFloat(w, at);
        break;
      case 'str':
        if (r.eat('(')) {
          const data = this.bytesArgument();
          r.skipSpace();
          r.expect(')', "')' closing str(…)");
          return this.str(w, data, at);
        }
        break;
      case 'ext':
        if (r.eat('(')) return this.ext(w, at);
        break;
      case 'timestamp':
        if (r.eat('(')) return this.timestamp(w, at);
        break;
    }
    r.pos = at;
    r.fail(`expected a MessagePack value, found ${r.here()}`);
  }

  /** A `_…` suffix naming a length field's width: 8, 16 or 32 bits, or null (the narrowest). */
  private lengthSuffix(): { bits: 8 | 16 | 32; at: number } | null {
    const s = this.r.suffix();
    if (!s) return null;
    if (s.text === '8' || s.text === '16' || s.text === '32') return { bits: Number(s.text) as 8 | 16 | 32, at: s.at };
    return this.r.fail(`unknown length suffix _${s.text} (use _8, _16 or _32)`, s.at);
  }

  /** The head of a str / bin / array / map / ext of `n` (bytes, items or pairs). */
  private lengthHead(
    w: ByteWriter,
    form: keyof typeof LENGTHS,
    n: number,
    at: number,
    suffix: { bits: 8 | 16 | 32; at: number } | null,
  ): void {
    const f = LENGTHS[form];
    let bits: 0 | 8 | 16 | 32;
    if (suffix) {
      bits = suffix.bits;
      const formByte = bits === 8 ? f.b8 : bits === 16 ? f.b16 : f.b32;
      if (formByte < 0) this.r.fail(`${form} has no ${bits}-bit length (16 or 32)`, suffix.at);
      if (n >= 2 ** bits) this.r.fail(`${n} does not fit a ${bits}-bit length (_${bits})`, at);
    } else if (n <= f.fixMax) bits = 0;
    else bits = n < 0x100 && f.b8 >= 0 ? 8 : n < 0x10000 ? 16 : 32;
    if (n > 0xffffffff) this.r.fail(`${n} is beyond MessagePack's 32-bit lengths`, at);
    if (bits === 0) return w.byte(f.fix | n);
    w.byte(bits === 8 ? f.b8 : bits === 16 ? f.b16 : f.b32);
    w.uint(BigInt(n), bits / 8);
  }

  private str(w: ByteWriter, data: Uint8Array, at: number): void {
    this.lengthHead(w, 'str', data.length, at, this.lengthSuffix());
    w.bytes(data);
  }

  private bin(w: ByteWriter, data: Uint8Array, at: number): void {
    this.lengthHead(w, 'bin', data.length, at, this.lengthSuffix());
    w.bytes(data);
  }

  private number(w: ByteWriter): void {
    const r: TextReader = this.r;
    const at = r.pos;
    const n = r.number();
    if (!n) return r.fail(`expected a number, found ${r.here()}`);
    if (n.kind === 'float') return this.float(w, n.value, at);
    const v = n.value;
    const s = r.suffix();
    let format: number;
    if (s) {
      const f = INT_FORMATS[s.text];
      if (!f) r.fail(`unknown integer suffix _${s.text} (use _u8 … _u64, _i8 … _i64)`, s.at);
      if (v < f.min || v > f.max) r.fail(`${v} does not fit ${s.text} (${f.min} to ${f.max})`, at);
      format = f.byte;
    } else {
      if (v > INT_FORMATS.u64.max || v < INT_FORMATS.i64.min)
        r.fail(`${v} is beyond MessagePack's 64-bit integers`, at);
      format = preferredIntFormat(v);
    }
    if (format === 0 || format === 0xe0) return w.byte(Number(BigInt.asUintN(8, v)));
    w.byte(format);
    w.uint(BigInt.asUintN(64, v), BYTE_SIZE[format]);
  }

  private floatSuffix(at: number): boolean {
    const s = this.r.suffix();
    if (!s || s.text === 'f64') return false;
    if (s.text === 'f32') return true;
    return this.r.fail(`unknown float suffix _${s.text} (use _f32 or _f64)`, s.at ?? at);
  }

  private float(w: ByteWriter, v: number, at: number): void {
    const single = this.floatSuffix(at);
    if (!single) {
      w.byte(0xcb);
      w.uint(Number.isNaN(v) ? 0x7ff8000000000000n : float64Bits(v), 8);
      return;
    }
    const bits = float32Bits(v);
    if (bits === null)
      this.r.fail(`${this.r.text.slice(at, this.r.pos)}: the value does not fit exactly in a float 32`, at);
    w.byte(0xca);
    w.uint(BigInt(bits), 4);
  }

  /** `float'…'`: the bits of a float 32 (8 hex digits) or float 64 (16). */
  private rawFloat(w: ByteWriter, at: number): void {
    const r: TextReader = this.r;
    const { body, at: bodyAt } = r.singleQuoted();
    const bytes = r.hexBytes(body, bodyAt);
    if (bytes.length !== 4 && bytes.length !== 8) r.fail("float'…' holds 8 or 16 hex digits (a float 32 or 64)", at);
    w.byte(bytes.length === 4 ? 0xca : 0xcb);
    w.bytes(bytes);
  }

  /** `h'…'`, `b64'…'` or `'…'` as a function argument. */
  private bytesArgument(): Uint8Array {
    const r: TextReader = this.r;
    r.skipSpace();
    const at = r.pos;
    if (r.peek() === "'") return new TextEncoder().encode(r.singleQuoted().body);
    const word = r.word();
    if ((word === 'h' || word === 'b64') && r.peek() === "'") {
      const { body, at: bodyAt } = r.singleQuoted();
      return word === 'h' ? r.hexBytes(body, bodyAt) : r.base64Bytes(body, bodyAt);
    }
    return r.fail("expected bytes: h'…', b64'…' or '…'", at);
  }

  /** `ext(type, h'data')`: fixext when the data is 1, 2, 4, 8 or 16 bytes, else ext 8/16/32. */
  private ext(w: ByteWriter, at: number): void {
    const r: TextReader = this.r;
    r.skipSpace();
    const typeAt = r.pos;
    const type = r.number();
    if (type?.kind !== 'int' || type.value < -128n || type.value > 127n)
      r.fail('an ext type is an integer from -128 to 127', typeAt);
    r.skipSpace();
    r.expect(',', "',' after the ext type");
    const data = this.bytesArgument();
    r.skipSpace();
    r.expect(')', "')' closing ext(…)");
    this.extBytes(w, Number(type.value), data, at);
  }

  private extBytes(w: ByteWriter, type: number, data: Uint8Array, at: number): void {
    const fixed = [1, 2, 4, 8, 16].indexOf(data.length);
    const suffix = this.lengthSuffix();
    if (fixed >= 0 && !suffix) w.byte(0xd4 + fixed);
    else this.lengthHead(w, 'ext', data.length, at, suffix);
    w.byte(type & 0xff);
    w.bytes(data);
  }

  /** `timestamp("…Z")` or `timestamp(seconds, nanoseconds)`: the timestamp extension, narrowest form. */
  private timestamp(w: ByteWriter, at: number): void {
    const r: TextReader = this.r;
    r.skipSpace();
    let seconds: bigint;
    let nanoseconds: bigint;
    if (r.peek() === '"') {
      const textAt = r.pos;
      const parsed = parseInstant(r.quotedText());
      if (!parsed) r.fail('expected an RFC 3339 UTC instant such as "2025-11-21T22:24:02.123456789Z"', textAt);
      [seconds, nanoseconds] = parsed;
    } else {
      const s = r.number();
      if (s?.kind !== 'int') return r.fail('timestamp(seconds, nanoseconds) takes integers', r.pos);
      seconds = s.value;
      r.skipSpace();
      nanoseconds = 0n;
      if (r.eat(',')) {
        r.skipSpace();
        const ns = r.number();
        if (ns?.kind !== 'int' || ns.value < 0n || ns.value > 999_999_999n)
          r.fail('nanoseconds are an integer from 0 to 999999999', r.pos);
        nanoseconds = ns.value;
      }
    }
    r.skipSpace();
    r.expect(')', "')' closing timestamp(…)");
    if (seconds < -(1n << 63n) || seconds >= 1n << 63n) r.fail('timestamp seconds are beyond 64 bits', at);
    const data = new ByteWriter();
    if (nanoseconds === 0n && seconds >= 0n && seconds < 1n << 32n) data.uint(seconds, 4);
    else if (seconds >= 0n && seconds < 1n << 34n) data.uint((nanoseconds << 34n) | seconds, 8);
    else {
      data.uint(nanoseconds, 4);
      data.uint(BigInt.asUintN(64, seconds), 8);
    }
    this.extBytes(w, -1, data.result(), at);
  }
}

/** `2025-11-21T22:24:02.123456789Z` → [seconds, nanoseconds] (UTC only, up to 9 fraction digits). */
function parseInstant(text: string): [bigint, bigint] | null {
  const m = /^(\d{4,})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?Z$/.exec(text);
  if (!m) return null;
  const date = new Date(0);
  date.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  date.setUTCHours(Number(m[4]), Number(m[5]), Number(m[6]), 0);
  const ms = date.getTime();
  if (Number.isNaN(ms)) return null;
  return [BigInt(ms / 1000), BigInt((m[7] ?? '').padEnd(9, '0'))];
}
