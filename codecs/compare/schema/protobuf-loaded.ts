/**
 * A loaded `.proto` text (issue 16 §3: "compare against the real schema too") → the
 * ProtoMessage our encoder writes. protobufjs only parses here (its parser is plain code;
 * its encoders, which generate code with `new Function`, are not used). Field names are
 * kept as written (`keepCase`), so they match the frames' JSON keys.
 */
import protobuf from 'protobufjs';
import type { ProtoField, ProtoMessage, ProtoScalar } from './protobuf-shape.js';

const SCALARS: Record<string, ProtoScalar> = {
  bool: 'bool',
  string: 'string',
  bytes: 'bytes',
  int32: 'int32',
  int64: 'int64',
  // Same varint on the wire for the non-negative values they hold.
  uint32: 'int64',
  uint64: 'int64',
  double: 'double',
};

/** The message `messageName` (default: the first message of the file), or why it cannot be used. */
export function loadProto(text: string, messageName?: string): ProtoMessage | { readonly error: string } {
  let root: protobuf.Root;
  try {
    root = protobuf.parse(text, { keepCase: true }).root;
  } catch (e) {
    return { error: `the .proto does not parse: ${(e as Error).message}` };
  }
  const types: protobuf.Type[] = [];
  const walk = (ns: protobuf.NamespaceBase): void => {
    for (const n of ns.nestedArray) {
      if (n instanceof protobuf.Type) types.push(n);
      if (n instanceof protobuf.Namespace || n instanceof protobuf.Type) walk(n as protobuf.NamespaceBase);
    }
  };
  walk(root);
  const top = messageName ? types.find((t) => t.name === messageName || t.fullName.replace(/^\./, '') === messageName) : types[0];
  if (!top) return { error: messageName ? `no message ${messageName} in the .proto (it has ${types.map((t) => t.name).join(', ') || 'none'})` : 'the .proto has no message' };
  const built = new Map<protobuf.Type, ProtoMessage>();
  try {
    return build(top, built);
  } catch (e) {
    return { error: (e as Error).message };
  }
}

function build(t: protobuf.Type, built: Map<protobuf.Type, ProtoMessage>): ProtoMessage {
  const done = built.get(t);
  if (done) return done;
  const fields: ProtoField[] = [];
  const message: ProtoMessage = { name: t.name, fields };
  built.set(t, message);
  for (const f of t.fieldsArray) {
    f.resolve();
    if (f.map) throw new Error(`field ${t.name}.${f.name}: map fields are not supported by wirescope's Protobuf encoder yet`);
    let type: ProtoScalar | ProtoMessage;
    if (f.resolvedType instanceof protobuf.Type) type = build(f.resolvedType, built);
    else if (f.resolvedType instanceof protobuf.Enum) type = 'int32';
    else if (SCALARS[f.type]) type = SCALARS[f.type];
    else throw new Error(`field ${t.name}.${f.name}: type ${f.type} is not supported by wirescope's Protobuf encoder yet (bool, string, bytes, int32, int64, uint32, uint64, double, enums, messages)`);
    const proto3Optional = Boolean((f.options as Record<string, unknown> | undefined)?.proto3_optional) || Boolean(f.partOf);
    fields.push({ name: f.name, number: f.id, type, repeated: f.repeated, optional: proto3Optional });
  }
  return message;
}
