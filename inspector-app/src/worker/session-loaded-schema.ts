/**
 * The session comparison's loaded-`.proto` row in the inspector (as the CLI's
 * `compare --session --proto`): with `.proto` files loaded, the session's binary frames are
 * written back with the real schema, as the type most of them are read as in the list
 * (a connection's chosen type, else its best fit: `ProtobufSchemas.decode`). The type rule
 * (loaded-proto-type.ts), the schema's text (schema-text.ts) and the codec
 * (schema-codecs.ts `loadedSchemaCodec`) are the CLI's, so the same frames and files give
 * the CLI's figures. No row when no frame is read with the schema (none loaded, every
 * connection 'raw', or no type reads a frame whole).
 */
import type { SchemaCodec } from '../../../codecs/compare/schema/schema-codec.js';
import { likeliestType } from '../../../codecs/compare/session/loaded-proto-type.js';
import type { IngestFrame } from './api.js';
import type { ProtobufSchemas } from './protobuf-schemas.js';

/** Each binary frame's type as the list reads it (asked lazily: only the first few are read). */
function* listTypes(schemas: ProtobufSchemas, frames: readonly IngestFrame[]): Generator<string | null> {
  for (const f of frames) if (f.opcode === 'binary') yield schemas.decode(f)?.type ?? null;
}

export async function loadedSchemaCodecFor(
  schemas: ProtobufSchemas,
  frames: readonly IngestFrame[],
): Promise<SchemaCodec | null> {
  const source = schemas.source();
  if (!source) return null;
  const chosen = likeliestType(source.schema.messageTypes, listTypes(schemas, frames));
  if (!chosen || chosen.count === 0) return null;
  // Loaded with the session's codecs (a lazy chunk), not with the decode worker.
  const { loadedSchemaCodec } = await import('../../../codecs/compare/schema/schema-codecs.js');
  return loadedSchemaCodec(source.schema, chosen.type, source.text);
}
