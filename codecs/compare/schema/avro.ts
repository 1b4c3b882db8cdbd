/**
 * Avro via avsc (issue 16 §3): a schema inferred per frame with `Type.forValue` and merged
 * across frames with `Type.forTypes` (records merged field by field, a field missing from
 * some frames becomes a union with null, differing types become unions). Inference runs
 * on a sample of the frames, then every frame is checked against the schema; frames that
 * do not fit are merged in and the schema rebuilt (a few rounds), and what still does not
 * fit is reported per frame with avsc's own path.
 *
 * Numbers: avsc's own inference writes non-integers as `float` (32-bit), which loses
 * precision; the hook here chooses int (32-bit), long (safe integers) or double. avsc's
 * long is a JS number: bigints do not fit (reported). Byte strings go in as Buffers.
 *
 * Normalization of a round trip: a record field decodes as null where the frame had no
 * key (its default), records as plain objects, bytes as Uint8Array.
 *
 * avsc compiles record types with `new Function`: where a page's CSP forbids it (MV3
 * extension pages) `inferAvro` returns that reason instead of a schema.
 */
// avsc's types-only entry: its main browser entry also pulls in streams and services.
import avroTypes from 'avsc/etc/browser/avsc-types.js';
import type avsc from 'avsc';

const avro = avroTypes as unknown as Pick<typeof avsc, 'Type'>;
import { Buffer } from 'buffer';
import { isRecord } from '../features.js';

type AvroType = ReturnType<typeof avro.Type.forValue>;

export interface AvroSchema {
  readonly type: AvroType;
  /** The schema as JSON text (what a receiver would need to be given once). */
  readonly text: string;
}

const I32 = 2 ** 31;
/**
 * avsc's long is a JS number written zigzag-encoded (2n or -2n-1): beyond ±2^52 that
 * doubling leaves the safe range and the value comes back changed. Larger integers are
 * inferred as double (exact for safe integers); one met in a long field later is a mismatch.
 */
export const AVSC_LONG_LIMIT = 2 ** 52;

/** True when the value holds an integer avsc's long cannot carry exactly. */
export function hasWideInteger(v: unknown): boolean {
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) >= AVSC_LONG_LIMIT;
  if (Array.isArray(v)) return v.some(hasWideInteger);
  if (isRecord(v)) return Object.keys(v).some((k) => hasWideInteger(v[k]));
  return false;
}

/** The value as avsc takes it: Uint8Array → Buffer (new tree only where needed). */
export function toAvroInput(v: unknown): unknown {
  if (v instanceof Uint8Array) return Buffer.isBuffer(v) ? v : Buffer.from(v.buffer, v.byteOffset, v.length);
  if (Array.isArray(v)) return v.map(toAvroInput);
  if (isRecord(v)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) out[k] = toAvroInput(v[k]);
    return out;
  }
  return v;
}

const options = (): Record<string, unknown> => ({
  valueHook: (v: unknown) => {
    if (typeof v !== 'number') return undefined;
    if (Number.isInteger(v) && !Object.is(v, -0)) return avro.Type.forSchema(v >= -I32 && v < I32 ? 'int' : Math.abs(v) < AVSC_LONG_LIMIT ? 'long' : 'double');
    return avro.Type.forSchema('double');
  },
});

/** The type of one frame, or why it has none (bigint, undefined, a function …). */
export function typeOf(value: unknown): AvroType | { readonly mismatch: string } {
  try {
    return avro.Type.forValue(toAvroInput(value) as object, options());
  } catch (e) {
    return { mismatch: `no Avro type for this frame: ${(e as Error).message}` };
  }
}

/** Merges types into one schema (null when there is nothing to merge). */
export function mergeTypes(types: readonly AvroType[]): AvroType | null {
  if (!types.length) return null;
  return avro.Type.forTypes([...types], options());
}

/** Null when the value fits, else the first path avsc rejects and why. */
export function avroMismatch(type: AvroType, input: unknown): string | null {
  let first: string | null = null;
  // noUndeclaredFields: a key the record lacks would otherwise be dropped without a word.
  const ok = type.isValid(input, {
    noUndeclaredFields: true,
    errorHook: (path: string[], any: unknown, t: AvroType) => {
      if (first === null) first = `${path.join('.') || 'the frame'}: ${describe(any)} where the schema has ${JSON.stringify(t.schema())}`.slice(0, 300);
    },
  });
  return ok ? null : (first ?? 'does not fit the schema');
}

const describe = (v: unknown): string => (v === null ? 'null' : v === undefined ? 'undefined (no key)' : Array.isArray(v) ? 'a list' : typeof v === 'bigint' ? `bigint ${v}` : typeof v);

/** Normalizes an avsc decode result: records as plain objects, Buffers as Uint8Array. */
export function fromAvroOutput(v: unknown): unknown {
  if (v instanceof Uint8Array) return new Uint8Array(v.buffer.slice(v.byteOffset, v.byteOffset + v.length));
  if (Array.isArray(v)) return v.map(fromAvroOutput);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) out[k] = fromAvroOutput((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}

export function schemaOf(type: AvroType): AvroSchema {
  return { type, text: JSON.stringify(type.schema()) };
}
