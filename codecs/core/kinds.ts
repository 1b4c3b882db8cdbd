/**
 * Node kinds shared by every format's span index. One small integer per kind keeps the
 * struct-of-arrays store compact; `kindName` is what JSON output and the UI show.
 */
export const Kind = {
  uint: 1,
  nint: 2,
  bytes: 3,
  text: 4,
  array: 5,
  map: 6,
  tag: 7,
  float16: 8,
  float32: 9,
  float64: 10,
  simple: 11,
  false: 12,
  true: 13,
  null: 14,
  undefined: 15,
  /** MessagePack extension (fixext / ext 8/16/32); the timestamp type -1 included. */
  ext: 16,
  /** JSON number text (integer or not: JSON does not say). */
  number: 17,

  // json-joy CRDT frames (codecs/crdt). A model or patch frame is a tree of these; bytes
  // that carry document content are `crdt_content` leaves, everything else is metadata.
  /** The whole model frame: the node tree and, for a logical clock, the clock table. */
  crdt_model: 32,
  /** The whole patch frame: its id, meta and operations. */
  crdt_patch: 33,
  /** The clock table (logical-clock models) or the server time (server-clock models). */
  crdt_clock: 34,
  /** One clock table entry: session id and time. */
  crdt_clock_entry: 35,
  /** An encoded logical timestamp (id) on its own. */
  crdt_id: 36,
  crdt_con: 40,
  crdt_val: 41,
  crdt_obj: 42,
  crdt_vec: 43,
  crdt_str: 44,
  crdt_bin: 45,
  crdt_arr: 46,
  /** One RGA chunk of a str / bin / arr node (live). */
  crdt_chunk: 47,
  /** A deleted RGA chunk: only its id and span remain. */
  crdt_tombstone: 48,
  /** One patch operation. */
  crdt_op: 49,
  /** Content bytes: object keys, string text, binary data, constant values. */
  crdt_content: 50,
  /** Patch meta data (a CBOR value). */
  crdt_meta: 51,

  // Protobuf wire format (codecs/protobuf). A message is a `map` whose keys are field tags;
  // varints are `uint`, length-delimited fields `text`, `bytes`, a nested `map` or a packed
  // `array`, whichever reading fits best.
  /** A field's tag varint (field number and wire type): the key of a message entry. */
  pb_tag: 60,
  /** A 32-bit fixed field (fixed32, sfixed32 or float: the schema says which). */
  pb_i32: 61,
  /** A 64-bit fixed field (fixed64, sfixed64 or double). */
  pb_i64: 62,
  /** A group (wire types 3 and 4, deprecated): a message delimited by start and end tags. */
  pb_group: 63,
} as const;

export type KindName = keyof typeof Kind;
export type KindId = (typeof Kind)[KindName];

const names: string[] = [];
for (const [name, id] of Object.entries(Kind)) names[id] = name;

export function kindName(id: number): KindName {
  return (names[id] ?? 'undefined') as KindName;
}

export function isContainerKind(id: number): boolean {
  return (
    id === Kind.array ||
    id === Kind.map ||
    id === Kind.tag ||
    id === Kind.pb_group ||
    (id >= Kind.crdt_model && id <= Kind.crdt_meta && id !== Kind.crdt_content && id !== Kind.crdt_id)
  );
}

/** Node flags, a bit set per node. */
export const Flag = {
  /** Indefinite length (CBOR): the item ends with a break byte 0xff at `end - 1`. */
  indefinite: 1,
  /** The item did not decode to its end: an error stopped the walk inside it. */
  incomplete: 2,
  /** The node is a map key; the map's value follows it as its next sibling. */
  key: 4,
  /** The node's direct children are recorded in the store. */
  expanded: 8,
  /** A map key equal to an earlier key of the same map. */
  duplicateKey: 16,
  /**
   * A MessagePack str whose bytes are not valid UTF-8: kept (the frame decodes, with a
   * warning), its value is the original bytes.
   */
  invalidUtf8: 32,
} as const;
