import { Kind } from '../core/kinds.js';
import type { SpanIndex } from '../core/span-index.js';
import { hex, quote } from '../core/diagnostic.js';
import { varintBigInt, WIRE_TYPE_NAMES } from './wire.js';
import { protobufData } from './data.js';

/**
 * Values and one-line views of Protobuf nodes without a schema. A varint is shown as
 * unsigned with its zigzag (sint) reading; fixed-width fields as integers with their float
 * reading when it is a plausible number; a field's key as its number and wire type.
 */
const textDecoder = new TextDecoder('utf-8', { fatal: false });

function unsignedVarint(index: SpanIndex, id: number): number | bigint {
  const v = index.store.arg[id];
  return Number.isSafeInteger(v) ? v : varintBigInt(index.bytes, index.store.start[id]);
}

function fixed(index: SpanIndex, id: number): { u: number | bigint; f: number } {
  const { bytes, store } = index;
  const start = store.start[id];
  const view = new DataView(bytes.buffer, bytes.byteOffset + start, store.end[id] - start);
  if (store.kind[id] === Kind.pb_i32) return { u: view.getUint32(0, true), f: view.getFloat32(0, true) };
  const u = view.getBigUint64(0, true);
  return { u: u <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(u) : u, f: view.getFloat64(0, true) };
}

export function protobufLeafValue(index: SpanIndex, id: number): unknown {
  const { store, bytes } = index;
  const start = store.start[id] + store.head[id];
  const end = store.end[id];
  switch (store.kind[id]) {
    case Kind.pb_tag:
      return Math.floor(store.arg[id] / 8);
    case Kind.uint:
      return unsignedVarint(index, id);
    case Kind.pb_i32:
    case Kind.pb_i64:
      return fixed(index, id).u;
    case Kind.text:
      return textDecoder.decode(bytes.subarray(start, end));
    case Kind.bytes:
      return bytes.slice(start, end);
    default:
      return undefined;
  }
}

/** The zigzag (sint32/sint64) reading of an unsigned varint. */
export function zigzag(u: number | bigint): number | bigint {
  if (typeof u === 'bigint') return u & 1n ? -(u >> 1n) - 1n : u >> 1n;
  return u % 2 ? -(u - 1) / 2 - 1 : u / 2;
}

/** A float reading worth showing: finite and of a size real data has. */
function plausibleFloat(f: number): boolean {
  if (!Number.isFinite(f)) return false;
  const a = Math.abs(f);
  return a === 0 || (a >= 1e-9 && a <= 1e15);
}

export function protobufPreview(index: SpanIndex, id: number, max: number): string {
  const { store } = index;
  let text: string;
  switch (store.kind[id]) {
    case Kind.pb_tag:
      text = String(Math.floor(store.arg[id] / 8));
      break;
    case Kind.uint: {
      const u = unsignedVarint(index, id);
      const z = zigzag(u);
      text = String(u) + (z !== u && u !== 0 ? ` (sint ${z})` : '');
      if (typeof u === 'bigint' && u >= 1n << 63n) text += ` (int64 ${u - (1n << 64n)})`;
      break;
    }
    case Kind.pb_i32:
    case Kind.pb_i64: {
      const { u, f } = fixed(index, id);
      text =
        String(u) +
        (plausibleFloat(f) && f !== Number(u) ? ` (${store.kind[id] === Kind.pb_i32 ? 'float' : 'double'} ${f})` : '');
      break;
    }
    case Kind.text:
      text = quote(String(protobufLeafValue(index, id)));
      break;
    case Kind.bytes: {
      const start = store.start[id] + store.head[id];
      text = `h'${hex(index.bytes, start, Math.min(store.end[id], start + max))}'`;
      break;
    }
    case Kind.map:
      text = `{${store.arg[id]} field${store.arg[id] === 1 ? '' : 's'}}`;
      break;
    case Kind.pb_group:
      text = `group {${store.arg[id]} field${store.arg[id] === 1 ? '' : 's'}}`;
      break;
    case Kind.array:
      text = `[${store.arg[id]} packed varint${store.arg[id] === 1 ? '' : 's'}]`;
      break;
    default:
      text = index.kind(id);
  }
  return text.length > max ? text.slice(0, max - 1) + '…' : text;
}

export function protobufDescribe(index: SpanIndex, id: number): string {
  const { store } = index;
  const n = store.arg[id];
  switch (store.kind[id]) {
    case Kind.pb_tag:
      return `field ${Math.floor(n / 8)} ${WIRE_TYPE_NAMES[n % 8]}`;
    case Kind.uint:
      return 'varint';
    case Kind.pb_i32:
      return 'i32';
    case Kind.pb_i64:
      return 'i64';
    case Kind.text:
      return `string(${n})`;
    case Kind.bytes:
      return `bytes(${n})`;
    case Kind.map:
      return id === 0 ? `message(${n})` : `message(${n})`;
    case Kind.pb_group:
      return `group(${n})`;
    case Kind.array:
      return `packed(${n})`;
    default:
      return index.kind(id);
  }
}

export function protobufDetails(index: SpanIndex, id: number): Record<string, unknown> {
  const { store } = index;
  const data = protobufData(index);
  const out: Record<string, unknown> = {};
  const readings = data.readings.get(id);
  if (readings) out.readings = readings;
  switch (store.kind[id]) {
    case Kind.pb_tag:
      out.field = Math.floor(store.arg[id] / 8);
      out.wireType = store.arg[id] % 8;
      break;
    case Kind.uint: {
      const u = unsignedVarint(index, id);
      out.unsigned = String(u);
      out.zigzag = String(zigzag(u));
      break;
    }
    case Kind.pb_i32:
    case Kind.pb_i64: {
      const { u, f } = fixed(index, id);
      out.unsigned = String(u);
      out[store.kind[id] === Kind.pb_i32 ? 'float' : 'double'] = f;
      break;
    }
    default:
      break;
  }
  return out;
}
