/**
 * Every Protobuf scalar type, both ways, for protobuf-wire.ts: which values a field of the
 * type holds, its wire type, how it is written and read back. An inferred schema uses bool /
 * string / bytes / int32 / int64 / double; a loaded `.proto` any of them (sint64 zigzag,
 * fixed / float little-endian, uint64 up to 2^64 - 1). 64-bit values read back as numbers
 * within ±2^53, bigints beyond (as the schema reading in codecs/protobuf/schema/value.ts).
 */
import type { ProtoScalar } from './protobuf-shape.js';

export interface ScalarWriter {
  byte(b: number): void;
  /** A non-negative integer below 2^53. */
  varint(n: number): void;
  /** Any 64-bit value as its two's complement. */
  varint64(n: bigint): void;
  double(x: number): void;
  /** Length-prefixed bytes. */
  bytes(b: Uint8Array): void;
  /** Bytes as they are (fixed-width values). */
  raw(b: Uint8Array): void;
}

export interface ScalarReader {
  varint(): bigint;
  small(): number;
  take(n: number): Uint8Array;
}

export const WIRE: Readonly<Record<ProtoScalar, number>> = {
  bool: 0,
  int32: 0,
  int64: 0,
  uint32: 0,
  uint64: 0,
  sint32: 0,
  sint64: 0,
  double: 1,
  fixed64: 1,
  sfixed64: 1,
  float: 5,
  fixed32: 5,
  sfixed32: 5,
  string: 2,
  bytes: 2,
};

const I32_MIN = -(2 ** 31);
const I32_MAX = 2 ** 31 - 1;
const U32_MAX = 2 ** 32 - 1;
const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;
const U64_MAX = 2n ** 64n - 1n;

/** An integer number that reads back as itself: safe, and not -0 (it would come back 0). */
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && !Object.is(v, -0);

/** A safe integer number or a bigint, as a bigint (null for anything else). */
function integral(v: unknown): bigint | null {
  if (typeof v === 'bigint') return v;
  return isInt(v) ? BigInt(v) : null;
}

const within = (v: unknown, min: bigint, max: bigint): boolean => {
  const n = integral(v);
  return n !== null && n >= min && n <= max;
};

/** Whether a field of `type` holds `v` exactly (nothing is coerced: '1' is not an int32). */
export function holds(type: ProtoScalar, v: unknown): boolean {
  switch (type) {
    case 'bool':
      return typeof v === 'boolean';
    case 'string':
      return typeof v === 'string';
    case 'bytes':
      return v instanceof Uint8Array;
    case 'double':
    case 'float':
      // An integer bigint has no double without rounding beyond 2^53: not held.
      return typeof v === 'number';
    case 'int32':
    case 'sint32':
    case 'sfixed32':
      return isInt(v) && v >= I32_MIN && v <= I32_MAX;
    case 'uint32':
    case 'fixed32':
      return isInt(v) && v >= 0 && v <= U32_MAX;
    case 'int64':
    case 'sint64':
    case 'sfixed64':
      return within(v, I64_MIN, I64_MAX);
    case 'uint64':
    case 'fixed64':
      return within(v, 0n, U64_MAX);
  }
}

function fixed(bytes: 4 | 8, set: (view: DataView) => void): Uint8Array {
  const out = new Uint8Array(bytes);
  set(new DataView(out.buffer));
  return out;
}

/** Writes a value `holds` accepted. */
export function writeScalarValue(w: ScalarWriter, type: ProtoScalar, v: unknown): void {
  switch (type) {
    case 'bool':
      return w.byte(v ? 1 : 0);
    case 'string':
      return w.bytes(new TextEncoder().encode(v as string));
    case 'bytes':
      return w.bytes(v as Uint8Array);
    case 'double':
      return w.double(v as number);
    case 'float':
      return w.raw(fixed(4, (d) => d.setFloat32(0, v as number, true)));
    case 'int32':
    case 'int64':
    case 'uint32':
    case 'uint64':
      if (typeof v === 'number' && v >= 0 && v <= Number.MAX_SAFE_INTEGER) return w.varint(v);
      return w.varint64(integral(v)!);
    case 'sint32':
    case 'sint64': {
      const n = integral(v)!;
      return w.varint64(n >= 0n ? n << 1n : (-n << 1n) - 1n);
    }
    case 'fixed32':
      return w.raw(fixed(4, (d) => d.setUint32(0, v as number, true)));
    case 'sfixed32':
      return w.raw(fixed(4, (d) => d.setInt32(0, v as number, true)));
    case 'fixed64':
    case 'sfixed64':
      return w.raw(fixed(8, (d) => d.setBigUint64(0, BigInt.asUintN(64, integral(v)!), true)));
  }
}

const numberOrBig = (n: bigint): number | bigint =>
  n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;

const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

function view(b: Uint8Array): DataView {
  return new DataView(b.buffer, b.byteOffset, b.byteLength);
}

export function readScalarValue(r: ScalarReader, type: ProtoScalar): unknown {
  switch (type) {
    case 'bool':
      return r.varint() !== 0n;
    case 'string':
      return utf8Decoder.decode(r.take(r.small()));
    case 'bytes':
      return r.take(r.small()).slice();
    case 'double':
      return view(r.take(8)).getFloat64(0, true);
    case 'float':
      return view(r.take(4)).getFloat32(0, true);
    case 'int32':
      return Number(BigInt.asIntN(32, r.varint()));
    case 'uint32':
      return Number(BigInt.asUintN(32, r.varint()));
    case 'int64':
      return numberOrBig(BigInt.asIntN(64, r.varint()));
    case 'uint64':
      return numberOrBig(BigInt.asUintN(64, r.varint()));
    case 'sint32':
    case 'sint64': {
      const u = BigInt.asUintN(64, r.varint());
      const n = u & 1n ? -(u >> 1n) - 1n : u >> 1n;
      return type === 'sint32' ? Number(BigInt.asIntN(32, n)) : numberOrBig(n);
    }
    case 'fixed32':
      return view(r.take(4)).getUint32(0, true);
    case 'sfixed32':
      return view(r.take(4)).getInt32(0, true);
    case 'fixed64':
      return numberOrBig(view(r.take(8)).getBigUint64(0, true));
    case 'sfixed64':
      return numberOrBig(view(r.take(8)).getBigInt64(0, true));
  }
}

/** The value proto3 gives a scalar field absent from the bytes. */
export function scalarDefault(type: ProtoScalar): unknown {
  return type === 'bool' ? false : type === 'string' ? '' : type === 'bytes' ? new Uint8Array(0) : 0;
}
