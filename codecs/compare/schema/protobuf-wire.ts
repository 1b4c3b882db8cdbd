/**
 * Protobuf binary encoding by a ProtoMessage (protobuf-shape.ts), both ways, without code
 * generation. Encoding checks every value against the schema and returns a mismatch — the
 * path and why — instead of bytes when the frame does not fit; nothing is coerced.
 *
 * Wire choices are proto3's: varints for bool / int32 / int64 (negatives as 10-byte two's
 * complement), fixed64 for double, length-delimited strings, bytes and messages, packed
 * repeated numbers and bools. Fields with implicit presence (present in every frame the
 * schema was inferred from) skip their default value (0, "", false, empty bytes, empty
 * list) the way protoc-generated code does, and decode it back.
 *
 * Normalization a round trip applies (documented for the comparison and its tests): a key
 * whose value is null is written as absent; an `optional` repeated field that is empty
 * decodes as absent; an int64 beyond 2^53 decodes as a bigint, others as numbers.
 */
import { isRecord } from '../features.js';
import { setOwn } from '../../core/values.js';
import { kindOf, unheld, whyNoField } from './protobuf-infer.js';
import type { ProtoEnum, ProtoField, ProtoMessage, ProtoScalar } from './protobuf-shape.js';
import { holds, readScalarValue, scalarDefault, WIRE, writeScalarValue } from './protobuf-scalars.js';

export class Mismatch extends Error {}

class Writer {
  buf = new Uint8Array(256);
  pos = 0;

  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.pos + n));
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }

  byte(b: number): void {
    this.room(1);
    this.buf[this.pos++] = b;
  }

  /** A non-negative integer below 2^53. */
  varint(n: number): void {
    this.room(10);
    while (n >= 0x80) {
      this.buf[this.pos++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    this.buf[this.pos++] = n;
  }

  /** Any int64 / uint64 value as its 64-bit two's complement. */
  varint64(n: bigint): void {
    let u = BigInt.asUintN(64, n);
    this.room(10);
    while (u >= 0x80n) {
      this.buf[this.pos++] = Number(u & 0x7fn) | 0x80;
      u >>= 7n;
    }
    this.buf[this.pos++] = Number(u);
  }

  double(x: number): void {
    this.room(8);
    new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8).setFloat64(0, x, true);
    this.pos += 8;
  }

  bytes(b: Uint8Array): void {
    this.varint(b.length);
    this.room(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  raw(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }

  /** The bytes written so far, not copied (a scratch writer's, copied by the parent). */
  written(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }
}

// -0 is not the default: proto3 writes a double whose bits are not all zero (as protoc does), so -0 survives.
const isDefault = (v: unknown): boolean =>
  Object.is(v, 0) ||
  v === 0n ||
  v === '' ||
  v === false ||
  (v instanceof Uint8Array && v.length === 0) ||
  (Array.isArray(v) && v.length === 0);

function checkScalar(type: ProtoScalar, v: unknown, path: string): void {
  if (!holds(type, v)) {
    const kind = kindOf(v);
    const what = kind === null ? unheld(v) : kind;
    throw new Mismatch(`${path}: ${what} where the schema has ${type}`);
  }
}

/** An enum field's value (a name of the enum, or a number) as the number written. */
function enumNumber(e: ProtoEnum, v: unknown, path: string): number {
  if (typeof v === 'string') {
    const n = e.byName.get(v);
    if (n === undefined)
      throw new Mismatch(`${path}: ${JSON.stringify(v).slice(0, 60)} is not a value of enum ${e.name}`);
    return n;
  }
  if (typeof v === 'number' && Number.isInteger(v) && v >= -(2 ** 31) && v < 2 ** 31 && !Object.is(v, -0)) return v;
  throw new Mismatch(`${path}: ${kindOf(v) ?? unheld(v)} where the schema has enum ${e.name}`);
}

/** A map key as the entry's key field takes it: object keys are strings, the key type may be a number or bool. */
function mapKey(type: ProtoMessage['fields'][number]['type'], key: string, path: string): unknown {
  if (type === 'string') return key;
  if (type === 'bool' && (key === 'true' || key === 'false')) return key === 'true';
  if (typeof type === 'string' && type !== 'bytes' && type !== 'double' && type !== 'float' && /^-?\d+$/.test(key)) {
    const n = BigInt(key);
    const v = n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
    if (holds(type, v)) return v;
  }
  throw new Mismatch(
    `${path}: the key ${JSON.stringify(key).slice(0, 60)} is not a ${typeof type === 'string' ? type : 'scalar'} map key`,
  );
}

/** A map field's entries: one entry message (key = 1, value = 2) per key of the object. */
function writeMap(w: Writer, f: ProtoField, obj: unknown, at: string): void {
  if (!isRecord(obj))
    throw new Mismatch(
      `${at}: ${Array.isArray(obj) ? 'a list' : obj === null ? 'null' : typeof obj} where the schema has a map`,
    );
  const entry = f.type as ProtoMessage;
  const keyType = entry.fields[0].type;
  for (const k of Object.keys(obj)) {
    const v = obj[k];
    if (v === null || v === undefined)
      throw new Mismatch(`${at}.${k}: null as a map value (a map entry's value has no null)`);
    w.varint(f.number * 8 + 2);
    w.bytes(writeNested(entry, { key: mapKey(keyType, k, `${at}.${k}`), value: v }, `${at}.${k}`));
  }
}

/** A value in the user's terms (never a class name: the worker's bundle is minified). */
function whatItIs(v: unknown): string {
  if (Array.isArray(v)) return 'a list';
  if (v === null) return 'null';
  if (v instanceof Uint8Array) return 'bytes';
  if (typeof v === 'string') return 'text';
  if (typeof v === 'number' || typeof v === 'bigint') return 'a number';
  if (typeof v === 'boolean') return 'true / false';
  if (isRecord(v)) return 'an object';
  return v === undefined ? 'nothing' : 'a value with no plain form';
}

function writeMessage(w: Writer, m: ProtoMessage, obj: unknown, path: string): void {
  if (!isRecord(obj))
    throw new Mismatch(
      `${path || 'the frame'}: ${whatItIs(obj)}, where the schema has a message (${m.name}): an object with named fields`,
    );
  const byName = fieldsByName(m);
  for (const key of Object.keys(obj)) {
    const v = obj[key];
    const at = path ? `${path}.${key}` : key;
    if (v === null || v === undefined) continue;
    const f = byName.get(key);
    // An empty list reads back as absent (normalization): no field needed for it.
    if (!f && Array.isArray(v) && v.length === 0) continue;
    if (!f) {
      // An inferred schema left the key out: say why (this frame's value, else the other frames').
      const omitted = m.omitted?.get(key);
      if (omitted !== undefined)
        throw new Mismatch(
          whyNoField(v, at) ??
            `${at}: left out of the inferred schema (another value of this key: ${omitted.replace(/^[\w[\]]*: /, '')})`,
        );
    }
    if (!f)
      throw new Mismatch(
        `${at}: the key is not in the schema${/^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? '' : ' (not an identifier, which Protobuf field names must be)'}`,
      );
    if (f.map) {
      writeMap(w, f, v, at);
      continue;
    }
    if (f.repeated) {
      if (!Array.isArray(v)) throw new Mismatch(`${at}: ${whatItIs(v)} where the schema has a repeated field (a list)`);
      writeRepeated(w, f, v, at);
    } else {
      if (Array.isArray(v))
        throw new Mismatch(
          `${at}: a list where the schema has one ${typeof f.type === 'string' ? f.type : f.type.name}`,
        );
      if (typeof f.type === 'string') {
        const scalar = f.enum ? enumNumber(f.enum, v, at) : v;
        checkScalar(f.type, scalar, at);
        if (!f.optional && isDefault(scalar)) continue;
        w.varint(f.number * 8 + WIRE[f.type]);
        writeScalarValue(w, f.type, scalar);
      } else {
        w.varint(f.number * 8 + 2);
        w.bytes(writeNested(f.type, v, at));
      }
    }
  }
}

function writeRepeated(w: Writer, f: ProtoField, list: unknown[], at: string): void {
  if (list.length === 0) return;
  for (let i = 0; i < list.length; i++)
    if (list[i] === null || list[i] === undefined)
      throw new Mismatch(`${at}[${i}]: null inside a list (a repeated field has no null)`);
  const type = f.type;
  if (typeof type !== 'string') {
    for (let i = 0; i < list.length; i++) {
      w.varint(f.number * 8 + 2);
      w.bytes(writeNested(type, list[i], `${at}[${i}]`));
    }
    return;
  }
  if (f.enum) {
    const e = f.enum;
    list = list.map((v, i) => enumNumber(e, v, `${at}[${i}]`));
  }
  for (let i = 0; i < list.length; i++) checkScalar(type, list[i], `${at}[${i}]`);
  if (type === 'string' || type === 'bytes') {
    for (const v of list) {
      w.varint(f.number * 8 + 2);
      writeScalarValue(w, type, v);
    }
    return;
  }
  const packed = scratch();
  try {
    for (const v of list) writeScalarValue(packed, type, v);
    w.varint(f.number * 8 + 2);
    w.bytes(packed.written());
  } finally {
    depth--;
  }
}

const byNameCache = new WeakMap<ProtoMessage, Map<string, ProtoField>>();
function fieldsByName(m: ProtoMessage): Map<string, ProtoField> {
  let map = byNameCache.get(m);
  if (!map) byNameCache.set(m, (map = new Map(m.fields.map((f) => [f.name, f]))));
  return map;
}

/**
 * Scratch writers, one per nesting depth, reused from message to message: a nested message
 * (or a packed list) is written into the scratch writer one level down, then copied into its
 * parent as a length-delimited field — no writer and no sliced copy allocated per nested
 * message (the same bytes: protobuf-wire-scratch test). Only the outermost message's bytes
 * are sliced out, as the result.
 */
const scratchWriters: Writer[] = [];
let depth = 0;
function scratch(): Writer {
  const w = (scratchWriters[depth] ??= new Writer());
  depth++;
  w.pos = 0;
  return w;
}

/** A nested message's bytes, in the scratch writer one level down (valid until that level is written again). */
function writeNested(m: ProtoMessage, obj: unknown, path: string): Uint8Array {
  const w = scratch();
  try {
    writeMessage(w, m, obj, path);
    return w.written();
  } finally {
    depth--;
  }
}

function encodeMessage(m: ProtoMessage, obj: unknown, path: string): Uint8Array {
  depth = 0;
  const w = scratch();
  try {
    writeMessage(w, m, obj, path);
    return w.finish();
  } finally {
    depth = 0;
  }
}

/** The frame's value in Protobuf, or why it does not fit the schema. */
export function encodeProtobuf(m: ProtoMessage, value: unknown): Uint8Array | { readonly mismatch: string } {
  try {
    return encodeMessage(m, value, '');
  } catch (e) {
    if (e instanceof Mismatch) return { mismatch: e.message };
    if (e instanceof RangeError && /call stack/i.test(e.message)) return { mismatch: 'nested too deep' };
    throw e;
  }
}

// ---------------------------------------------------------------------------------------

class Reader {
  pos = 0;
  constructor(
    readonly buf: Uint8Array,
    readonly end = buf.length,
  ) {}

  varint(): bigint {
    let shift = 0n;
    let out = 0n;
    for (;;) {
      if (this.pos >= this.end) throw new RangeError(`protobuf: a varint runs past the end at offset ${this.pos}`);
      const b = this.buf[this.pos++];
      out |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return out;
      shift += 7n;
      if (shift > 63n) throw new RangeError(`protobuf: a varint longer than 10 bytes at offset ${this.pos}`);
    }
  }

  small(): number {
    return Number(this.varint());
  }

  take(n: number): Uint8Array {
    if (this.pos + n > this.end) throw new RangeError(`protobuf: ${n} bytes at offset ${this.pos} run past the end`);
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  skip(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 1) this.take(8);
    else if (wire === 5) this.take(4);
    else if (wire === 2) this.take(this.small());
    else throw new RangeError(`protobuf: wire type ${wire} at offset ${this.pos}`);
  }
}

function defaultOf(f: ProtoField): unknown {
  if (f.repeated) return [];
  if (f.enum) return f.enum.byNumber.get(0) ?? 0;
  return typeof f.type === 'string' ? scalarDefault(f.type) : undefined;
}

/** A scalar as read: an enum's number by its name (a number the enum lacks stays a number). */
function readField(r: Reader, f: ProtoField, type: ProtoScalar): unknown {
  const v = readScalarValue(r, type);
  return f.enum ? (f.enum.byNumber.get(v as number) ?? v) : v;
}

function readMessage(m: ProtoMessage, r: Reader): Record<string, unknown> {
  const byNumber = new Map(m.fields.map((f) => [f.number, f]));
  const out: Record<string, unknown> = {};
  while (r.pos < r.end) {
    const tag = r.small();
    const wire = tag & 7;
    const f = byNumber.get(Math.floor(tag / 8));
    if (!f) {
      r.skip(wire);
      continue;
    }
    const type = f.type;
    let v: unknown;
    if (typeof type !== 'string') {
      const n = r.small();
      const sub = new Reader(r.buf, r.pos + n);
      if (sub.end > r.end) throw new RangeError(`protobuf: message ${type.name} at offset ${r.pos} runs past the end`);
      sub.pos = r.pos;
      v = readMessage(type, sub);
      r.pos = sub.end;
      if (f.map) {
        const entries = (out[f.name] ??= {}) as Record<string, unknown>;
        const entry = v as Record<string, unknown>;
        setOwn(entries, String(entry.key), entry.value ?? defaultOf(type.fields[1]));
        continue;
      }
    } else if (f.repeated && wire === 2 && WIRE[type] !== 2) {
      const n = r.small();
      const sub = new Reader(r.buf, r.pos + n);
      sub.pos = r.pos;
      const list = (out[f.name] ??= []) as unknown[];
      while (sub.pos < sub.end) list.push(readField(sub, f, type));
      r.pos = sub.end;
      continue;
    } else v = readField(r, f, type);
    if (f.repeated) ((out[f.name] ??= []) as unknown[]).push(v);
    else out[f.name] = v;
  }
  for (const f of m.fields)
    if (!(f.name in out) && !f.optional && typeof f.type === 'string') out[f.name] = defaultOf(f);
  for (const f of m.fields) if (!(f.name in out) && f.map) out[f.name] = {};
  for (const f of m.fields) if (!(f.name in out) && !f.optional && f.repeated) out[f.name] = [];
  return out;
}

/** Decodes bytes written by encodeProtobuf (throws a RangeError with the offset on malformed input). */
export function decodeProtobuf(m: ProtoMessage, bytes: Uint8Array): Record<string, unknown> {
  return readMessage(m, new Reader(bytes));
}
