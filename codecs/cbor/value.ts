import { Kind } from '../core/kinds.js';
import type { SpanIndex } from '../core/span-index.js';
import { decodeUtf8 } from '../core/utf8.js';
import { SimpleValue, TaggedValue } from '../core/values.js';

/** The head's argument exactly: a number up to 2^53, a bigint above. */
export function cborArgument(bytes: Uint8Array, start: number, head: number): number | bigint {
  if (head < 9) {
    let v = head === 1 ? bytes[start] & 31 : 0;
    for (let i = 1; i < head; i++) v = v * 256 + bytes[start + i];
    return v;
  }
  let v = 0n;
  for (let i = 1; i < 9; i++) v = (v << 8n) | BigInt(bytes[start + i]);
  return v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
}

export function cborLeafValue(index: SpanIndex, id: number): unknown {
  const { bytes, store } = index;
  const start = store.start[id];
  const head = store.head[id];
  switch (store.kind[id]) {
    case Kind.uint:
      return cborArgument(bytes, start, head);
    case Kind.nint: {
      const n = cborArgument(bytes, start, head);
      return typeof n === 'bigint' ? -1n - n : n === Number.MAX_SAFE_INTEGER ? -1n - BigInt(n) : -1 - n;
    }
    case Kind.bytes:
      return bytes.slice(start + head, store.end[id]);
    case Kind.text:
      return decodeUtf8(bytes, start + head, store.end[id]);
    case Kind.float16:
      return decodeFloat16((bytes[start + 1] << 8) | bytes[start + 2]);
    case Kind.float32:
      return new DataView(bytes.buffer, bytes.byteOffset + start + 1, 4).getFloat32(0);
    case Kind.float64:
      return new DataView(bytes.buffer, bytes.byteOffset + start + 1, 8).getFloat64(0);
    case Kind.false:
      return false;
    case Kind.true:
      return true;
    case Kind.null:
      return null;
    case Kind.undefined:
      return undefined;
    case Kind.simple:
      return new SimpleValue(store.arg[id]);
    default:
      return undefined;
  }
}

/** Bignums (tags 2 and 3 over a byte string) become bigint; every other tag stays a TaggedValue. */
export function cborTagValue(index: SpanIndex, id: number, content: unknown): unknown {
  const { bytes, store } = index;
  const tag = cborArgument(bytes, store.start[id], store.head[id]);
  if ((tag === 2 || tag === 3) && content instanceof Uint8Array) {
    let n = 0n;
    for (const b of content) n = (n << 8n) | BigInt(b);
    return tag === 2 ? n : -1n - n;
  }
  return new TaggedValue(tag, content);
}

export function decodeFloat16(half: number): number {
  const exp = (half >> 10) & 0x1f;
  const mant = half & 0x3ff;
  const sign = half & 0x8000 ? -1 : 1;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 31) return mant ? NaN : sign * Infinity;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}
