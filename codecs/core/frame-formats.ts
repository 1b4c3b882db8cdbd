/**
 * The formats with a span walker, in the order pickers list them: the three data formats,
 * text, Protobuf, the framing protocols and json-joy's two binary CRDT formats (structural
 * binary models, binary patches). The one list: `FormatName` is its union, the CLI checks
 * `--format` against it and the inspector's format filter offers it.
 */
export const FRAME_FORMATS = [
  'cbor',
  'msgpack',
  'json',
  'ndjson',
  'text',
  'protobuf',
  'socketio',
  'mqtt',
  'stomp',
  'phoenix',
  'signalr',
  'sockjs',
  'media',
  'crdt-model',
  'crdt-patch',
  'yjs',
  'automerge',
] as const;
