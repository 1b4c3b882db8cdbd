/**
 * Avro as a session schema codec: a schema inferred from the frames
 * (avro-schema.ts: the decisions avsc's `Type.forValue` / `forTypes` made) and wirescope's
 * own binary encoder (avro-binary.ts). No code generation and no Node modules, so it runs
 * in the browser's worker as in the CLI (it was avsc's, CLI only: avsc needs Node's `util`
 * and compiles record types with `new Function`; avsc stays a test dependency, the oracle).
 */
import { decodeAvro, encodeAvro } from './avro-binary.js';
import { avroMismatch, inferAvroSchema, isStackOverflow, schemaJson, whyNoAvroType } from './avro-schema.js';
import { unsupportedCodec, type SchemaCodec } from './schema-codec.js';

export { AVRO_SAMPLE } from './avro-schema.js';

const utf8 = new TextEncoder();

/** `values[i]` undefined = frame i did not decode (left out of inference). */
export function inferredAvroCodec(values: readonly unknown[]): SchemaCodec {
  const label = 'Avro (inferred)';
  // Frames the inference's last round already found fitting `type`: encode does not check them again.
  const fits = new WeakSet<object>();
  const type = inferAvroSchema(values, fits);
  if (!type) {
    // No frame has a type: each frame says what in it has none (not just "no frame has an Avro type").
    const why = 'no frame has an Avro type';
    return { ...unsupportedCodec('avro', label, why), encode: (value) => ({ mismatch: whyNoAvroType(value) ?? why }) };
  }
  const text = JSON.stringify(schemaJson(type));
  return {
    name: 'avro',
    label,
    schemaText: text,
    schemaBytes: utf8.encode(text).length,
    unsupported: null,
    encode: (value) => {
      try {
        const why = typeof value === 'object' && value !== null && fits.has(value) ? null : avroMismatch(type, value);
        return why === null ? encodeAvro(type, value) : { mismatch: why };
      } catch (e) {
        // The checker and the encoder recurse per level, as avsc's did.
        if (isStackOverflow(e)) return { mismatch: 'nested too deep for a recursive encoder (stack overflow)' };
        throw e;
      }
    },
    decode: (bytes) => decodeAvro(type, bytes),
  };
}

/** The name the CLI and tests import. */
export const avroCodec = inferredAvroCodec;
