import { Flag, Kind } from '../../core/kinds.js';
import type { SpanIndex } from '../../core/span-index.js';
import { quote } from '../../core/diagnostic.js';
import { protobufDescribe, protobufLeafValue, protobufPreview } from '../value.js';
import { varintBigInt } from '../wire.js';
import type { FieldDesc, MessageDesc } from './descriptor.js';
import { schemaData } from './data.js';

/**
 * Values and views of schema-read nodes. A message's value is what protobufjs' decode then
 * `toObject({ enums: String })` gives (unknown fields left out, repeated fields as arrays,
 * maps as objects), except that 64-bit integers are numbers when safe and bigints beyond.
 * The views name well-known types: a Timestamp as its ISO time, a Duration in seconds, a
 * wrapper as its value, Struct/Value/ListValue as JSON.
 */
const utf8 = new TextDecoder('utf-8', { fatal: false });

function safe(v: bigint): number | bigint {
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
}

function view(index: SpanIndex, id: number): DataView {
  const start = index.store.start[id];
  return new DataView(index.bytes.buffer, index.bytes.byteOffset + start, index.store.end[id] - start);
}

/** The value of a scalar node read as `field`'s type. */
export function scalarValue(index: SpanIndex, id: number, field: FieldDesc): unknown {
  const { store, bytes } = index;
  const kind = store.kind[id];
  if (kind === Kind.uint) {
    const raw = varintBigInt(bytes, store.start[id]);
    switch (field.type) {
      case 'int32':
        return Number(BigInt.asIntN(32, raw));
      case 'uint32':
        return Number(BigInt.asUintN(32, raw));
      case 'sint32': {
        const u = Number(BigInt.asUintN(32, raw));
        return (u >>> 1) ^ -(u & 1);
      }
      case 'int64':
        return safe(BigInt.asIntN(64, raw));
      case 'uint64':
        return safe(BigInt.asUintN(64, raw));
      case 'sint64': {
        const u = BigInt.asUintN(64, raw);
        return safe(u & 1n ? -(u >> 1n) - 1n : u >> 1n);
      }
      case 'bool':
        return raw !== 0n;
      case 'enum': {
        const n = Number(BigInt.asIntN(32, raw));
        return field.enumValues?.[n] ?? n;
      }
      default:
        return safe(raw);
    }
  }
  if (kind === Kind.pb_i32) {
    const v = view(index, id);
    return field.type === 'float'
      ? v.getFloat32(0, true)
      : field.type === 'sfixed32'
        ? v.getInt32(0, true)
        : v.getUint32(0, true);
  }
  if (kind === Kind.pb_i64) {
    const v = view(index, id);
    return field.type === 'double'
      ? v.getFloat64(0, true)
      : safe(field.type === 'sfixed64' ? v.getBigInt64(0, true) : v.getBigUint64(0, true));
  }
  const start = store.start[id] + store.head[id];
  if (kind === Kind.text) return utf8.decode(bytes.subarray(start, store.end[id]));
  return bytes.slice(start, store.end[id]);
}

export function schemaLeafValue(index: SpanIndex, id: number): unknown {
  const info = schemaData(index).nodes.get(id);
  if (index.store.kind[id] === Kind.pb_tag) return info?.field?.name ?? Math.floor(index.store.arg[id] / 8);
  if (info?.field) return scalarValue(index, id, info.field);
  return protobufLeafValue(index, id);
}

/** Default values protobufjs gives a map entry's missing value. */
function defaultOf(field: FieldDesc | undefined): unknown {
  if (!field) return undefined;
  if (field.type === 'message') return {};
  if (field.type === 'string') return '';
  if (field.type === 'bytes') return new Uint8Array(0);
  if (field.type === 'bool') return false;
  if (field.type === 'enum') return field.enumValues?.[0] ?? 0;
  return 0;
}

function messageValue(index: SpanIndex, id: number, message: MessageDesc): Record<string, unknown> {
  const { store } = index;
  const nodes = schemaData(index).nodes;
  const out: Record<string, unknown> = {};
  for (let key = store.firstChild[id]; key >= 0; ) {
    const value = store.nextSibling[key];
    if (value < 0) break;
    const next = store.nextSibling[value];
    const info = nodes.get(value);
    const field = info?.field;
    key = next;
    if (!field || store.flags[value] & Flag.incomplete) continue;
    if (field.type === 'entry') {
      const entry = messageValue(index, value, field.message!);
      const map = (out[field.name] ??= {}) as Record<string, unknown>;
      const k = entry.key ?? defaultOf(field.message!.fields.get(1));
      map[String(k)] = 'value' in entry ? entry.value : defaultOf(field.message!.fields.get(2));
      continue;
    }
    const v = schemaValue(index, value);
    if (field.repeated) {
      const list = (out[field.name] ??= []) as unknown[];
      if (store.kind[value] === Kind.array) list.push(...(v as unknown[]));
      else list.push(v);
    } else {
      out[field.name] = v;
    }
  }
  void message;
  return out;
}

export function schemaValue(index: SpanIndex, id: number): unknown {
  if (!index.has(id)) return undefined;
  const { store } = index;
  const info = schemaData(index).nodes.get(id);
  const kind = store.kind[id];
  if (kind === Kind.map && info?.message) {
    // An Any's value stays its bytes, as protobufjs decodes it; the tree shows it decoded.
    if (info.anyValue) return index.bytes.slice(store.start[id] + store.head[id], store.end[id]);
    return messageValue(index, id, info.message);
  }
  if (kind === Kind.array) {
    const out: unknown[] = [];
    // Packed items, or a delimited frame's messages.
    for (let c = store.firstChild[id]; c >= 0; c = store.nextSibling[c])
      out.push(store.kind[c] === Kind.map ? schemaValue(index, c) : schemaLeafValue(index, c));
    return out;
  }
  return schemaLeafValue(index, id);
}

function fieldNamed(index: SpanIndex, id: number, name: string): unknown {
  const v = schemaValue(index, id) as Record<string, unknown> | undefined;
  return v?.[name];
}

const WRAPPERS = new Set(
  [
    'DoubleValue',
    'FloatValue',
    'Int64Value',
    'UInt64Value',
    'Int32Value',
    'UInt32Value',
    'BoolValue',
    'StringValue',
    'BytesValue',
  ].map((n) => `google.protobuf.${n}`),
);

/** Struct / Value / ListValue as the JSON they stand for. */
function jsonOf(message: string, v: Record<string, unknown> | undefined): unknown {
  if (!v) return null;
  if (message === 'google.protobuf.Struct') {
    const out: Record<string, unknown> = {};
    for (const [k, f] of Object.entries((v.fields ?? {}) as Record<string, Record<string, unknown>>))
      out[k] = jsonOf('google.protobuf.Value', f);
    return out;
  }
  if (message === 'google.protobuf.ListValue')
    return ((v.values ?? []) as Record<string, unknown>[]).map((x) => jsonOf('google.protobuf.Value', x));
  if ('structValue' in v || 'struct_value' in v)
    return jsonOf('google.protobuf.Struct', (v.struct_value ?? v.structValue) as Record<string, unknown>);
  if ('listValue' in v || 'list_value' in v)
    return jsonOf('google.protobuf.ListValue', (v.list_value ?? v.listValue) as Record<string, unknown>);
  for (const k of ['number_value', 'string_value', 'bool_value', 'numberValue', 'stringValue', 'boolValue'])
    if (k in v) return v[k];
  return null;
}

/** A well-known type's one-line reading, or null. */
function wellKnownPreview(index: SpanIndex, id: number, message: MessageDesc): string | null {
  const name = message.fullName;
  if (name === 'google.protobuf.Timestamp') {
    const seconds = Number(fieldNamed(index, id, 'seconds') ?? 0);
    const nanos = Number(fieldNamed(index, id, 'nanos') ?? 0);
    const date = new Date(seconds * 1000 + Math.floor(nanos / 1e6));
    const iso = Number.isFinite(date.getTime()) ? date.toISOString() : `${seconds}s`;
    return nanos % 1e6 ? iso.replace(/\.\d{3}Z$/, `.${String(nanos).padStart(9, '0')}Z`) : iso;
  }
  if (name === 'google.protobuf.Duration') {
    const seconds = BigInt(String(fieldNamed(index, id, 'seconds') ?? 0));
    const nanos = Number(fieldNamed(index, id, 'nanos') ?? 0);
    const frac = nanos ? '.' + String(Math.abs(nanos)).padStart(9, '0').replace(/0+$/, '') : '';
    return `${seconds === 0n && nanos < 0 ? '-' : ''}${seconds}${frac}s`;
  }
  if (WRAPPERS.has(name)) {
    const v = fieldNamed(index, id, 'value');
    return v === undefined ? '(default)' : typeof v === 'string' ? quote(v) : String(v);
  }
  if (name === 'google.protobuf.Struct' || name === 'google.protobuf.Value' || name === 'google.protobuf.ListValue') {
    return JSON.stringify(jsonOf(name, schemaValue(index, id) as Record<string, unknown>), (_k, v) =>
      typeof v === 'bigint' ? String(v) : v,
    );
  }
  if (name === 'google.protobuf.Any') return `Any ${String(fieldNamed(index, id, 'type_url') ?? '')}`;
  return null;
}

function shortName(fullName: string): string {
  return fullName.slice(fullName.lastIndexOf('.') + 1);
}

/** The root of a run of length-delimited messages. */
function delimitedRoot(index: SpanIndex, id: number): string | null {
  const data = schemaData(index);
  if (id !== 0 || !data.delimited) return null;
  const n = index.store.arg[0];
  return `${n} ${shortName(data.type.fullName)} message${n === 1 ? '' : 's'} (length-delimited)`;
}

export function schemaPreview(index: SpanIndex, id: number, max: number): string {
  const { store } = index;
  const info = schemaData(index).nodes.get(id);
  let text: string;
  const kind = store.kind[id];
  const root = delimitedRoot(index, id);
  if (root !== null) text = root;
  else if (kind === Kind.pb_tag) text = info?.field ? info.field.name : `#${Math.floor(store.arg[id] / 8)}`;
  else if (kind === Kind.map && info?.message) {
    const wk = wellKnownPreview(index, id, info.message);
    if (wk !== null) text = wk;
    else if (info.message.fullName === 'entry') {
      const v = messageValue(index, id, info.message);
      text = `${String(v.key ?? '')} → ${typeof v.value === 'string' ? quote(v.value) : typeof v.value === 'object' ? '{…}' : String(v.value)}`;
    } else text = `${shortName(info.message.fullName)} {${store.arg[id]} field${store.arg[id] === 1 ? '' : 's'}}`;
  } else if (!info?.field) return protobufPreview(index, id, max);
  else if (kind === Kind.array) text = `[${store.arg[id]} packed ${info.field.type}]`;
  else {
    const v = scalarValue(index, id, info.field);
    if (info.field.type === 'enum') {
      const n = Number(BigInt.asIntN(32, varintBigInt(index.bytes, store.start[id])));
      text = typeof v === 'string' ? `${v} (${n})` : String(v);
    } else if (typeof v === 'string') text = quote(v);
    else if (v instanceof Uint8Array) return protobufPreview(index, id, max);
    else text = String(v);
  }
  return text.length > max ? text.slice(0, max - 1) + '…' : text;
}

export function schemaDescribe(index: SpanIndex, id: number): string {
  const { store } = index;
  const info = schemaData(index).nodes.get(id);
  const kind = store.kind[id];
  const root = delimitedRoot(index, id);
  if (root !== null) return root;
  if (kind === Kind.pb_tag)
    return info?.field
      ? `${info.field.name} = ${info.field.id}${info.field.oneof ? ` (oneof ${info.field.oneof})` : ''}`
      : `unknown field ${Math.floor(store.arg[id] / 8)}`;
  if (kind === Kind.map && info?.message) {
    if (info.message.fullName === 'entry') return 'map entry';
    return `${info.anyValue ? 'Any value: ' : ''}${shortName(info.message.fullName)}(${store.arg[id]})`;
  }
  if (!info?.field)
    return info?.raw === 'wire-type-mismatch'
      ? `${protobufDescribe(index, id)} (wire type does not match the schema)`
      : protobufDescribe(index, id);
  if (kind === Kind.array) return `packed ${info.field.type}(${store.arg[id]})`;
  if (info.field.type === 'enum') return 'enum';
  if (kind === Kind.text || kind === Kind.bytes) return `${info.field.type}(${store.arg[id]})`;
  return info.field.type;
}

export function schemaDetails(index: SpanIndex, id: number): Record<string, unknown> {
  const { store } = index;
  const info = schemaData(index).nodes.get(id);
  const out: Record<string, unknown> = {};
  if (store.kind[id] === Kind.pb_tag) {
    out.field = Math.floor(store.arg[id] / 8);
    out.wireType = store.arg[id] % 8;
  }
  if (info?.field) {
    out.name = info.field.name;
    if (info.field.oneof) out.oneof = info.field.oneof;
    out.type =
      info.field.type === 'message' || info.field.type === 'entry'
        ? (info.message?.fullName ?? info.field.type)
        : info.field.type;
  } else if (store.kind[id] !== Kind.pb_tag && id !== 0) {
    out.unknown = true;
    if (info?.raw) out.raw = info.raw;
  }
  if (info?.message && store.kind[id] === Kind.map) {
    out.message = info.message.fullName;
    const wk = wellKnownPreview(index, id, info.message);
    if (wk !== null) out.reading = wk;
  }
  return out;
}
