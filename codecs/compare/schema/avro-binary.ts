/**
 * Avro binary encoding (Avro 1.11 spec, "Binary Encoding") of a value with an inferred
 * schema (avro-schema.ts), interpreted from the type tree — no code generation, so it runs
 * in extension pages and workers under a CSP without 'unsafe-eval'. int / long: zigzag
 * varints (a long of any 64-bit value exactly, a number or a bigint, where avsc's JS-number
 * long stopped at 2^52; it decodes as a number within ±2^53, a bigint beyond); double: 8 bytes little-endian; bytes / string: a long length, then the bytes
 * (strings as UTF-8); arrays and maps: one block (a long count, the items, map keys as
 * strings) then a zero count; a union: the branch's index, then the value; null: nothing;
 * boolean: one byte. The bytes equal avsc's for the same schema and value (a test).
 *
 * Call avroMismatch first: `encodeAvro` expects a value that fits. Decoding checks every
 * length and index against the bytes and throws a RangeError naming the byte offset.
 */
import { setOwn } from '../../core/values.js';
import { unionBranch, type AvroType } from './avro-schema.js';

/** The branch avroMismatch checked the value against (one rule for both: avro-schema.ts unionBranch). */
function branchIndex(union: Extract<AvroType, { kind: 'union' }>, value: unknown): number {
  const i = unionBranch(union, value);
  if (i < 0) throw new TypeError('the value fits no branch of the union (check avroMismatch first)');
  return i;
}

const utf8 = new TextEncoder();
const TWO_30 = 2 ** 30;
const TWO_52 = 2 ** 52;

class Writer {
  bytes = new Uint8Array(256);
  view = new DataView(this.bytes.buffer);
  pos = 0;

  ensure(n: number): void {
    if (this.pos + n <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.bytes.subarray(0, this.pos));
    this.bytes = next;
    this.view = new DataView(next.buffer);
  }

  long(n: number | bigint): void {
    this.ensure(10);
    const b = this.bytes;
    if (typeof n === 'bigint') return this.bigLong(n);
    if (n >= -TWO_30 && n < TWO_30) {
      let m = n >= 0 ? n << 1 : (~n << 1) | 1;
      while (m > 0x7f) {
        b[this.pos++] = (m & 0x7f) | 0x80;
        m >>>= 7;
      }
      b[this.pos++] = m;
    } else if (n > -TWO_52 && n < TWO_52) {
      // 2|n| + 1 < 2^53: exact in floating point.
      let f = n >= 0 ? n * 2 : -n * 2 - 1;
      while (f >= 128) {
        b[this.pos++] = (f % 128) | 0x80;
        f = Math.floor(f / 128);
      }
      b[this.pos++] = f;
    } else this.bigLong(BigInt(n));
  }

  /** Zigzag of a 64-bit value (avroMismatch checked the range), 10 bytes at most. */
  private bigLong(big: bigint): void {
    const b = this.bytes;
    let z = BigInt.asUintN(64, (big << 1n) ^ (big >> 63n));
    while (z > 0x7fn) {
      b[this.pos++] = Number(z & 0x7fn) | 0x80;
      z >>= 7n;
    }
    b[this.pos++] = Number(z);
  }

  string(s: string): void {
    // Reserve the longest length prefix (5 bytes covers 3 * 2^28), write the UTF-8 after it,
    // then move it back behind the real prefix.
    this.ensure(10 + s.length * 3);
    const start = this.pos;
    const { written } = utf8.encodeInto(s, this.bytes.subarray(start + 5));
    this.long(written);
    const prefix = this.pos - start;
    if (prefix !== 5) this.bytes.copyWithin(this.pos, start + 5, start + 5 + written);
    this.pos += written;
  }

  raw(data: Uint8Array): void {
    this.long(data.length);
    this.ensure(data.length);
    this.bytes.set(data, this.pos);
    this.pos += data.length;
  }

  double(d: number): void {
    this.ensure(8);
    this.view.setFloat64(this.pos, d, true);
    this.pos += 8;
  }
}

function write(w: Writer, type: AvroType, value: unknown): void {
  switch (type.kind) {
    case 'null':
      return;
    case 'boolean':
      w.ensure(1);
      w.bytes[w.pos++] = value ? 1 : 0;
      return;
    case 'int':
    case 'long':
      return w.long(value as number | bigint);
    case 'double':
      return w.double(value as number);
    case 'string':
      return w.string(value as string);
    case 'bytes':
      return w.raw(value as Uint8Array);
    case 'array': {
      const list = value as unknown[];
      if (list.length) {
        w.long(list.length);
        for (const item of list) write(w, type.items, item);
      }
      return w.long(0);
    }
    case 'map': {
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record);
      if (keys.length) {
        w.long(keys.length);
        for (const k of keys) {
          w.string(k);
          write(w, type.values, record[k]);
        }
      }
      return w.long(0);
    }
    case 'record': {
      const record = value as Record<string, unknown>;
      for (const f of type.fields) {
        const v = record[f.name];
        // An absent optional field is its default, null (the union's first branch).
        write(w, f.type, v === undefined && f.optional ? null : v);
      }
      return;
    }
    case 'union': {
      const i = branchIndex(type, value);
      w.long(i);
      return write(w, type.branches[i], value);
    }
  }
}

/** The value's Avro binary encoding (the value must fit: see avroMismatch). */
export function encodeAvro(type: AvroType, value: unknown): Uint8Array {
  const w = new Writer();
  write(w, type, value);
  return w.bytes.slice(0, w.pos);
}

/** The fewest bytes a value of `type` takes (null: none; a record: its fields'). */
function minWidth(type: AvroType): number {
  if (type.kind === 'null') return 0;
  if (type.kind === 'double') return 8;
  if (type.kind === 'record') return type.fields.reduce((n, f) => n + minWidth(f.type), 0);
  return 1;
}

/** The most zero-width items (nulls, empty records) one block may claim. */
export const MAX_EMPTY_ITEMS = 1 << 20;

const utf8Fatal = new TextDecoder('utf-8', { fatal: true });

class Reader {
  pos = 0;
  readonly view: DataView;
  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  fail(at: number, why: string): never {
    throw new RangeError(`Avro: offset ${at}: ${why}`);
  }

  need(n: number, what: string): void {
    if (this.pos + n > this.bytes.length)
      this.fail(this.pos, `${what} needs ${n} byte(s), ${this.bytes.length - this.pos} left`);
  }

  /** A long as a value: a number within ±2^53, else the exact bigint. */
  longValue(): number | bigint {
    const start = this.pos;
    const n = this.long();
    return Number.isSafeInteger(n) ? n : this.exactLong(start);
  }

  /** A length, count or index: a number (one beyond 2^53 fails its bounds check anyway). */
  long(): number {
    const start = this.pos;
    let n = 0;
    let scale = 1;
    for (let i = 0; ; i++) {
      if (this.pos >= this.bytes.length) this.fail(start, 'the varint runs past the end');
      const b = this.bytes[this.pos++];
      if (i === 7 && b & 0x80) return this.bigLong(start);
      n += (b & 0x7f) * scale;
      if (!(b & 0x80)) break;
      scale *= 128;
    }
    // n < 2^56 here; below 2^53 the zigzag decode is exact in floating point.
    if (n < 2 ** 53) return n % 2 ? -(n + 1) / 2 : n / 2;
    this.pos = start;
    return this.bigLong(start);
  }

  /** A varint of 8 or more bytes (up to 10), as a number (rounded beyond 2^53). */
  private bigLong(start: number): number {
    return Number(this.exactLong(start));
  }

  /** The varint at `start`, zigzag-decoded exactly; more than 64 bits is an error (the spec's long is 64-bit). */
  private exactLong(start: number): bigint {
    this.pos = start;
    let z = 0n;
    for (let i = 0; ; i++) {
      if (i === 10) this.fail(start, 'a varint longer than 10 bytes');
      if (this.pos >= this.bytes.length) this.fail(start, 'the varint runs past the end');
      const b = this.bytes[this.pos++];
      z |= BigInt(b & 0x7f) << BigInt(7 * i);
      if (!(b & 0x80)) break;
    }
    if (z >> 64n) this.fail(start, 'a varint beyond 64 bits');
    return (z >> 1n) ^ -(z & 1n);
  }

  length(what: string): number {
    const at = this.pos;
    const n = this.long();
    if (n < 0) this.fail(at, `negative ${what} length ${n}`);
    this.need(n, what);
    return n;
  }

  /**
   * A block count: a negative count is followed by the block's byte size (skipped). A count
   * the remaining bytes cannot hold is an error, not a loop (items of `width` bytes at least;
   * nulls take none, so at most MAX_EMPTY_ITEMS of them).
   */
  count(width: number): number {
    const at = this.pos;
    let n = this.long();
    if (n < 0) {
      n = -n;
      this.long();
    }
    if (width ? n * width > this.bytes.length - this.pos : n > MAX_EMPTY_ITEMS)
      this.fail(at, `a block of ${n} items where ${this.bytes.length - this.pos} byte(s) are left`);
    return n;
  }
}

function read(r: Reader, type: AvroType): unknown {
  switch (type.kind) {
    case 'null':
      return null;
    case 'boolean': {
      r.need(1, 'a boolean');
      const b = r.bytes[r.pos];
      if (b > 1) r.fail(r.pos, `a boolean byte of ${b}`);
      r.pos++;
      return b === 1;
    }
    case 'int':
      return r.long();
    case 'long':
      return r.longValue();
    case 'double': {
      r.need(8, 'a double');
      const d = r.view.getFloat64(r.pos, true);
      r.pos += 8;
      return d;
    }
    case 'string': {
      const n = r.length('string');
      const at = r.pos;
      r.pos += n;
      try {
        return utf8Fatal.decode(r.bytes.subarray(at, at + n));
      } catch {
        return r.fail(at, 'a string that is not UTF-8');
      }
    }
    case 'bytes': {
      const n = r.length('bytes');
      r.pos += n;
      return r.bytes.slice(r.pos - n, r.pos);
    }
    case 'array': {
      const out: unknown[] = [];
      const width = minWidth(type.items);
      for (let n = r.count(width); n; n = r.count(width)) {
        for (let i = 0; i < n; i++) out.push(read(r, type.items));
      }
      return out;
    }
    case 'map': {
      const out: Record<string, unknown> = {};
      // A key is a string: one length byte at least.
      const width = 1 + minWidth(type.values);
      for (let n = r.count(width); n; n = r.count(width)) {
        for (let i = 0; i < n; i++) {
          const k = read(r, { kind: 'string' }) as string;
          setOwn(out, k, read(r, type.values));
        }
      }
      return out;
    }
    case 'record': {
      const out: Record<string, unknown> = {};
      for (const f of type.fields) setOwn(out, f.name, read(r, f.type));
      return out;
    }
    case 'union': {
      const at = r.pos;
      const i = r.long();
      if (i < 0 || i >= type.branches.length) r.fail(at, `union index ${i} of ${type.branches.length} branches`);
      return read(r, type.branches[i]);
    }
  }
}

/** The value `bytes` hold; throws a RangeError with the byte offset when they are not one whole value. */
export function decodeAvro(type: AvroType, bytes: Uint8Array): unknown {
  const r = new Reader(bytes);
  const value = read(r, type);
  if (r.pos !== bytes.length) r.fail(r.pos, `${bytes.length - r.pos} byte(s) after the value`);
  return value;
}
