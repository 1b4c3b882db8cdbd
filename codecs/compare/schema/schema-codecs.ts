/**
 * The schema codecs of a session comparison (issue 16 §3): Avro (avsc) and Protobuf
 * inferred from the session's frames, and Protobuf with a loaded `.proto`. Each is built
 * once for the whole selection, then encodes frame by frame; a frame the schema cannot
 * hold comes back as a mismatch (the session lists it, it is never dropped silently).
 *
 * The schema's own size (what a receiver must be given once) is reported apart from the
 * messages: `.proto` text / Avro JSON schema as UTF-8.
 */
import { Buffer } from 'buffer';
import { avroMismatch, fromAvroOutput, hasWideInteger, mergeTypes, schemaOf, toAvroInput, typeOf, type AvroSchema } from './avro.js';
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

/** Frames whose types are merged first; the rest are checked and merged in only when they do not fit. */
export const AVRO_SAMPLE = 200;
const AVRO_ROUNDS = 4;
const AVRO_PER_ROUND = 100;

function unsupported(name: SchemaCodec['name'], label: string, why: string): SchemaCodec {
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

/** `values[i]` undefined = frame i did not decode (it is left out of inference). */
export function avroCodec(values: readonly unknown[]): SchemaCodec {
  const label = 'Avro (inferred)';
  let schema: AvroSchema | null;
  try {
    schema = inferAvroSchema(values);
  } catch (e) {
    const message = (e as Error).message;
    if (e instanceof EvalError || /unsafe-eval|Content Security Policy|Function/i.test(message)) return unsupported('avro', label, `avsc compiles record types with new Function, which this page's Content Security Policy forbids (${message})`);
    return unsupported('avro', label, `avsc could not infer a schema: ${message}`);
  }
  if (!schema) return unsupported('avro', label, 'no frame has an Avro type');
  const { type, text } = schema;
  const hasLong = text.includes('"long"');
  return {
    name: 'avro',
    label,
    schemaText: text,
    schemaBytes: utf8.encode(text).length,
    unsupported: null,
    encode: (value) => {
      const input = toAvroInput(value);
      const why = avroMismatch(type, input);
      if (why) return { mismatch: why };
      try {
        const bytes = new Uint8Array(type.toBuffer(input));
        // Rare: an integer beyond ±2^52 in a long field — check it survives (see avro.ts).
        if (hasLong && hasWideInteger(value) && JSON.stringify(fromAvroOutput(type.fromBuffer(Buffer.from(bytes))), jsonSafe) !== JSON.stringify(fromAvroOutput(input), jsonSafe)) return { mismatch: 'an integer beyond ±2^52 in a long field: avsc writes longs as JS numbers, zigzag-encoded, and it would come back changed' };
        return bytes;
      } catch (e) {
        return { mismatch: `avsc could not write it: ${(e as Error).message}` };
      }
    },
    decode: (bytes) => fromAvroOutput(type.fromBuffer(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length))),
  };
}

const jsonSafe = (_k: string, v: unknown): unknown => (v instanceof Uint8Array ? Array.from(v) : v);

function inferAvroSchema(values: readonly unknown[]): AvroSchema | null {
  const types = [];
  let i = 0;
  for (; i < values.length && types.length < AVRO_SAMPLE; i++) {
    if (values[i] === undefined) continue;
    const t = typeOf(values[i]);
    if (!('mismatch' in t)) types.push(t);
  }
  let type = mergeTypes(types);
  if (!type) return null;
  for (let round = 0; round < AVRO_ROUNDS; round++) {
    const extra = [];
    for (let k = 0; k < values.length && extra.length < AVRO_PER_ROUND; k++) {
      if (values[k] === undefined || type.isValid(toAvroInput(values[k]), { noUndeclaredFields: true })) continue;
      const t = typeOf(values[k]);
      if (!('mismatch' in t)) extra.push(t);
    }
    if (!extra.length) break;
    try {
      type = mergeTypes([type, ...extra])!;
    } catch {
      break; // types avsc cannot merge: those frames stay mismatches
    }
  }
  return schemaOf(type);
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
  if (!protoText.trim()) return unsupported('protobuf-loaded', label, 'no .proto loaded');
  const loaded = loadProto(protoText, messageName);
  if ('error' in loaded) return unsupported('protobuf-loaded', label, loaded.error);
  return protobufCodec('protobuf-loaded', label, loaded, protoText);
}
