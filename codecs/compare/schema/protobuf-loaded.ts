/**
 * A loaded `.proto` ("compare against the real schema too") → the ProtoMessage
 * our encoder writes. The schema is loaded as `inspect --proto` and the inspector load it
 * (codecs/protobuf/schema/load.ts: imports among the files given, the well-known
 * `google/protobuf/*` types built in); protobufjs only parses (its encoders, which generate
 * code with `new Function`, are not used). Field names are kept as written (`keepCase`), so
 * they match the frames' keys, and values are what a schema reading gives: enums by name,
 * maps as objects, 64-bit integers as numbers or bigints.
 */
import protobuf from 'protobufjs';
import { loadSchema, lookupMessage, type LoadedSchema } from '../../protobuf/schema/load.js';
import type { ProtoEnum, ProtoField, ProtoMessage, ProtoScalar } from './protobuf-shape.js';

const SCALARS: ReadonlySet<string> = new Set<ProtoScalar>([
  'bool',
  'string',
  'bytes',
  'int32',
  'int64',
  'uint32',
  'uint64',
  'sint32',
  'sint64',
  'double',
  'float',
  'fixed32',
  'fixed64',
  'sfixed32',
  'sfixed64',
]);

/** One `.proto` text (imports other than the well-known types cannot resolve): the message `messageName`, default the first. */
export function loadProto(text: string, messageName?: string): ProtoMessage | { readonly error: string } {
  const loaded = loadSchema([{ name: 'schema.proto', source: text }]);
  if (!loaded.ok) return { error: `the .proto does not parse or resolve: ${loaded.error}` };
  const name = messageName ?? loaded.schema.messageTypes[0];
  if (!name) return { error: 'the .proto has no message' };
  return protoMessageOf(loaded.schema, name);
}

/** The message `name` of a loaded schema as our encoder's description, or why it cannot be used. */
export function protoMessageOf(schema: LoadedSchema, name: string): ProtoMessage | { readonly error: string } {
  const top = lookupMessage(schema, name);
  if (!top) return { error: `no message ${name} in the .proto (it has ${schema.messageTypes.join(', ') || 'none'})` };
  try {
    return build(top, { messages: new Map(), enums: new Map() });
  } catch (e) {
    return { error: (e as Error).message };
  }
}

function enumOf(e: protobuf.Enum, enums: Map<protobuf.Enum, ProtoEnum>): ProtoEnum {
  let out = enums.get(e);
  if (!out) {
    const byName = new Map(Object.entries(e.values));
    const byNumber = new Map<number, string>();
    // The first name of a number (allow_alias), as protobufjs' decoding names it.
    for (const [k, v] of byName) if (!byNumber.has(v)) byNumber.set(v, k);
    enums.set(e, (out = { name: e.fullName.replace(/^\./, ''), byName, byNumber }));
  }
  return out;
}

/** What one description has built so far: each message and enum once (messages may recurse). */
interface Built {
  readonly messages: Map<protobuf.Type, ProtoMessage>;
  readonly enums: Map<protobuf.Enum, ProtoEnum>;
}

/** A field's type: a scalar, a message (built once, recursion allowed) or an enum (int32 with names). */
function typeOf(
  owner: string,
  fieldName: string,
  type: string,
  resolved: protobuf.ReflectionObject | null,
  built: Built,
): { type: ProtoScalar | ProtoMessage; enum?: ProtoEnum } {
  if (resolved instanceof protobuf.Type) return { type: build(resolved, built) };
  if (resolved instanceof protobuf.Enum) return { type: 'int32', enum: enumOf(resolved, built.enums) };
  if (SCALARS.has(type)) return { type: type as ProtoScalar };
  throw new Error(`field ${owner}.${fieldName}: type ${type} is not supported by wirescope's Protobuf encoder`);
}

function build(t: protobuf.Type, built: Built): ProtoMessage {
  const done = built.messages.get(t);
  if (done) return done;
  const fields: ProtoField[] = [];
  const message: ProtoMessage = { name: t.name, fields };
  built.messages.set(t, message);
  for (const f of t.fieldsArray) {
    f.resolve();
    // A oneof member and proto3 `optional` have explicit presence: written even when default.
    const optional = Boolean((f.options as Record<string, unknown> | undefined)?.proto3_optional) || Boolean(f.partOf);
    if (f instanceof protobuf.MapField) {
      // An entry writes its key and value always (as protoc and protobufjs do): both optional here.
      const key = typeOf(t.name, `${f.name} key`, f.keyType, null, built);
      const value = typeOf(t.name, `${f.name} value`, f.type, f.resolvedType, built);
      const entry: ProtoMessage = {
        name: `${t.name}.${f.name} entry`,
        fields: [
          { name: 'key', number: 1, type: key.type, repeated: false, optional: true },
          {
            name: 'value',
            number: 2,
            type: value.type,
            repeated: false,
            optional: true,
            ...(value.enum ? { enum: value.enum } : {}),
          },
        ],
      };
      fields.push({ name: f.name, number: f.id, type: entry, repeated: false, optional: false, map: true });
      continue;
    }
    const { type, enum: e } = typeOf(t.name, f.name, f.type, f.resolvedType, built);
    fields.push({ name: f.name, number: f.id, type, repeated: f.repeated, optional, ...(e ? { enum: e } : {}) });
  }
  return message;
}
