/**
 * Edit a decoded value and re-encode it in the frame's own format, byte-exact when nothing
 * was changed (README "Edit and re-encode"). Pure TypeScript: the panel, the inspector and
 * the CLI call it alike.
 */
import type { LoadedSchema } from '../protobuf/schema/load.js';
import { cborFromEdn } from './cbor-from-edn.js';
import { type EditResult, editError } from './edit-error.js';
import { jsonFromText, jsonProblem } from './json-text.js';
import { msgpackFromText } from './msgpack-from-text.js';
import { protobufFromJson } from './protobuf-from-json.js';

export { byteChangeSummary, type ByteChangeSummary, type ChangedRange } from './byte-diff.js';
export { cborFromEdn } from './cbor-from-edn.js';
export { type EditError, type EditResult, editError, editErrorText, lineColumn } from './edit-error.js';
export {
  FRAMINGS,
  type FramingName,
  framedFromText,
  framedSource,
  type InnerNotation,
  innerBytes,
  isFramingName,
} from './framing/index.js';
export { bytesFromHex, hexText } from './hex-text.js';
export { jsonFromText } from './json-text.js';
export { msgpackEditText } from './msgpack-edit-text.js';
export { msgpackFromText } from './msgpack-from-text.js';
export { protobufFromJson } from './protobuf-from-json.js';
export { type RawField, rawProtobuf, type RawProtobufResult } from './protobuf-raw.js';

export type EditFormat = 'cbor' | 'msgpack' | 'json' | 'protobuf';
/** How the edit is written: EDN (CBOR's diagnostic notation, MessagePack's edit text) or JSON. */
export type EditSyntax = 'edn' | 'json';

export const EDIT_FORMATS: readonly EditFormat[] = ['cbor', 'msgpack', 'json', 'protobuf'];

/** The syntax a format's edit is written in unless told: EDN for CBOR and MessagePack, JSON otherwise. */
export function defaultSyntax(format: EditFormat): EditSyntax {
  return format === 'cbor' || format === 'msgpack' ? 'edn' : 'json';
}

export interface EncodeEditOptions {
  readonly from?: EditSyntax;
  /** Protobuf: the loaded schema and the message type. */
  readonly schema?: LoadedSchema;
  readonly type?: string;
}

/**
 * The bytes of an edit text in `format`. JSON given for CBOR or MessagePack must be strict
 * JSON, then encodes as the EDN it also is (so `1.0` is a float, `1` an integer). A
 * combination that cannot be (`json` from EDN, Protobuf without a schema) is an error at 1:1.
 */
export function encodeEdit(format: EditFormat, text: string, options: EncodeEditOptions = {}): EditResult {
  const from = options.from ?? defaultSyntax(format);
  if (from === 'json' && format !== 'json' && format !== 'protobuf') {
    const problem = jsonProblem(text);
    if (problem) return { ok: false, error: editError(text, problem.offset, problem.message) };
  }
  switch (format) {
    case 'cbor':
      return cborFromEdn(text);
    case 'msgpack':
      return msgpackFromText(text);
    case 'json':
      if (from !== 'json') return { ok: false, error: editError(text, 0, 'a JSON frame is edited as JSON text') };
      return jsonFromText(text);
    case 'protobuf':
      if (from !== 'json') return { ok: false, error: editError(text, 0, 'a Protobuf frame is edited as proto3 JSON') };
      if (!options.schema || !options.type)
        return { ok: false, error: editError(text, 0, 'a Protobuf edit needs the schema and its message type') };
      return protobufFromJson(options.schema, options.type, text);
  }
}
