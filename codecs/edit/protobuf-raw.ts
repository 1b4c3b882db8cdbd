import { MAX_FIELD_NUMBER, WireType } from '../protobuf/wire.js';
import { ByteWriter } from './byte-writer.js';

/**
 * Protobuf without a schema: a list of fields (number, wire type, value) → the wire bytes,
 * in the order given (repeated numbers allowed, as on the wire).
 * - VARINT (0): an integer from -2^63 to 2^64 - 1 (negatives as their 64-bit two's complement)
 * - I64 (1): a bigint / number (the 64 bits, as unsigned or signed) or 8 bytes
 * - LEN (2): bytes, a string (UTF-8) or a nested list of fields (a message)
 * - SGROUP (3): a nested list of fields, closed by the matching EGROUP
 * - I32 (5): an integer (the 32 bits, as unsigned or signed) or 4 bytes
 * A value the wire type cannot carry is an error naming the field's path (`2.1`), no bytes.
 */
export interface RawField {
  readonly field: number;
  readonly wire: 0 | 1 | 2 | 3 | 5;
  readonly value: bigint | number | string | Uint8Array | readonly RawField[];
}

export type RawProtobufResult =
  | { readonly ok: true; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly error: string; readonly path: string };

export function rawProtobuf(fields: readonly RawField[]): RawProtobufResult {
  const w = new ByteWriter();
  const problem = writeFields(w, fields, '');
  return problem ? { ok: false, ...problem } : { ok: true, bytes: w.result() };
}

function integer(v: RawField['value']): bigint | null {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  return null;
}

function writeFields(
  w: ByteWriter,
  fields: readonly RawField[],
  parent: string,
): { error: string; path: string } | null {
  for (const f of fields) {
    const path = parent ? `${parent}.${f.field}` : String(f.field);
    const bad = (error: string) => ({ error: `field ${path}: ${error}`, path });
    if (!Number.isInteger(f.field) || f.field < 1 || f.field > MAX_FIELD_NUMBER)
      return bad(`a field number is from 1 to ${MAX_FIELD_NUMBER}`);
    const key = (wire: number) => w.varint((BigInt(f.field) << 3n) | BigInt(wire));
    const v = f.value;
    switch (f.wire) {
      case WireType.varint: {
        const n = integer(v);
        if (n === null || n < -(1n << 63n) || n >= 1n << 64n)
          return bad('VARINT takes an integer from -2^63 to 2^64 - 1');
        key(0);
        w.varint(BigInt.asUintN(64, n));
        break;
      }
      case WireType.i64:
      case WireType.i32: {
        const size = f.wire === WireType.i64 ? 8 : 4;
        const bits = size * 8;
        key(f.wire);
        if (v instanceof Uint8Array) {
          if (v.length !== size) return bad(`${size === 8 ? 'I64' : 'I32'} takes ${size} bytes, not ${v.length}`);
          w.bytes(v);
          break;
        }
        const n = integer(v);
        if (n === null || n < -(1n << BigInt(bits - 1)) || n >= 1n << BigInt(bits))
          return bad(`${size === 8 ? 'I64' : 'I32'} takes ${size} bytes or a ${bits}-bit integer`);
        let u = BigInt.asUintN(bits, n);
        for (let i = 0; i < size; i++, u >>= 8n) w.byte(Number(u & 0xffn));
        break;
      }
      case WireType.len: {
        let data: Uint8Array;
        if (v instanceof Uint8Array) data = v;
        else if (typeof v === 'string') data = new TextEncoder().encode(v);
        else if (Array.isArray(v)) {
          const inner = new ByteWriter();
          const problem = writeFields(inner, v, path);
          if (problem) return problem;
          data = inner.result();
        } else return bad('LEN takes bytes, a string or a list of fields');
        key(2);
        w.varint(BigInt(data.length));
        w.bytes(data);
        break;
      }
      case WireType.startGroup: {
        if (!Array.isArray(v)) return bad('SGROUP takes a list of fields');
        key(3);
        const problem = writeFields(w, v, path);
        if (problem) return problem;
        key(4);
        break;
      }
      default:
        return bad(`wire type ${f.wire} is not one a field is written with (0, 1, 2, 3, 5)`);
    }
  }
  return null;
}
