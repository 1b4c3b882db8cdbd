import { Flag, Kind } from '../core/kinds.js';
import type { SpanStore } from '../core/span-store.js';

/**
 * The nodes of a Socket.IO packet's header, written straight into the store's packed arrays
 * (as the JSON walker's recordNode does): the root (node 0, a map) and one entry per part
 * read from the prefix, a zero-width key (the part's name, not on the wire) and its value
 * with the span of its bytes. socketio-walker.ts reads the prefix; these write what it read
 * in one block, the store grown once, every sibling link computed rather than patched. (The
 * common prefixes, `42[` and `451-/admin,12[` among them, are read and written by
 * socketio-common-prefix.ts instead.)
 */

/**
 * Appends a node to the store as the last child of `parent` (after `prev`), its fields
 * written straight into the store's packed arrays (as the JSON walker's recordNode does):
 * `store.add` with its end and flags, for the header's few nodes of every frame.
 */
export function addNode(
  store: SpanStore,
  kind: number,
  start: number,
  end: number,
  arg: number,
  flags: number,
  parent: number,
  prev: number,
): number {
  if (store.size === store.cap) store.growFor(start);
  const id = store.size++;
  const c = store.cap;
  const i32 = store.slabI32;
  const u8 = store.slabU8;
  const i = store.i32At + id;
  i32[i] = start;
  i32[i + c] = end;
  i32[i + 2 * c] = parent;
  i32[i + 3 * c] = -1;
  i32[i + 4 * c] = -1;
  if (prev >= 0) i32[store.i32At + 4 * c + prev] = id;
  else if (parent >= 0) i32[store.i32At + 3 * c + parent] = id;
  u8[store.u8At + id] = kind;
  // Fresh slots are zero (see SpanStore): head is 0 for every header node.
  if (flags !== 0) u8[store.u8At + c + id] = flags;
  if (arg !== 0) store.slabF64[store.f64At + id] = arg;
  return id;
}

/** Where a header's part is absent (every part's span starts at 0 or later). */
export const ABSENT = -1;

/**
 * Writes the root and the header's entries in one go, after the prefix was read whole:
 * `engine.io` [0, 1), then each part present (its start not ABSENT) in wire order:
 * `socket.io` [1, 2), `attachments` [2, attachmentsEnd), `namespace` [namespaceStart,
 * namespaceEnd), `query` [namespaceEnd, queryEnd), `ack` [ackStart, ackEnd); then, when
 * dataStart is not ABSENT, `data`: an entry [dataStart, len) when `dataText`, else only its
 * key (the JSON walker records the value after it). The root is node 0, written whole or,
 * when `rootRecorded` (an index read at depth 0), only marked expanded. Returns the id of
 * the header's last node (the header is ids 1 to that id).
 */
export function writeHeader(
  store: SpanStore,
  len: number,
  rootRecorded: boolean,
  hasSocket: boolean,
  attachmentsEnd: number,
  namespaceStart: number,
  namespaceEnd: number,
  queryEnd: number,
  ackStart: number,
  ackEnd: number,
  dataStart: number,
  dataText: boolean,
): number {
  const nodes =
    3 +
    (hasSocket ? 2 : 0) +
    (attachmentsEnd !== ABSENT ? 2 : 0) +
    (namespaceStart !== ABSENT ? 2 : 0) +
    (queryEnd !== ABSENT ? 2 : 0) +
    (ackStart !== ABSENT ? 2 : 0) +
    (dataStart === ABSENT ? 0 : dataText ? 2 : 1);
  while (nodes > store.cap) store.growFor(2);
  const c = store.cap;
  const i32 = store.slabI32;
  const u8 = store.slabU8;
  const f64 = store.slabF64;
  const at = store.i32At;
  const kindAt = store.u8At;
  const argAt = store.f64At;
  if (rootRecorded) {
    u8[kindAt + c] |= Flag.expanded;
  } else {
    i32[at] = 0;
    i32[at + c] = len;
    i32[at + 2 * c] = -1;
    i32[at + 4 * c] = -1;
    u8[kindAt] = Kind.map;
    u8[kindAt + c] = Flag.expanded;
  }
  i32[at + 3 * c] = 1;
  writeEntry(i32, u8, f64, at, kindAt, argAt, c, 1, 9, Kind.text, 0, 1); // 'engine.io'
  let key = 3;
  if (hasSocket) {
    writeEntry(i32, u8, f64, at, kindAt, argAt, c, key, 9, Kind.text, 1, 2); // 'socket.io'
    key += 2;
  }
  if (attachmentsEnd !== ABSENT) {
    writeEntry(i32, u8, f64, at, kindAt, argAt, c, key, 11, Kind.number, 2, attachmentsEnd); // 'attachments'
    key += 2;
  }
  if (namespaceStart !== ABSENT) {
    writeEntry(i32, u8, f64, at, kindAt, argAt, c, key, 9, Kind.text, namespaceStart, namespaceEnd); // 'namespace'
    key += 2;
  }
  if (queryEnd !== ABSENT) {
    writeEntry(i32, u8, f64, at, kindAt, argAt, c, key, 5, Kind.text, namespaceEnd, queryEnd); // 'query'
    key += 2;
  }
  if (ackStart !== ABSENT) {
    writeEntry(i32, u8, f64, at, kindAt, argAt, c, key, 3, Kind.number, ackStart, ackEnd); // 'ack'
    key += 2;
  }
  if (dataStart !== ABSENT) {
    if (dataText) {
      writeEntry(i32, u8, f64, at, kindAt, argAt, c, key, 4, Kind.text, dataStart, len); // 'data'
      key += 2;
    } else {
      // The payload's key alone: zero-width at its start, its value the JSON walker's.
      i32[at + key] = dataStart;
      i32[at + c + key] = dataStart;
      i32[at + 2 * c + key] = 0;
      i32[at + 3 * c + key] = -1;
      u8[kindAt + key] = Kind.text;
      u8[kindAt + c + key] = Flag.key;
      f64[argAt + key] = 4; // 'data'
      key++;
    }
  }
  // The last node ends the root's list (every node before it links to the one after).
  i32[at + 4 * c + key - 1] = -1;
  store.size = key;
  return key - 1;
}

/**
 * Writes the entry `name: value` at ids `key` (zero-width at the value's start, its arg the
 * name's length) and `key + 1` (the value [start, end), its arg its length), both children
 * of the root, each linked to the id after it. Fresh slots are zero (see SpanStore): a zero
 * field (head, a zero-length value's arg) is not written.
 */
function writeEntry(
  i32: Int32Array,
  u8: Uint8Array,
  f64: Float64Array,
  at: number,
  kindAt: number,
  argAt: number,
  c: number,
  key: number,
  nameLength: number,
  kind: number,
  start: number,
  end: number,
): void {
  const id = key + 1;
  i32[at + key] = start;
  i32[at + c + key] = start;
  i32[at + 2 * c + key] = 0;
  i32[at + 3 * c + key] = -1;
  i32[at + 4 * c + key] = id;
  i32[at + id] = start;
  i32[at + c + id] = end;
  i32[at + 2 * c + id] = 0;
  i32[at + 3 * c + id] = -1;
  i32[at + 4 * c + id] = id + 1;
  u8[kindAt + key] = Kind.text;
  u8[kindAt + c + key] = Flag.key;
  u8[kindAt + id] = kind;
  f64[argAt + key] = nameLength;
  if (end !== start) f64[argAt + id] = end - start;
}
