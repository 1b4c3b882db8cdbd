import protobuf from 'protobufjs';

/**
 * What the schema walker needs of a message type, looked up by field number: a map field's
 * entry is described as a message of its own (key = 1, value = 2), as it is on the wire.
 */
export interface FieldDesc {
  readonly name: string;
  readonly id: number;
  /** The scalar type name (`int32`, `string`, …), `message`, `enum` or `entry` (a map field's entries). */
  readonly type: string;
  readonly repeated: boolean;
  readonly required: boolean;
  /** The message this field holds (message and map entry fields). */
  readonly message: MessageDesc | null;
  readonly enumValues: Readonly<Record<number, string>> | null;
  /** The wire type the field is written with when not packed. */
  readonly wire: number;
  /** A repeated scalar numeric field: it may arrive packed. */
  readonly packable: boolean;
  /** `{ field: this }`, the record every plain node of this field shares (schema/data.ts). */
  readonly shared: { readonly field: FieldDesc };
  /** The oneof the field belongs to (proto3 `optional`'s synthetic oneofs left out), or null. */
  readonly oneof?: string | null;
}

export interface MessageDesc {
  /** Fully qualified, without the leading dot (`google.protobuf.Timestamp`); `entry` for a map entry. */
  readonly fullName: string;
  readonly fields: ReadonlyMap<number, FieldDesc>;
  readonly requiredIds: readonly number[];
  /** The root the type came from, to resolve an Any's type URL. */
  readonly root: protobuf.Root;
}

const cache = new WeakMap<protobuf.Type, MessageDesc>();

export function describeMessage(type: protobuf.Type): MessageDesc {
  const cached = cache.get(type);
  if (cached) return cached;
  const fields = new Map<number, FieldDesc>();
  const desc: MessageDesc = {
    fullName: type.fullName.replace(/^\./, ''),
    fields,
    requiredIds: type.fieldsArray.filter((f) => f.required).map((f) => f.id),
    root: type.root as protobuf.Root,
  };
  // Cached before the fields are filled in: recursive types refer to themselves.
  cache.set(type, desc);
  for (const field of type.fieldsArray) {
    field.resolve();
    if (field instanceof protobuf.MapField) {
      const value = valueDesc(field, 'value', 2, false);
      const entry: MessageDesc = {
        fullName: 'entry',
        fields: new Map([
          [
            1,
            withWire({
              name: 'key',
              id: 1,
              type: field.keyType,
              repeated: false,
              required: false,
              message: null,
              enumValues: null,
            }),
          ],
          [2, value],
        ]),
        requiredIds: [],
        root: desc.root,
      };
      fields.set(
        field.id,
        withWire({
          name: field.name,
          id: field.id,
          type: 'entry',
          repeated: true,
          required: false,
          message: entry,
          enumValues: null,
        }),
      );
    } else {
      const oneof =
        field.partOf && !(field.partOf.fieldsArray.length === 1 && field.partOf.name === `_${field.name}`)
          ? field.partOf.name
          : null;
      const desc = valueDesc(field, field.name, field.id, field.repeated, field.required);
      (desc as { oneof: string | null }).oneof = oneof;
      fields.set(field.id, desc);
    }
  }
  return desc;
}

function valueDesc(field: protobuf.Field, name: string, id: number, repeated: boolean, required = false): FieldDesc {
  const resolved = field.resolvedType;
  if (resolved instanceof protobuf.Type)
    return withWire({
      name,
      id,
      type: 'message',
      repeated,
      required,
      message: describeMessage(resolved),
      enumValues: null,
    });
  if (resolved instanceof protobuf.Enum) {
    const names: Record<number, string> = {};
    for (const [n, v] of Object.entries(resolved.values)) if (!(v in names)) names[v] = n;
    return withWire({ name, id, type: 'enum', repeated, required, message: null, enumValues: names });
  }
  return withWire({ name, id, type: field.type, repeated, required, message: null, enumValues: null });
}

/** The field with its wire type and packability worked out once (the walk reads them per field). */
function withWire(field: Omit<FieldDesc, 'wire' | 'packable' | 'shared'>): FieldDesc {
  const repeatedScalar =
    field.repeated && (VARINT_TYPES.has(field.type) || I32_TYPES.has(field.type) || I64_TYPES.has(field.type));
  const desc = {
    ...field,
    wire: wireTypeOf(field.type),
    packable: repeatedScalar,
    shared: null as unknown as { readonly field: FieldDesc },
  };
  desc.shared = { field: desc };
  return desc;
}

/** Scalar types by wire type: which field types a wire type may carry. */
export const VARINT_TYPES = new Set(['int32', 'int64', 'uint32', 'uint64', 'sint32', 'sint64', 'bool', 'enum']);
export const I32_TYPES = new Set(['fixed32', 'sfixed32', 'float']);
export const I64_TYPES = new Set(['fixed64', 'sfixed64', 'double']);
export const LEN_TYPES = new Set(['string', 'bytes', 'message', 'entry']);

/** The wire type a (non-packed) field of this type is written with. */
export function wireTypeOf(type: string): number {
  if (VARINT_TYPES.has(type)) return 0;
  if (I64_TYPES.has(type)) return 1;
  if (I32_TYPES.has(type)) return 5;
  return 2;
}
