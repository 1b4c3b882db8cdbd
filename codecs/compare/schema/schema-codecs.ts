/**
 * The schema codecs of a session comparison: Avro and Protobuf inferred from
 * the session's frames (wirescope's own inference and encoders, no code generation: they
 * run in the browser's worker as in the CLI), and Protobuf with a loaded `.proto`. Each is built
 * once for the whole selection, then encodes frame by frame; a frame the schema cannot
 * hold comes back as a mismatch (the session lists it, it is never dropped silently).
 *
 * The schema's own size (what a receiver must be given once) is reported apart from the
 * messages: `.proto` text / Avro JSON schema as UTF-8.
 */
import { unsupportedCodec, type SchemaCodec } from './schema-codec.js';
import { ProtobufInference } from './protobuf-infer.js';
import { loadProto, protoMessageOf } from './protobuf-loaded.js';
import type { LoadedSchema } from '../../protobuf/schema/load.js';
import { printProto, type ProtoMessage } from './protobuf-shape.js';
import { decodeProtobuf, encodeProtobuf } from './protobuf-wire.js';

export { unsupportedCodec, type SchemaCodec, type SchemaEncoded } from './schema-codec.js';
// Avro has its own file so that a bundle of it holds no protobufjs (whose parser brings codegen).
export { inferredAvroCodec } from './avro-codec.js';

export const SCHEMA_CODEC_NAMES = ['avro', 'protobuf', 'protobuf-loaded'] as const;

const utf8 = new TextEncoder();

function protobufCodec(
  name: 'protobuf' | 'protobuf-loaded',
  label: string,
  message: ProtoMessage,
  text: string,
): SchemaCodec {
  return {
    name,
    label,
    schemaText: text,
    schemaBytes: utf8.encode(text).length,
    unsupported: null,
    encode: (value) => encodeProtobuf(message, value),
    decode: (bytes) => decodeProtobuf(message, bytes),
  };
}

export function inferredProtobufCodec(values: readonly unknown[]): SchemaCodec {
  const inference = new ProtobufInference();
  for (const v of values) if (v !== undefined) inference.observe(v);
  const message = inference.schema();
  return protobufCodec('protobuf', 'Protobuf (inferred)', message, printProto(message));
}

export function loadedProtobufCodec(protoText: string, messageName?: string): SchemaCodec {
  const label = `Protobuf (.proto${messageName ? ` ${messageName}` : ''})`;
  if (!protoText.trim()) return unsupportedCodec('protobuf-loaded', label, 'no .proto loaded');
  const loaded = loadProto(protoText, messageName);
  if ('error' in loaded) return unsupportedCodec('protobuf-loaded', label, loaded.error);
  return protobufCodec('protobuf-loaded', label, loaded, protoText);
}

/**
 * The message `messageName` of a schema loaded from several files (`inspect --proto`'s
 * loading: imports among them, the well-known types built in). `schemaText` is what a
 * receiver is given once: the files' text (the well-known types every runtime has).
 */
export function loadedSchemaCodec(schema: LoadedSchema, messageName: string, schemaText: string): SchemaCodec {
  const label = `Protobuf (.proto ${messageName})`;
  const message = protoMessageOf(schema, messageName);
  if ('error' in message) return unsupportedCodec('protobuf-loaded', label, message.error);
  return protobufCodec('protobuf-loaded', label, message, schemaText);
}
