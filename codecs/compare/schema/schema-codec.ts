/**
 * What a session schema codec is (schema-codecs.ts builds them): a schema built once for
 * the whole selection, then frame by frame bytes or a mismatch saying why not.
 */
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
