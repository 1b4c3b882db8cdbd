import protobuf from 'protobufjs';
import { decodeBase64 } from '../core/base64.js';
import { holds, WIRE, writeScalarValue, type ScalarWriter } from '../compare/schema/protobuf-scalars.js';
import type { ProtoScalar } from '../compare/schema/protobuf-shape.js';
import { lookupMessage, type LoadedSchema } from '../protobuf/schema/load.js';
import { ByteWriter } from './byte-writer.js';
import { type EditResult, editError } from './edit-error.js';
import type { JsonNode } from './json-tree.js';
import { parseJsonTree } from './json-tree.js';

/**
 * Protobuf from proto3 JSON (https://protobuf.dev/programming-guides/json/) with a loaded
 * schema, by reflection over protobufjs' parsed types: no generated code, no `eval` or
 * `new Function` (protobufjs' own encoders generate code, which extension pages refuse),
 * so this runs in the panel. Fields are written in field-number order (as protoc and
 * @bufbuild/protobuf write them), repeated scalars packed where the schema packs them, map
 * entries with key and value, implicit-presence fields left out at their default. JSON
 * names (lowerCamelCase or `json_name`) and the proto names are both accepted; 64-bit
 * integers as strings or numbers, enums by name or number, bytes as base64 or base64url,
 * floats also as "NaN" / "Infinity" / "-Infinity". Well-known types in their JSON forms:
 * Timestamp, Duration, the wrappers, Struct / Value / ListValue, FieldMask, Empty and Any.
 * A bad text gives an error at the line and column of the offending key or value.
 */
export function protobufFromJson(schema: LoadedSchema, typeName: string, text: string): EditResult {
  const type = lookupMessage(schema, typeName);
  if (!type) return { ok: false, error: editError(text, 0, `${typeName} is not a message type of the schema`) };
  const tree = parseJsonTree(text);
  if (!tree.ok) return { ok: false, error: editError(text, tree.offset, tree.message) };
  try {
    const w = new ByteWriter();
    new ProtoJsonEncoder(schema.root).message(w, type, tree.root);
    return { ok: true, bytes: w.result() };
  } catch (e) {
    if (e instanceof ProtoJsonFailure) return { ok: false, error: editError(text, e.offset, e.message) };
    if (e instanceof RangeError) return { ok: false, error: editError(text, 0, 'nested too deeply to encode') };
    return { ok: false, error: editError(text, 0, `internal error: ${(e as Error)?.message ?? e}`) };
  }
}

class ProtoJsonFailure {
  constructor(
    readonly offset: number,
    readonly message: string,
  ) {}
}

const fail = (node: { at: number } | number, message: string): never => {
  throw new ProtoJsonFailure(typeof node === 'number' ? node : node.at, message);
};

/** A ByteWriter as protobuf-scalars' writer. */
function scalarWriter(w: ByteWriter): ScalarWriter {
  return {
    byte: (b) => w.byte(b),
    varint: (n) => w.varint(BigInt(n)),
    varint64: (n) => w.varint(BigInt.asUintN(64, n)),
    double: (x) => {
      const b = new Uint8Array(8);
      new DataView(b.buffer).setFloat64(0, x, true);
      w.bytes(b);
    },
    bytes: (b) => {
      w.varint(BigInt(b.length));
      w.bytes(b);
    },
    raw: (b) => w.bytes(b),
  };
}

function tag(w: ByteWriter, field: number, wire: number): void {
  w.varint((BigInt(field) << 3n) | BigInt(wire));
}

/** A LEN field: its tag, the length of `inner`'s bytes, the bytes. */
function lengthDelimited(w: ByteWriter, field: number, inner: ByteWriter): void {
  tag(w, field, 2);
  w.varint(BigInt(inner.size));
  w.bytes(inner.result());
}

const SCALARS = new Set(Object.keys(WIRE));
const INTEGER_TYPES = new Set([
  'int32',
  'int64',
  'uint32',
  'uint64',
  'sint32',
  'sint64',
  'fixed32',
  'fixed64',
  'sfixed32',
  'sfixed64',
]);
const WRAPPERS: Readonly<Record<string, ProtoScalar>> = {
  'google.protobuf.DoubleValue': 'double',
  'google.protobuf.FloatValue': 'float',
  'google.protobuf.Int64Value': 'int64',
  'google.protobuf.UInt64Value': 'uint64',
  'google.protobuf.Int32Value': 'int32',
  'google.protobuf.UInt32Value': 'uint32',
  'google.protobuf.BoolValue': 'bool',
  'google.protobuf.StringValue': 'string',
  'google.protobuf.BytesValue': 'bytes',
};

const lowerCamel = (name: string): string => name.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

class ProtoJsonEncoder {
  constructor(private readonly root: protobuf.Root) {}

  message(w: ByteWriter, type: protobuf.Type, node: JsonNode): void {
    const name = type.fullName.replace(/^\./, '');
    if (name in WRAPPERS) return this.singular(w, 1, WRAPPERS[name], null, node, false);
    switch (name) {
      case 'google.protobuf.Timestamp':
        return this.timestamp(w, node);
      case 'google.protobuf.Duration':
        return this.duration(w, node);
      case 'google.protobuf.Struct':
        return this.struct(w, type, node);
      case 'google.protobuf.Value':
        return this.value(w, type, node);
      case 'google.protobuf.ListValue':
        return this.listValue(w, type, node);
      case 'google.protobuf.FieldMask':
        return this.fieldMask(w, node);
      case 'google.protobuf.Any':
        return this.any(w, node);
    }
    if (node.kind !== 'object') return fail(node, `${name} is written as a JSON object, not ${describe(node)}`);
    this.fields(
      w,
      type,
      node.entries.filter((e) => e.value.kind !== 'null' || isValueType(this.fieldOf(type, e.key))),
    );
  }

  private fieldOf(type: protobuf.Type, key: string): protobuf.Field | null {
    for (const f of type.fieldsArray) {
      const json = (f.options as Record<string, unknown> | undefined)?.json_name as string | undefined;
      if (key === f.name || key === (json ?? lowerCamel(f.name))) return f;
    }
    return null;
  }

  private fields(
    w: ByteWriter,
    type: protobuf.Type,
    entries: readonly { key: string; keyAt: number; value: JsonNode }[],
  ): void {
    const chosen: { field: protobuf.Field; node: JsonNode }[] = [];
    const oneofs = new Map<string, string>();
    for (const e of entries) {
      const field = this.fieldOf(type, e.key);
      if (!field) return fail(e.keyAt, `${type.name} has no field ${JSON.stringify(e.key)}`);
      if (chosen.some((c) => c.field === field)) return fail(e.keyAt, `field ${field.name} is given twice`);
      const oneof =
        field.partOf && !(field.options as Record<string, unknown> | undefined)?.proto3_optional
          ? field.partOf.name
          : null;
      if (oneof) {
        const other = oneofs.get(oneof);
        if (other) return fail(e.keyAt, `${field.name} and ${other} are members of one oneof (${oneof}): give one`);
        oneofs.set(oneof, field.name);
      }
      field.resolve();
      chosen.push({ field, node: e.value });
    }
    chosen.sort((a, b) => a.field.id - b.field.id);
    for (const { field, node } of chosen) this.field(w, field, node);
  }

  private field(w: ByteWriter, field: protobuf.Field, node: JsonNode): void {
    if (field instanceof protobuf.MapField) return this.map(w, field, node);
    const resolved = field.resolvedType;
    if (field.repeated) {
      if (node.kind !== 'array') return fail(node, `${field.name} is repeated: a JSON array, not ${describe(node)}`);
      const scalar =
        resolved instanceof protobuf.Enum ? 'int32' : SCALARS.has(field.type) ? (field.type as ProtoScalar) : null;
      if (scalar && field.packed && scalar !== 'string' && scalar !== 'bytes') {
        if (!node.items.length) return;
        const inner = new ByteWriter();
        for (const item of node.items)
          writeScalarValue(scalarWriter(inner), scalar, this.scalarOf(scalar, resolved, item, field));
        lengthDelimited(w, field.id, inner);
        return;
      }
      for (const item of node.items) {
        if (item.kind === 'null' && !isValueType(field)) return fail(item, `${field.name} cannot hold null`);
        this.one(w, field, item, true);
      }
      return;
    }
    this.one(w, field, node, field.hasPresence || resolved instanceof protobuf.Type);
  }

  /** One value of a field: a message (length-delimited) or a scalar / enum. */
  private one(w: ByteWriter, field: protobuf.Field, node: JsonNode, present: boolean): void {
    const resolved = field.resolvedType;
    if (resolved instanceof protobuf.Type) {
      const inner = new ByteWriter();
      this.message(inner, resolved, node);
      lengthDelimited(w, field.id, inner);
      return;
    }
    const scalar = resolved instanceof protobuf.Enum ? 'int32' : (field.type as ProtoScalar);
    if (!SCALARS.has(scalar)) return fail(node, `field ${field.name}: type ${field.type} cannot be encoded`);
    this.singular(w, field.id, scalar, field, node, present);
  }

  private singular(
    w: ByteWriter,
    id: number,
    scalar: ProtoScalar,
    field: protobuf.Field | null,
    node: JsonNode,
    present: boolean,
  ): void {
    const v = this.scalarOf(scalar, field?.resolvedType ?? null, node, field);
    if (!present && isDefault(v)) return;
    tag(w, id, WIRE[scalar]);
    writeScalarValue(scalarWriter(w), scalar, v);
  }

  /** A JSON value as protobuf-scalars' value of `scalar` (an enum's number for an enum). */
  private scalarOf(
    scalar: ProtoScalar,
    resolved: protobuf.ReflectionObject | null,
    node: JsonNode,
    field: { readonly name: string; readonly type: string } | null,
  ): unknown {
    const what = field ? `${field.name} (${field.type})` : scalar;
    if (resolved instanceof protobuf.Enum) {
      if (node.kind === 'string') {
        const n = Object.hasOwn(resolved.values, node.value) ? resolved.values[node.value] : undefined;
        if (n === undefined) return fail(node, `${JSON.stringify(node.value)} is not a value of enum ${resolved.name}`);
        return n;
      }
      if (node.kind === 'null' && resolved.fullName === '.google.protobuf.NullValue') return 0;
    }
    let v: unknown;
    if (INTEGER_TYPES.has(scalar) || resolved instanceof protobuf.Enum) {
      const text = node.kind === 'number' ? node.text : node.kind === 'string' ? node.value : null;
      if (text === null) return fail(node, `${what} takes an integer, not ${describe(node)}`);
      v = integerOf(text);
      if (v === null) return fail(node, `${what} takes an integer, not ${JSON.stringify(text)}`);
      if (scalar.endsWith('32') || scalar === 'int32') v = Number(v);
    } else if (scalar === 'double' || scalar === 'float') {
      if (node.kind === 'number') v = Number(node.text);
      else if (node.kind === 'string' && /^(NaN|-?Infinity|-?\d+(\.\d+)?([eE][+-]?\d+)?)$/.test(node.value))
        v = Number(node.value);
      else return fail(node, `${what} takes a number, not ${describe(node)}`);
      if (scalar === 'float' && Number.isFinite(v as number) && !Number.isFinite(Math.fround(v as number)))
        return fail(node, `${v} is beyond a float's range`);
    } else if (scalar === 'bool') {
      if (node.kind !== 'bool') return fail(node, `${what} takes true or false, not ${describe(node)}`);
      v = node.value;
    } else if (scalar === 'string') {
      if (node.kind !== 'string') return fail(node, `${what} takes a string, not ${describe(node)}`);
      v = node.value;
    } else {
      if (node.kind !== 'string') return fail(node, `${what} takes base64 text, not ${describe(node)}`);
      const b = decodeBase64(node.value);
      if (!b.ok) return fail(node.at + 1 + b.offset, `${what}: ${b.error}`);
      v = b.bytes;
    }
    if (!holds(scalar, v))
      return fail(node, `${what} cannot hold ${typeof v === 'object' ? 'these bytes' : String(v)}`);
    return v;
  }

  private map(w: ByteWriter, field: protobuf.MapField, node: JsonNode): void {
    if (node.kind !== 'object') return fail(node, `${field.name} is a map: a JSON object, not ${describe(node)}`);
    const keyType = field.keyType as ProtoScalar;
    for (const e of node.entries) {
      const inner = new ByteWriter();
      const keyNode: JsonNode =
        keyType === 'bool'
          ? e.key === 'true' || e.key === 'false'
            ? { kind: 'bool', at: e.keyAt, value: e.key === 'true' }
            : fail(e.keyAt, `a map<bool, …> key is "true" or "false", not ${JSON.stringify(e.key)}`)
          : keyType === 'string'
            ? { kind: 'string', at: e.keyAt, value: e.key }
            : { kind: 'string', at: e.keyAt, value: e.key };
      this.singular(inner, 1, keyType, null, keyNode, true);
      const resolved = field.resolvedType;
      if (resolved instanceof protobuf.Type) {
        const value = new ByteWriter();
        this.message(value, resolved, e.value);
        lengthDelimited(inner, 2, value);
      } else {
        const scalar = resolved instanceof protobuf.Enum ? 'int32' : (field.type as ProtoScalar);
        tag(inner, 2, WIRE[scalar]);
        writeScalarValue(scalarWriter(inner), scalar, this.scalarOf(scalar, resolved, e.value, field));
      }
      lengthDelimited(w, field.id, inner);
    }
  }

  private timestamp(w: ByteWriter, node: JsonNode): void {
    const m =
      node.kind === 'string'
        ? /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/.exec(node.value)
        : null;
    if (!m) return fail(node, 'a Timestamp is an RFC 3339 string such as "1972-01-01T10:00:20.021Z"');
    const date = new Date(0);
    date.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
    date.setUTCHours(Number(m[4]), Number(m[5]), Number(m[6]), 0);
    let seconds = BigInt(date.getTime() / 1000);
    if (m[8] !== 'Z') {
      const sign = m[8][0] === '-' ? -1n : 1n;
      seconds -= sign * BigInt(Number(m[8].slice(1, 3)) * 3600 + Number(m[8].slice(4, 6)) * 60);
    }
    this.secondsNanos(w, seconds, Number((m[7] ?? '').padEnd(9, '0')));
  }

  private duration(w: ByteWriter, node: JsonNode): void {
    const m = node.kind === 'string' ? /^(-?)(\d+)(?:\.(\d{1,9}))?s$/.exec(node.value) : null;
    if (!m) return fail(node, 'a Duration is a string of seconds such as "1.5s"');
    const sign = m[1] ? -1 : 1;
    const seconds = BigInt(m[2]) * BigInt(sign);
    this.secondsNanos(w, seconds, sign * Number((m[3] ?? '').padEnd(9, '0')));
  }

  private secondsNanos(w: ByteWriter, seconds: bigint, nanos: number): void {
    if (seconds !== 0n) {
      tag(w, 1, 0);
      w.varint(BigInt.asUintN(64, seconds));
    }
    if (nanos !== 0) {
      tag(w, 2, 0);
      w.varint(BigInt.asUintN(64, BigInt(nanos)));
    }
  }

  private struct(w: ByteWriter, type: protobuf.Type, node: JsonNode): void {
    if (node.kind !== 'object') return fail(node, `a Struct is a JSON object, not ${describe(node)}`);
    // By number: protobufjs' bundled well-known types name their fields in camelCase.
    const fields = type.fieldsById[1];
    fields.resolve();
    this.map(w, fields as unknown as protobuf.MapField, node);
  }

  private value(w: ByteWriter, type: protobuf.Type, node: JsonNode): void {
    const f = (id: number) => {
      const field = type.fieldsById[id];
      field.resolve();
      return field;
    };
    switch (node.kind) {
      case 'null':
        tag(w, 1, 0);
        return w.varint(0n);
      case 'number':
        tag(w, 2, 1);
        return scalarWriter(w).double(Number(node.text));
      case 'string':
        return this.singular(w, 3, 'string', null, node, true);
      case 'bool':
        return this.singular(w, 4, 'bool', null, node, true);
      case 'object':
        return this.one(w, f(5), node, true);
      case 'array':
        return this.one(w, f(6), node, true);
    }
  }

  private listValue(w: ByteWriter, type: protobuf.Type, node: JsonNode): void {
    if (node.kind !== 'array') return fail(node, `a ListValue is a JSON array, not ${describe(node)}`);
    const values = type.fieldsById[1];
    values.resolve();
    for (const item of node.items) this.one(w, values, item, true);
  }

  private fieldMask(w: ByteWriter, node: JsonNode): void {
    if (node.kind !== 'string') return fail(node, 'a FieldMask is a string of comma-separated paths');
    if (!node.value) return;
    for (const path of node.value.split(',')) {
      const snake = path.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
      this.singular(w, 1, 'string', null, { kind: 'string', at: node.at, value: snake }, true);
    }
  }

  private any(w: ByteWriter, node: JsonNode): void {
    if (node.kind !== 'object') return fail(node, `an Any is a JSON object with "@type", not ${describe(node)}`);
    const typeEntry = node.entries.find((e) => e.key === '@type');
    if (typeEntry?.value.kind !== 'string')
      return fail(node, 'an Any needs "@type": "type.googleapis.com/pkg.Message"');
    const url = typeEntry.value.value;
    const name = url.slice(url.lastIndexOf('/') + 1);
    const found = this.root.lookup(name);
    if (!(found instanceof protobuf.Type)) return fail(typeEntry.value, `${name} is not a message type of the schema`);
    const rest = node.entries.filter((e) => e !== typeEntry);
    const inner = new ByteWriter();
    const special = found.fullName.startsWith('.google.protobuf.') && found.name !== 'Empty';
    if (special) {
      const value = rest.find((e) => e.key === 'value');
      if (!value) return fail(node, `an Any of ${name} holds its JSON form under "value"`);
      this.message(inner, found, value.value);
    } else this.message(inner, found, { kind: 'object', at: node.at, entries: rest });
    this.singular(w, 1, 'string', null, { kind: 'string', at: typeEntry.value.at, value: url }, false);
    if (inner.size) {
      lengthDelimited(w, 2, inner);
    }
  }
}

/** A field whose type takes JSON null as a value (google.protobuf.Value, NullValue). */
function isValueType(field: protobuf.Field | null): boolean {
  if (!field) return false;
  field.resolve();
  const name = field.resolvedType?.fullName;
  return name === '.google.protobuf.Value' || name === '.google.protobuf.NullValue';
}

function isDefault(v: unknown): boolean {
  if (typeof v === 'number') return v === 0 && !Object.is(v, -0);
  if (typeof v === 'bigint') return v === 0n;
  if (typeof v === 'string') return v === '';
  if (typeof v === 'boolean') return !v;
  return v instanceof Uint8Array && v.length === 0;
}

/** `"123"`, `-4`, `1e3` (integral) → a bigint; null when not an integer. */
function integerOf(text: string): bigint | null {
  if (/^-?\d+$/.test(text)) return BigInt(text);
  const n = Number(text);
  if (text.trim() === '' || !Number.isSafeInteger(n)) return null;
  return BigInt(n);
}

function describe(node: JsonNode): string {
  return node.kind === 'null' ? 'null' : node.kind === 'bool' ? String(node.value) : `a JSON ${node.kind}`;
}
