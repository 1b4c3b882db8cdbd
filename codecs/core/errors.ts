/**
 * The error model of every decoder in wirescope: data, never exceptions. A walker stops
 * at the first fatal error, records it here with the byte offset where the input stopped
 * making sense, and keeps every node it recorded before that.
 */
export type DecodeErrorCode =
  | 'truncated'
  | 'length-exceeds-input'
  | 'reserved-additional-info'
  | 'unexpected-break'
  | 'invalid-indefinite-chunk'
  | 'invalid-simple'
  | 'invalid-utf8'
  | 'trailing-bytes'
  | 'invalid-major-31'
  | 'nesting-too-deep'
  | 'invalid-byte'
  | 'invalid-token'
  | 'invalid-escape'
  | 'invalid-number'
  | 'empty-input'
  | 'unsupported-format'
  /** json-joy: an id whose session is not in the clock table, or beyond the clock. */
  | 'invalid-id'
  /** json-joy: two nodes with the same id. */
  | 'duplicate-id'
  /** json-joy: an empty clock table, a repeated session, a time beyond 2^53. */
  | 'invalid-clock'
  /** json-joy: the same key twice in one CRDT object. */
  | 'duplicate-key'
  /** json-joy patches: an opcode json-joy does not define. */
  | 'unknown-opcode'
  /** json-joy frames: well-formed bytes no json-joy encoder writes (used to tell formats apart). */
  | 'implausible'
  /** Protobuf: a tag with field number 0 or beyond 2^29 - 1, or a varint longer than 10 bytes. */
  | 'invalid-tag'
  | 'invalid-varint'
  /** Protobuf: wire type 6 or 7. */
  | 'invalid-wire-type'
  /** Protobuf: an end-group tag without its start, or for another field. */
  | 'unmatched-end-group'
  /** A compressed frame (codecs/nested): inflating it failed, or an earlier frame of its stream is missing. */
  | 'invalid-compressed-data'
  /** A compressed frame inflates past the size or ratio cap (a zip bomb): the offset is in the compressed input. */
  | 'decompressed-too-large'
  | 'internal';

export interface DecodeError {
  readonly code: DecodeErrorCode;
  /** Absolute byte offset in the frame where decoding failed. */
  readonly offset: number;
  readonly message: string;
}

export type DecodeWarningCode =
  | 'duplicate-key'
  | 'non-canonical'
  | 'lone-surrogate'
  | 'deprecated-group'
  /** CBOR: a registered tag whose content is not what the tag requires (codecs/cbor/tag-validity.ts). */
  | 'invalid-tag-content'
  /** MessagePack: a str whose bytes are not valid UTF-8 (kept, marked Flag.invalidUtf8). */
  | 'invalid-utf8'
  /** MessagePack: a timestamp extension (type -1) of a length or nanoseconds the spec does not allow. */
  | 'invalid-timestamp'
  /** Protobuf with a schema: a message nested deeper than the walker's limit, kept as bytes. */
  | 'nesting-too-deep'
  /** A protocol's field of the wrong shape (a Nostr event id that is not 32 bytes of hex). */
  | 'invalid-field';

export interface DecodeWarning {
  readonly code: DecodeWarningCode;
  readonly offset: number;
  readonly message: string;
  /** The node the warning is about, or -1 when the walk validated it without recording it (beyond an index's depth). */
  readonly node: number;
}

export function decodeError(code: DecodeErrorCode, offset: number, message: string): DecodeError {
  return { code, offset, message: `${message} at byte ${offset}` };
}
