/**
 * `compare --session --proto …`: binary frames read with the loaded schema, as `inspect
 * --proto --type` reads one frame (codecs/protobuf/schema), so every codec re-encodes the
 * message the user sees (field names, enums by name) and the loaded-schema row writes it back
 * with the real `.proto`. A frame the type does not read whole is read by detection as
 * before (a session may mix formats).
 */
import { fitOf, lookupMessage, rankTypes, type LoadedSchema } from '../protobuf/schema/index.js';
import { frameValue } from '../compare/compare.js';
import type { SessionMessage } from '../compare/session/session.js';
import { likeliestType } from '../compare/session/loaded-proto-type.js';

/** The schema `--proto` loaded (proto-schema.ts `readSchema`) and its files' text. */
export interface SessionProto {
  readonly schema: LoadedSchema;
  readonly text: string;
}

/**
 * The message type each binary frame is: `--message` (checked against the schema), else
 * the type that fits most of the first binary frames best (loaded-proto-type.ts, the rule
 * the inspector's session uses too; a note says so).
 */
export function sessionMessageType(
  schema: LoadedSchema,
  messages: readonly SessionMessage[],
  given: string | null,
): { type: string; note: string | null } | { error: string } {
  if (given !== null) {
    return lookupMessage(schema, given)
      ? { type: given, note: null }
      : { error: `--message ${given} is not a message type of the schema (${schema.messageTypes.join(', ')})` };
  }
  const chosen = likeliestType(schema.messageTypes, bestTypes(schema, messages));
  if (!chosen) return { error: 'the schema has no message types' };
  const { type, count, of } = chosen;
  return {
    type,
    note: `--proto without --message: frames read as ${type}, the best fit for ${count} of ${of} binary frame${of === 1 ? '' : 's'} (of ${schema.messageTypes.length} message types)`,
  };
}

/** Each binary frame's best type when it reads the frame whole (ranked only as far as asked). */
function* bestTypes(schema: LoadedSchema, messages: readonly SessionMessage[]): Generator<string | null> {
  for (const m of messages) {
    if (m.opcode !== 2) continue;
    const best = rankTypes(schema, m.data)[0];
    yield best?.whole ? best.type : null;
  }
}

/** The messages, each binary one read as `type` when that reads it whole. */
export function readWithSchema(
  messages: readonly SessionMessage[],
  schema: LoadedSchema,
  type: string,
): SessionMessage[] {
  return messages.map((m) => {
    if (m.opcode !== 2) return m;
    const read = (): unknown => {
      const fit = fitOf(schema, type, m.data);
      if (fit?.whole) return fit.index.value(fit.index.root);
      // Otherwise as the message was read before (read-in-order.ts: a stream message by what it inflated to).
      return m.read ? m.read() : frameValue(m.data, { isText: false, subprotocol: m.subprotocol }).value;
    };
    return { ...m, read };
  });
}
