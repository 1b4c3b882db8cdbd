/**
 * Avro as a session schema codec (issue 16 §3), kept apart from schema-codecs.ts because
 * avsc needs Node's `util` module: Node callers import it directly; a browser bundle can
 * alias 'util' to avsc-util-shim.ts. Passed to compareSession as `SessionOptions.avro`.
 */
import { Buffer } from 'buffer';
import { avroMismatch, fromAvroOutput, hasWideInteger, mergeTypes, schemaOf, toAvroInput, typeOf, type AvroSchema } from './avro.js';
import { unsupportedCodec, type SchemaCodec } from './schema-codecs.js';

const utf8 = new TextEncoder();

/** Frames whose types are merged first; the rest are checked and merged in only when they do not fit. */
export const AVRO_SAMPLE = 200;
const AVRO_ROUNDS = 4;
const AVRO_PER_ROUND = 100;

/** `values[i]` undefined = frame i did not decode (it is left out of inference). */
export function avroCodec(values: readonly unknown[]): SchemaCodec {
  const label = 'Avro (inferred)';
  let schema: AvroSchema | null;
  try {
    schema = inferAvroSchema(values);
  } catch (e) {
    const message = (e as Error).message;
    if (e instanceof EvalError || /unsafe-eval|Content Security Policy|Function/i.test(message)) return unsupportedCodec('avro', label, `avsc compiles record types with new Function, which this page's Content Security Policy forbids (${message})`);
    return unsupportedCodec('avro', label, `avsc could not infer a schema: ${message}`);
  }
  if (!schema) return unsupportedCodec('avro', label, 'no frame has an Avro type');
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

