/**
 * The key-overhead analysis's real numbers: one frame encoded with a schema
 * inferred from that frame — Avro and Protobuf — next to keys.ts's estimate. The
 * schema's own size is given apart (a receiver is sent it once, not per frame).
 */
import { toTarget } from '../convert.js';
import { avroCodec } from './avro-codec.js';
import { inferredProtobufCodec } from './schema-codecs.js';

export interface SchemaActual {
  readonly codec: 'avro' | 'protobuf';
  readonly label: string;
  /** The frame's bytes in this codec; null when it does not fit (see `why`). */
  readonly bytes: number | null;
  readonly schemaBytes: number;
  readonly why: string | null;
}

export function schemaActuals(value: unknown): SchemaActual[] {
  let plain: unknown;
  try {
    plain = toTarget(value, 'json-like');
  } catch (e) {
    return (['avro', 'protobuf'] as const).map((codec) => ({
      codec,
      label: codec === 'avro' ? 'Avro (inferred)' : 'Protobuf (inferred)',
      bytes: null,
      schemaBytes: 0,
      why: (e as Error).message,
    }));
  }
  return [avroCodec([plain]), inferredProtobufCodec([plain])].map((c) => {
    const out = c.encode(plain);
    return {
      codec: c.name as 'avro' | 'protobuf',
      label: c.label,
      bytes: out instanceof Uint8Array ? out.length : null,
      schemaBytes: c.schemaBytes,
      why: out instanceof Uint8Array ? null : out.mismatch,
    };
  });
}
