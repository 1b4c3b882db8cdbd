import { decodeBase64 } from '../core/base64.js';
import {
  BYTE_ORDER_MARK,
  BYTE_ORDER_MARK_PROBLEM,
  leadingZero,
  leadingZeroProblem,
  unclosedStringProblem,
} from './text-problems.js';

/**
 * A cursor over an edit text in diagnostic notation (EDN: RFC 8949 section 8, RFC 8610
 * appendix G, draft-ietf-cbor-edn-literals), shared by the CBOR and MessagePack parsers:
 * blanks and comments (`/ … /` and `#` to the end of the line), strings with JSON escapes,
 * `h'…'` and `b64'…'` byte strings, numbers, words and `_` suffixes. A syntax error is a
 * `SyntaxFailure` with the character offset; the parsers turn it into an EditError.
 */
export class SyntaxFailure {
  constructor(
    readonly offset: number,
    readonly message: string,
  ) {}
}

export type NumberToken =
  | { readonly kind: 'int'; readonly value: bigint }
  | { readonly kind: 'float'; readonly value: number };

const INT = /-?(?:0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|\d+)/y;
const DECIMAL_FLOAT = /-?\d+(?:\.\d+(?:[eE][+-]?\d+)?|[eE][+-]?\d+)/y;
const HEX_FLOAT = /(-?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?\d+)/y;
const WORD = /[A-Za-z][A-Za-z0-9]*/y;
const SUFFIX = /_[A-Za-z0-9]*/y;

export class TextReader {
  pos = 0;
  constructor(readonly text: string) {}

  fail(message: string, at: number = this.pos): never {
    throw new SyntaxFailure(at, message);
  }

  get atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  peek(): string {
    return this.text[this.pos] ?? '';
  }

  startsWith(s: string): boolean {
    return this.text.startsWith(s, this.pos);
  }

  /** What stands at the cursor, for messages: `']'`, `"abc"…` or `end of input`. */
  here(): string {
    if (this.atEnd) return 'end of input';
    const rest = this.text.slice(this.pos, this.pos + 12).split(/[\r\n]/)[0];
    return JSON.stringify(rest.length > 10 ? rest.slice(0, 10) + '…' : rest);
  }

  /** Skips blanks and comments. */
  skipSpace(): void {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t[this.pos];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') this.pos++;
      else if (c === BYTE_ORDER_MARK) this.fail(BYTE_ORDER_MARK_PROBLEM);
      else if (c === '/') {
        const close = t.indexOf('/', this.pos + 1);
        if (close < 0) this.fail('comment not closed: "/" expected', this.pos);
        this.pos = close + 1;
      } else if (c === '#') {
        while (this.pos < t.length && t[this.pos] !== '\n' && t[this.pos] !== '\r') this.pos++;
      } else break;
    }
  }

  eat(s: string): boolean {
    if (!this.startsWith(s)) return false;
    this.pos += s.length;
    return true;
  }

  expect(s: string, what = `'${s}'`): void {
    if (!this.eat(s)) this.fail(`expected ${what}, found ${this.here()}`);
  }

  /** A `_…` suffix right at the cursor (no blank before it): the text after `_`, or null. */
  suffix(): { text: string; at: number } | null {
    SUFFIX.lastIndex = this.pos;
    const m = SUFFIX.exec(this.text);
    if (!m) return null;
    this.pos += m[0].length;
    return { text: m[0].slice(1), at: this.pos - m[0].length };
  }

  word(): string | null {
    WORD.lastIndex = this.pos;
    const m = WORD.exec(this.text);
    if (!m) return null;
    this.pos += m[0].length;
    return m[0];
  }

  /** A number at the cursor: an integer (decimal, 0x, 0o, 0b) or a float (decimal or hex), or null. */
  number(): NumberToken | null {
    const at = this.pos;
    const zero = leadingZero(this.text, at);
    if (zero) this.fail(leadingZeroProblem(zero, true));
    HEX_FLOAT.lastIndex = at;
    const h = HEX_FLOAT.exec(this.text);
    if (h) {
      this.pos += h[0].length;
      return { kind: 'float', value: hexFloat(h[1] === '-', h[2], h[3] ?? '', Number(h[4])) };
    }
    DECIMAL_FLOAT.lastIndex = at;
    const f = DECIMAL_FLOAT.exec(this.text);
    if (f) {
      this.pos += f[0].length;
      return { kind: 'float', value: Number(f[0]) };
    }
    INT.lastIndex = at;
    const i = INT.exec(this.text);
    if (!i) return null;
    this.pos += i[0].length;
    const negative = i[0].startsWith('-');
    const digits = negative ? i[0].slice(1) : i[0];
    const v = BigInt(digits);
    return { kind: 'int', value: negative ? -v : v };
  }

  /** A `"…"` string (JSON escapes, and `\u{…}`); the cursor is on the opening quote. */
  quotedText(): string {
    const t = this.text;
    const open = this.pos++;
    let out = '';
    let run = this.pos;
    for (;;) {
      if (this.pos >= t.length) this.fail(unclosedStringProblem(t, open), open);
      const c = t.charCodeAt(this.pos);
      if (c === 0x22) {
        out += t.slice(run, this.pos++);
        break;
      }
      if (c !== 0x5c) {
        this.pos++;
        continue;
      }
      out += t.slice(run, this.pos);
      out += this.escape();
      run = this.pos;
    }
    for (let i = 0; i < out.length; i++) {
      const c = out.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdfff) {
        const pair = c < 0xdc00 && i + 1 < out.length && (out.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
        if (!pair) this.fail('the string holds a lone surrogate, which UTF-8 cannot encode', open);
        i++;
      }
    }
    return out;
  }

  /** One escape sequence; the cursor is on the backslash. */
  private escape(): string {
    const at = this.pos;
    const c = this.text[this.pos + 1];
    this.pos += 2;
    switch (c) {
      case '"':
      case '\\':
      case '/':
      case "'":
        return c;
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case 'n':
        return '\n';
      case 'r':
        return '\r';
      case 't':
        return '\t';
      case 'u': {
        if (this.text[this.pos] === '{') {
          const close = this.text.indexOf('}', this.pos);
          const digits = close < 0 ? '' : this.text.slice(this.pos + 1, close);
          if (!/^[0-9a-fA-F]{1,6}$/.test(digits) || Number.parseInt(digits, 16) > 0x10ffff)
            this.fail('bad \\u{…} escape: 1 to 6 hex digits up to 10FFFF', at);
          this.pos = close + 1;
          return String.fromCodePoint(Number.parseInt(digits, 16));
        }
        const digits = this.text.slice(this.pos, this.pos + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(digits)) this.fail('bad \\u escape: 4 hex digits expected', at);
        this.pos += 4;
        return String.fromCharCode(Number.parseInt(digits, 16));
      }
      default:
        return this.fail(`unknown escape \\${c ?? ''}`, at);
    }
  }

  /** The body of a `'…'` literal (`\'` and `\\` escapes); the cursor is on the opening quote. */
  singleQuoted(): { body: string; at: number } {
    const t = this.text;
    const open = this.pos++;
    let body = '';
    for (;;) {
      if (this.pos >= t.length) this.fail('byte string not closed: "\'" expected', open);
      const c = t[this.pos];
      if (c === "'") {
        this.pos++;
        return { body, at: open + 1 };
      }
      if (c === '\\') {
        const n = t[this.pos + 1];
        if (n !== "'" && n !== '\\') body += this.escape();
        else {
          body += n;
          this.pos += 2;
        }
        continue;
      }
      body += c;
      this.pos++;
    }
  }

  /** `h'…'` content: hex digits, blanks and comments between them. `at`: offset of the body. */
  hexBytes(body: string, at: number): Uint8Array {
    const out: number[] = [];
    let half = -1;
    let halfAt = 0;
    for (let i = 0; i < body.length; i++) {
      const c = body[i];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') continue;
      if (c === '/') {
        const close = body.indexOf('/', i + 1);
        if (close < 0) this.fail('comment not closed: "/" expected', at + i);
        i = close;
        continue;
      }
      if (c === '#') {
        while (i + 1 < body.length && body[i + 1] !== '\n') i++;
        continue;
      }
      const v = Number.parseInt(c, 16);
      if (Number.isNaN(v)) this.fail(`not a hex digit: ${JSON.stringify(c)}`, at + i);
      if (half < 0) {
        half = v;
        halfAt = i;
      } else {
        out.push((half << 4) | v);
        half = -1;
      }
    }
    if (half >= 0) this.fail('odd number of hex digits', at + halfAt);
    return Uint8Array.from(out);
  }

  /** `b64'…'` content: base64 or base64url, padding optional. */
  base64Bytes(body: string, at: number): Uint8Array {
    const r = decodeBase64(body);
    if (!r.ok) this.fail(r.error, at + r.offset);
    return r.bytes;
  }
}

/** `0x1.8p3` = 12: exact while the mantissa has at most 53 significant bits. */
function hexFloat(negative: boolean, whole: string, fraction: string, exponent: number): number {
  const mantissa = BigInt('0x' + (whole + fraction || '0'));
  const v = Number(mantissa) * 2 ** (exponent - 4 * fraction.length);
  return negative ? -v : v;
}
