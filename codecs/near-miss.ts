import { Flag, Kind } from './core/kinds.js';
import type { Rejection } from './detect.js';

/** At or above this, a failed reading is "malformed X"; below it the frame is "unknown". */
export const NEAR_MISS_THRESHOLD = 0.5;

const NO_MAGIC = new Set(['yjs', 'crdt-model', 'crdt-patch']);

/** A format with no magic number: its near misses need the connection's word (yjs, json-joy's model and patch). */
export function hasNoMagic(format: string): boolean {
  return NO_MAGIC.has(format);
}

/**
 * How much a failed reading looks like a real frame of its format that broke, 0..1: how far
 * its complete items reach into the frame, whether the root is a container, whether map keys
 * are text, whether it failed near the end or ran out of bytes (a frame cut short). A frame of another format
 * (Protobuf, a Phoenix binary push, random filler) read as CBOR stops after an item or two,
 * or reads a scalar followed by trailing bytes; json-joy's formats have no magic number, so
 * their partial readings count for less.
 */
export function nearMissConfidence(rejection: Rejection, length: number): number {
  const index = rejection.index;
  if (!index || index.root < 0 || length === 0) return 0;
  if (rejection.error.code === 'trailing-bytes' || rejection.error.code === 'implausible') return 0;
  const { store } = index;
  const root = index.root;
  let reach = 0;
  let complete = 0;
  let keys = 0;
  let textKeys = 0;
  // A format with no magic number (yjs, json-joy's model and patch) reads some structure from
  // any bytes: its root is always a container and yjs names its parts with zero-width keys
  // (names not on the wire). Neither is evidence of a frame of that format.
  const noMagic = NO_MAGIC.has(rejection.format);
  for (let id = 0; id < store.size; id++) {
    const flags = store.flags[id];
    if (noMagic && flags & Flag.key && store.end[id] === store.start[id]) continue;
    if (!(flags & Flag.incomplete)) {
      reach = Math.max(reach, store.end[id]);
      if (id !== root) complete++;
    }
    if (flags & Flag.key) {
      keys++;
      if (store.kind[id] === Kind.text) textKeys++;
    }
  }
  const rootKind = store.kind[root];
  const container =
    rootKind === Kind.array || rootKind === Kind.map || (rootKind >= Kind.crdt_model && rootKind <= Kind.crdt_patch);
  // One whole item is what random bytes give (a json-joy patch id of two varints, a
  // MessagePack key): the reading's reach and a cut-short end count from two whole items
  // on, or from text keys (`{"a": <a string cut short>}` reads like data).
  const supported = complete >= 2 || (keys > 0 && textKeys === keys);
  let confidence = supported ? 0.5 * (reach / length) : 0;
  if (container && !noMagic) confidence += 0.2;
  if (keys > 0 && textKeys === keys) confidence += 0.15;
  if (rejection.error.offset >= 0.9 * length) confidence += 0.15;
  // Every byte read validly and more were wanted: a frame cut short. (A declared length past
  // the end is another code, 'length-exceeds-input', and earns nothing here.)
  if (supported && rejection.error.code === 'truncated' && rejection.error.offset >= length) confidence += 0.35;
  if (rejection.format === 'crdt-model' || rejection.format === 'crdt-patch') confidence -= 0.1;
  // MessagePack reads almost any bytes (only c1 is invalid): random bytes run validly to the
  // end and want more (`de ad be ef`: a map of 44,478 entries keyed by -17). What marks a
  // broken MessagePack frame is data-like content, a map with text keys; without it the
  // reading is one guess among others, not "malformed MessagePack".
  if (rejection.format === 'msgpack' && (keys === 0 || textKeys < keys)) confidence = Math.min(confidence, 0.3);
  return Math.max(0, Math.min(1, confidence));
}
