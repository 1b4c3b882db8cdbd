/**
 * The schema codecs of a session comparison (issue 16 §3): Avro (avsc) and Protobuf
 * inferred from the session's frames, and Protobuf with a loaded `.proto`. Each is built
 * once for the whole selection, then encodes frame by frame; a frame the schema cannot
 * hold comes back as a mismatch (the session lists it, it is never dropped silently).
 *
 * The schema's own size (what a receiver must be given once) is reported apart from the
 * messages: `.proto` text / Avro JSON schema as UTF-8.
 *
 * Avro lives in avro-codec.ts and is passed in (SessionOptions.avro): avsc needs Node's
 * `util` module, so importing it here would break the browser bundle of the session code.
 */
import { ProtobufInference } from './protobuf-infer.js';
import { loadProto } from './protobuf-loaded.js';
import { printProto, type ProtoMessage } from './protobuf-shape.js';
import { decodeProtobuf, encodeProtobuf } from './protobuf-wire.js';

export type SchemaEncoded = Uint8Array | { readonly mismatch: string };

export interface SchemaCodec {
  readonly name: 'avro' | 'protobuf' | 'protobuf-loaded';
  readonly label: string;
  /** Null when the codec cannot run here (then `unsupported` says why). */
  readonly schemaText: string | null;
  readonly schemaBytes: number;
  readonly unsupported: string | null;
  encode(value: unknown): SchemaEncoded;
  decode(bytes: Uint8Array): unknown;
}

export const SCHEMA_CODEC_NAMES = ['avro', 'protobuf', 'protobuf-loaded'] as const;

const utf8 = new TextEncoder();

/** The Avro row's reason when no Avro codec is passed in. */
/** Why the browser has no Avro row: avsc needs Node's util and compiles its codecs with `new Function`, which extension pages forbid. */
export const AVRO_NOT_LOADED = 'Avro runs in the CLI only (wirescope compare --session): avsc compiles code with new Function, which extension pages forbid';


export function unsupportedCodec(name: SchemaCodec['name'], label: string, why: string): SchemaCodec {
  return {
    name,
    label,
    schemaText: null,
    schemaBytes: 0,
    unsupported: why,
    encode: () => ({ mismatch: why }),
    decode: () => {
      throw new Error(why);
    },
  };
}

function protobufCodec(name: 'protobuf' | 'protobuf-loaded', label: string, message: ProtoMessage, text: string): SchemaCodec {
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
