import { Flag, Kind } from '../core/kinds.js';
import type { SpanIndex } from '../core/span-index.js';
import { decodeUtf8 } from '../core/utf8.js';
import { ExtValue, type MsgPackTimestamp } from '../core/values.js';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = -MAX_SAFE;
/** Date's range: ±8.64e15 ms, i.e. ±8.64e12 s. */
const MAX_DATE_MS = 8.64e15;

function u32(bytes: Uint8Array, at: number): number {
  return ((bytes[at] << 24) >>> 0) + ((bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]);
}

function u64(bytes: Uint8Array, at: number): bigint {
  return (BigInt(u32(bytes, at)) << 32n) | BigInt(u32(bytes, at + 4));
}

function i64(bytes: Uint8Array, at: number): bigint {
  return BigInt.asIntN(64, u64(bytes, at));
}

/**
 * A copy of bytes[start, end) as a plain Uint8Array. (Not `bytes.slice`: on a Node Buffer,
 * `slice` returns a view that shares memory, and a Buffer.)
 */
function copy(bytes: Uint8Array, start: number, end: number): Uint8Array {
  const out = new Uint8Array(end - start);
  out.set(bytes.subarray(start, end));
  return out;
}

/** A bigint as a number when it is a safe integer. */
function exact(v: bigint): number | bigint {
  return v >= MIN_SAFE && v <= MAX_SAFE ? Number(v) : v;
}

/** The exact value of an integer node of any format: a number, or a bigint beyond 2^53. */
export function msgpackInteger(bytes: Uint8Array, start: number): number | bigint {
  const b = bytes[start];
  if (b < 0x80) return b;
  if (b >= 0xe0) return b - 256;
  const at = start + 1;
  switch (b) {
    case 0xcc:
      return bytes[at];
    case 0xcd:
      return (bytes[at] << 8) | bytes[at + 1];
    case 0xce:
      return u32(bytes, at);
    case 0xcf:
      return exact(u64(bytes, at));
    case 0xd0:
      return (bytes[at] << 24) >> 24;
    case 0xd1:
      return (((bytes[at] << 8) | bytes[at + 1]) << 16) >> 16;
    case 0xd2:
      return u32(bytes, at) | 0;
    case 0xd3:
      return exact(i64(bytes, at));
    default:
      return NaN;
  }
}

/**
 * The MessagePack timestamp extension (type -1) from its data: 32-bit seconds; 30-bit
 * nanoseconds + 34-bit seconds; 32-bit nanoseconds + signed 64-bit seconds. Null for any
 * other length, or nanoseconds above 999 999 999 (which the spec forbids).
 */
export function decodeTimestamp(data: Uint8Array): MsgPackTimestamp | null {
  let seconds: number | bigint;
  let nanoseconds: number;
  switch (data.length) {
    case 4:
      seconds = u32(data, 0);
      nanoseconds = 0;
      break;
    case 8: {
      const hi = u32(data, 0);
      nanoseconds = hi >>> 2;
      seconds = (hi & 3) * 4294967296 + u32(data, 4);
      break;
    }
    case 12:
      nanoseconds = u32(data, 0);
      seconds = exact(i64(data, 4));
      break;
    default:
      return null;
  }
  if (nanoseconds > 999_999_999) return null;
  let date: Date | null = null;
  if (typeof seconds === 'number') {
    // The millisecond that contains the instant (floor, also before 1970).
    const ms = seconds * 1000 + Math.floor(nanoseconds / 1_000_000);
    if (ms >= -MAX_DATE_MS && ms <= MAX_DATE_MS) date = new Date(ms);
  }
  return { seconds, nanoseconds, date };
}

/** The value of a complete leaf node. */
export function msgpackLeafValue(index: SpanIndex, id: number): unknown {
  const { bytes, store } = index;
  const start = store.start[id];
  switch (store.kind[id]) {
    case Kind.uint:
    case Kind.nint:
      return msgpackInteger(bytes, start);
    case Kind.float32:
      return new DataView(bytes.buffer, bytes.byteOffset + start + 1, 4).getFloat32(0);
    case Kind.float64:
      return new DataView(bytes.buffer, bytes.byteOffset + start + 1, 8).getFloat64(0);
    case Kind.text:
      // A str that is not UTF-8 (marked by the walker): the original bytes.
      if (store.flags[id] & Flag.invalidUtf8) return copy(bytes, start + store.head[id], store.end[id]);
      return decodeUtf8(bytes, start + store.head[id], store.end[id]);
    case Kind.bytes:
      return copy(bytes, start + store.head[id], store.end[id]);
    case Kind.ext: {
      const head = store.head[id];
      // The type byte is the last byte of the head.
      const type = (bytes[start + head - 1] << 24) >> 24;
      const data = copy(bytes, start + head, store.end[id]);
      return new ExtValue(type, data, type === -1 ? decodeTimestamp(data) : null);
    }
    case Kind.null:
      return null;
    case Kind.false:
      return false;
    case Kind.true:
      return true;
    default:
      return undefined;
  }
}
