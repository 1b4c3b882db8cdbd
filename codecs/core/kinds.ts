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
} as const;

export type KindName = keyof typeof Kind;
export type KindId = (typeof Kind)[KindName];

const names: string[] = [];
for (const [name, id] of Object.entries(Kind)) names[id] = name;

export function kindName(id: number): KindName {
  return (names[id] ?? 'undefined') as KindName;
}

export function isContainerKind(id: number): boolean {
  return id === Kind.array || id === Kind.map || id === Kind.tag;
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
} as const;
