import { Flag, Kind } from '../core/kinds.js';
import type { FormatWalker, SpanIndex } from '../core/span-index.js';
import type { SpanStore } from '../core/span-store.js';
import type { DecodeErrorCode } from '../core/errors.js';
import { jsonWalker, walkJsonInto } from '../json/walker.js';
import {
  PAYLOAD_EVENT,
  PAYLOAD_NONE,
  PAYLOAD_TEXT,
  SOCKET_IO_TYPES,
  digitsEnd,
  payloadKindAt,
  readPacketData,
  type SocketIoData,
  type SocketIoPacket,
} from './socketio-header.js';

export { ENGINE_IO_TYPES, SOCKET_IO_TYPES, type SocketIoPacket } from './socketio-header.js';

/**
 * Socket.IO over Engine.IO text frames (v4, and v3 where it is the same): `42["chat",{…}]`,
 * `451-/admin,12["upload",{"_placeholder":true,"num":0}]`, `0{"sid":…}`, `2` / `3` (ping /
 * pong), `2probe`. The root is a map of the packet's parts, each with the span of its bytes:
 * `engine.io` (the first digit), `socket.io` (the second), `attachments` (`1-`),
 * `namespace` (`/admin,`), `ack` (`12`) and `data` (the JSON payload, walked once by the JSON
 * walker's `walkJsonInto` under the root, its spans in the frame, expanded later by the JSON
 * walker like any JSON node). Keys are zero-width (they are not on the wire);
 * the walker reports format `json` so strings keep JSON semantics, detection names it
 * `socketio`.
 *
 * A walk records the header's nodes from the prefix read in socketio-header.ts and leaves in
 * `index.formatData` only a number, `headerEnd * 2 + failed` (its nodes are ids 1 to
 * headerEnd - 1; failed: the walk stopped at an error): nothing is made per frame beyond the
 * JSON walker's own work. The packet's summary and the header's values (strings among them)
 * are read from the bytes when first asked for, and kept in formatData's place.
 */

export function socketIoPacket(index: SpanIndex): SocketIoPacket | null {
  return packetData(index).packet;
}

/** The packet's summary and header values, read when first asked for. */
function packetData(index: SpanIndex): SocketIoData {
  const state = index.formatData;
  if (typeof state !== 'number') return (state as SocketIoData | null) ?? NO_DATA;
  const data = readPacketData(index.bytes, state >> 1, (state & 1) === 1);
  index.formatData = data;
  return data;
}

const NO_DATA: SocketIoData = { values: [], headerEnd: 1, packet: null };

export const socketIoWalker: FormatWalker = {
  format: 'json',
  walk(index, node, depth) {
    if (node < 0) walkPacket(index, depth, false);
    // The root of an index read at depth 0: its parts are read now.
    else if (node === 0) walkPacket(index, depth, true);
    else if (!isHeader(index, node)) jsonWalker.walk(index, node, depth);
  },
  /** The JSON walker's estimate for the payload, plus the header's nodes. */
  capacityHint(bytes, depth) {
    const payload = jsonWalker.capacityHint?.(bytes, depth);
    return payload === undefined ? undefined : payload + HEADER_NODES;
  },
  leafValue(index, node) {
    return isHeader(index, node) ? packetData(index).values[node] : jsonWalker.leafValue(index, node);
  },
  describe(index, node) {
    const { store } = index;
    if (node === 0) {
      const p = socketIoPacket(index);
      return p ? (p.socketType ? `socket.io ${p.socketType}` : `engine.io ${p.engineType}`) : 'socket.io';
    }
    if (isHeader(index, node)) return store.flags[node] & Flag.key ? 'key' : 'header';
    switch (store.kind[node]) {
      case Kind.text:
        return `text(${store.arg[node]})`;
      case Kind.array:
        return `array(${store.arg[node]})`;
      case Kind.map:
        return `map(${store.arg[node]})`;
      default:
        return index.kind(node);
    }
  },
};

/** The most nodes a header records: the root, six entries of two nodes (a socket.io 2.x namespace's query among them), the payload's key. */
const HEADER_NODES = 14;

/** Socket.IO types up to CONNECT_ERROR carry no attachment count; EVENT's payload is an array whose first item names it. */
const SOCKET_LAST_PLAIN = 4;
const SOCKET_EVENT = 2;

/** Whether `node` is one of the packet's own nodes (not the root, not in the payload). */
function isHeader(index: SpanIndex, node: number): boolean {
  const state = index.formatData;
  return node > 0 && node < (typeof state === 'number' ? state >> 1 : ((state as SocketIoData | null)?.headerEnd ?? 1));
}

/**
 * Appends a node to the store as the last child of `parent` (after `prev`), its fields
 * written straight into the store's packed arrays (as the JSON walker's recordNode does):
 * `store.add` with its end and flags, for the header's few nodes of every frame.
 */
function addNode(store: SpanStore, kind: number, start: number, end: number, arg: number, flags: number, parent: number, prev: number): number {
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

/**
 * Records the entry `name: value` (the value spanning [start, end) of the frame) after
 * `prev` in the root, key and value in one go (every frame writes two or more); returns the
 * value's id. The value itself is read when asked for (readPacketData).
 */
function addPart(store: SpanStore, prev: number, name: string, start: number, end: number, kind: number): number {
  if (store.size + 2 > store.cap) store.growFor(start);
  const key = store.size;
  const id = key + 1;
  store.size = id + 1;
  const c = store.cap;
  const i32 = store.slabI32;
  const u8 = store.slabU8;
  const f64 = store.slabF64;
  const at = store.i32At;
  // The key: zero-width at the value's start, the value its next sibling.
  i32[at + key] = start;
  i32[at + c + key] = start;
  i32[at + 2 * c + key] = 0;
  i32[at + 3 * c + key] = -1;
  i32[at + 4 * c + key] = id;
  i32[at + id] = start;
  i32[at + c + id] = end;
  i32[at + 2 * c + id] = 0;
  i32[at + 3 * c + id] = -1;
  i32[at + 4 * c + id] = -1;
  if (prev >= 0) i32[at + 4 * c + prev] = key;
  else i32[at + 3 * c] = key;
  u8[store.u8At + key] = Kind.text;
  u8[store.u8At + c + key] = Flag.key;
  u8[store.u8At + id] = kind;
  f64[store.f64At + key] = name.length;
  if (end !== start) f64[store.f64At + id] = end - start;
  return id;
}

/**
 * Records what addNode and addPart record for a plain packet (`42[…`) read whole: the root
 * (node 0, expanded; or only marked expanded when `rootRecorded`), then `engine.io: "4"`,
 * `socket.io: "2"` and the `data` key, ids 1 to 5, in one go. Returns the key's id.
 */
function addPlainHeader(store: SpanStore, len: number, rootRecorded: boolean): number {
  if (store.size + 6 > store.cap) store.growFor(2);
  const c = store.cap;
  const i32 = store.slabI32;
  const u8 = store.slabU8;
  const f64 = store.slabF64;
  const start = store.i32At;
  const end = start + c;
  const parent = end + c;
  const child = parent + c;
  const next = child + c;
  const kind = store.u8At;
  if (rootRecorded) {
    u8[kind + c] |= Flag.expanded;
  } else {
    i32[start] = 0;
    i32[end] = len;
    i32[parent] = -1;
    i32[next] = -1;
    u8[kind] = Kind.map;
    u8[kind + c] = Flag.expanded;
  }
  i32[child] = 1;
  store.size = 6;
  // Nodes 1 to 5: keys 1, 3 and 5 (zero-width), values 2 and 4 with spans [0, 1) and [1, 2).
  for (let n = 1; n <= 5; n++) {
    i32[parent + n] = 0;
    i32[child + n] = -1;
    i32[next + n] = n + 1;
  }
  i32[next + 5] = -1;
  i32[start + 1] = i32[end + 1] = 0;
  i32[start + 2] = 0;
  i32[end + 2] = 1;
  i32[start + 3] = i32[end + 3] = 1;
  i32[start + 4] = 1;
  i32[end + 4] = 2;
  i32[start + 5] = i32[end + 5] = 2;
  u8[kind + 1] = u8[kind + 2] = u8[kind + 3] = u8[kind + 4] = u8[kind + 5] = Kind.text;
  u8[kind + c + 1] = u8[kind + c + 3] = u8[kind + c + 5] = Flag.key;
  const arg = store.f64At;
  f64[arg + 1] = 9; // 'engine.io'
  f64[arg + 2] = 1;
  f64[arg + 3] = 9; // 'socket.io'
  f64[arg + 4] = 1;
  f64[arg + 5] = 4; // 'data'
  return 5;
}

/** Stops the packet at an error in its header: the root incomplete, counting the entries read. */
function failPacket(index: SpanIndex, entries: number, headerEnd: number, code: DecodeErrorCode, at: number, message: string): void {
  index.fail(code, at, message);
  index.store.addFlags(0, Flag.incomplete);
  index.store.setArg(0, entries);
  index.formatData = headerEnd * 2 + 1;
}

/**
 * Reads the packet into the root (node 0) and `depth` levels below it: a new root, or
 * (`rootRecorded`) the root of an index read at depth 0, whose parts were validated then and
 * are recorded now (an error found then stays the index's error).
 */
function walkPacket(index: SpanIndex, depth: number, rootRecorded: boolean): void {
  const { bytes, store } = index;
  const len = bytes.length;
  const record = depth >= 1;
  // A broken payload keeps only its own node (see jsonPart): when the root is expanded later,
  // that node is expanded too, as expanding a root read with its parts would reach it.
  const depthAfterError = rootRecorded && depth > 1 ? depth - 1 : 0;
  // Most packets are a message with a Socket.IO type (not binary) and its JSON payload right
  // after (`42[…`, `43[…`, `40{…`): read without the general prefix reader, the root and its
  // header's nodes written in one go.
  const socketDigit = len > 2 ? bytes[1] - 0x30 : -1;
  const payloadByte = len > 2 ? bytes[2] : 0;
  if (bytes[0] === 0x34 && socketDigit >= 0 && socketDigit <= SOCKET_LAST_PLAIN && (payloadByte === 0x5b || payloadByte === 0x7b)) {
    let key = -1;
    if (record) key = addPlainHeader(store, len, rootRecorded);
    else if (!rootRecorded) addNode(store, Kind.map, 0, len, 0, 0, -1, -1);
    const isEvent = payloadByte === 0x5b && socketDigit === SOCKET_EVENT;
    const headerEnd = key + 1 > 1 ? key + 1 : 1;
    if (!jsonPart(index, key, 2, isEvent && depth === 1 ? 2 : depth, depthAfterError)) {
      index.formatData = headerEnd * 2 + 1;
      return;
    }
    store.setArg(0, 3);
    index.formatData = headerEnd * 2;
    return;
  }
  // What a walk that stops unexpectedly leaves: no header, failed.
  index.formatData = 3;
  // The root (node 0): a map of the packet's parts, its entry count set when they are read.
  if (!rootRecorded) addNode(store, Kind.map, 0, len, 0, record ? Flag.expanded : 0, -1, -1);
  else if (record) store.addFlags(0, Flag.expanded);
  // The prefix, read here as the parts are recorded (readHeader reads the same for the
  // packet's summary; socketio-one-walk-property.test.ts holds both to the reference walker).
  if (len === 0 || bytes[0] < 0x30 || bytes[0] > 0x36) return failPacket(index, 0, 1, 'invalid-token', 0, 'not an Engine.IO packet: the first byte must be a type digit 0-6');
  // The root's last entry recorded, and its entries read (recorded or not).
  let prev = -1;
  let entries = 1;
  if (record) prev = addPart(store, prev, 'engine.io', 0, 1, Kind.text);
  let pos = 1;
  let socket = -1;
  if (bytes[0] === 0x34 && pos < len && bytes[pos] >= 0x30 && bytes[pos] <= 0x36) {
    socket = bytes[pos] - 0x30;
    entries++;
    if (record) prev = addPart(store, prev, 'socket.io', 1, 2, Kind.text);
    pos++;
    if (socket > SOCKET_LAST_PLAIN) {
      const end = digitsEnd(bytes, pos, len);
      if (end === pos || bytes[end] !== 0x2d) return failPacket(index, entries, Math.max(prev + 1, 1), 'invalid-token', pos, `${SOCKET_IO_TYPES[socket]} needs an attachment count followed by '-'`);
      entries++;
      if (record) prev = addPart(store, prev, 'attachments', pos, end + 1, Kind.number);
      pos = end + 1;
    }
    if (bytes[pos] === 0x2f) {
      let comma = pos;
      while (comma < len && bytes[comma] !== 0x2c && bytes[comma] !== 0x5b && bytes[comma] !== 0x7b) comma++;
      // socket.io 2.x joins a namespace with its query: `40/admin?token=abc,`.
      let nameEnd = pos;
      while (nameEnd < comma && bytes[nameEnd] !== 0x3f) nameEnd++;
      const end = bytes[comma] === 0x2c ? comma + 1 : comma;
      entries++;
      if (record) prev = addPart(store, prev, 'namespace', pos, nameEnd < comma ? nameEnd : end, Kind.text);
      if (nameEnd < comma) {
        entries++;
        if (record) prev = addPart(store, prev, 'query', nameEnd, end, Kind.text);
      }
      pos = end;
    }
    const end = digitsEnd(bytes, pos, len);
    if (end > pos) {
      entries++;
      if (record) prev = addPart(store, prev, 'ack', pos, end, Kind.number);
      pos = end;
    }
  }
  // The header's nodes are ids 1 to headerEnd - 1 (prev is -1 when none were recorded).
  let headerEnd = prev + 1 > 1 ? prev + 1 : 1;
  const payload = pos < len ? payloadKindAt(bytes[pos], bytes[0] - 0x30, socket) : PAYLOAD_NONE;
  if (payload !== PAYLOAD_NONE) {
    entries++;
    if (payload === PAYLOAD_TEXT) {
      if (record) headerEnd = addPart(store, prev, 'data', pos, len, Kind.text) + 1;
    } else {
      let key = -1;
      if (record) {
        key = addNode(store, Kind.text, pos, pos, 4, Flag.key, 0, prev);
        headerEnd = key + 1;
      }
      // An event's arguments are recorded a level deeper than the depth asks (the array's
      // items), as reading the event name used to record them.
      if (!jsonPart(index, key, pos, payload === PAYLOAD_EVENT && depth === 1 ? 2 : depth, depthAfterError)) {
        index.formatData = headerEnd * 2 + 1;
        return;
      }
    }
  }
  store.setArg(0, entries);
  index.formatData = headerEnd * 2;
}

/**
 * Walks `data:` as the JSON value from `start` to the frame's end, once, into the packet's
 * index with `depth` levels recorded below the packet's root, after its key `key` (-1 when
 * depth is 0: nothing recorded). False after an error: then only the value's own node is
 * kept (its subtree expands on demand, up to the error), as when the payload was validated
 * apart; `depthAfterError` > 0 expands it to that depth at once.
 */
function jsonPart(index: SpanIndex, key: number, start: number, depth: number, depthAfterError: number): boolean {
  const store = index.store;
  if (depth < 1) {
    walkJsonInto(index, start, 0, -1, -1, PAYLOAD_ERROR);
    if (!index.error) return true;
    store.addFlags(0, Flag.incomplete);
    return false;
  }
  const warnings = index.warnings.length;
  const id = walkJsonInto(index, start, 0, key, depth - 1, PAYLOAD_ERROR);
  if (index.error) {
    store.addFlags(0, Flag.incomplete);
    keepOnlyNode(index, id, warnings);
    if (depthAfterError > 0) jsonWalker.walk(index, id, depthAfterError);
    return false;
  }
  return true;
}

const PAYLOAD_ERROR = "in the packet's JSON payload: ";

/**
 * Drops what the walk recorded below node `id` (the last node of its parent, its subtree
 * the last nodes of the store) and the warnings it reported: the node stays, unexpanded.
 * Dropped slots are zeroed, as fresh store memory is (walkers write only non-zero fields).
 */
function keepOnlyNode(index: SpanIndex, id: number, warnings: number): void {
  const store = index.store;
  index.warnings.length = warnings;
  const c = store.cap;
  const u8 = store.slabU8;
  for (let n = id + 1; n < store.size; n++) {
    u8[store.u8At + n] = u8[store.u8At + c + n] = u8[store.u8At + 2 * c + n] = 0;
    store.slabF64[store.f64At + n] = 0;
  }
  store.size = id + 1;
  store.slabI32[store.i32At + 3 * c + id] = -1;
  u8[store.u8At + c + id] &= ~Flag.expanded;
}
