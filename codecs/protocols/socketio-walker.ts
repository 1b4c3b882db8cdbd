import { Flag, Kind } from '../core/kinds.js';
import type { FormatWalker, SpanIndex } from '../core/span-index.js';
import type { SpanStore } from '../core/span-store.js';
import type { DecodeErrorCode } from '../core/errors.js';
import { jsonWalker, walkJsonInto } from '../json/walker.js';
import { jsonString } from '../json/value.js';
import { decodeUtf8 } from '../core/utf8.js';

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
 */
export const ENGINE_IO_TYPES = ['open', 'close', 'ping', 'pong', 'message', 'upgrade', 'noop'] as const;
export const SOCKET_IO_TYPES = ['CONNECT', 'DISCONNECT', 'EVENT', 'ACK', 'CONNECT_ERROR', 'BINARY_EVENT', 'BINARY_ACK'] as const;

export interface SocketIoPacket {
  readonly engineType: (typeof ENGINE_IO_TYPES)[number];
  /** Type 4 is `ERROR` in socket.io 2.x (protocol v4) when its payload is a string, `CONNECT_ERROR` since. */
  readonly socketType: (typeof SOCKET_IO_TYPES)[number] | 'ERROR' | null;
  readonly attachments: number;
  readonly namespace: string;
  readonly ack: number | null;
  /** The payload's node id in the index, or -1. */
  readonly data: number;
  /** For EVENT / BINARY_EVENT: the event name (the payload array's first string). */
  readonly event: string | null;
}

interface SocketIoData {
  /** Values of the header nodes by node id (keys: their names; parts: their meaning). */
  readonly values: unknown[];
  /**
   * The header is recorded first, so its nodes are ids 1 to headerEnd - 1 (the payload's key
   * the last of them).
   */
  headerEnd: number;
  packet: SocketIoPacket | null;
}

export function socketIoPacket(index: SpanIndex): SocketIoPacket | null {
  return (index.formatData as SocketIoData | null)?.packet ?? null;
}

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
    return isHeader(index, node) ? (index.formatData as SocketIoData).values[node] : jsonWalker.leafValue(index, node);
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

/** Whether `node` is one of the packet's own nodes (not the root, not in the payload). */
function isHeader(index: SpanIndex, node: number): boolean {
  return node > 0 && node < (index.formatData as SocketIoData).headerEnd;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Where the digits at pos end (pos when there are none; at most 15 digits). */
function digitsEnd(bytes: Uint8Array, pos: number, end: number): number {
  let i = pos;
  while (i < end && isDigit(bytes[i]) && i - pos < 15) i++;
  return i;
}

/** The value of the digits bytes[pos, end). */
function digitsValue(bytes: Uint8Array, pos: number, end: number): number {
  let v = 0;
  for (let i = pos; i < end; i++) v = v * 10 + (bytes[i] - 0x30);
  return v;
}

// Not fatal, and a leading BOM dropped: what namespaces and Engine.IO text have always read as.
const textDecoder = new TextDecoder();

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
 * value's id.
 */
function addPart(store: SpanStore, data: SocketIoData, prev: number, name: string, start: number, end: number, value: unknown, kind: number): number {
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
  data.values[key] = name;
  data.values[id] = value;
  data.headerEnd = id + 1;
  return id;
}

/** The zero-width key `name` of the root's next entry, after `prev`. */
function addKey(store: SpanStore, data: SocketIoData, prev: number, name: string, at: number): number {
  const key = addNode(store, Kind.text, at, at, name.length, Flag.key, 0, prev);
  data.values[key] = name;
  data.headerEnd = key + 1;
  return key;
}

/** Stops the packet at an error in its header: the root incomplete, counting the entries read. */
function failPacket(index: SpanIndex, entries: number, code: DecodeErrorCode, at: number, message: string): void {
  index.fail(code, at, message);
  index.store.addFlags(0, Flag.incomplete);
  index.store.setArg(0, entries);
}

/**
 * Reads the packet into the root (node 0) and `depth` levels below it: a new root, or
 * (`rootRecorded`) the root of an index read at depth 0, whose parts were validated then and
 * are recorded now (an error found then stays the index's error).
 */
function walkPacket(index: SpanIndex, depth: number, rootRecorded: boolean): void {
  const { bytes, store } = index;
  const len = bytes.length;
  // Room for every header node (a store past an array's end is a slow runtime call).
  const data: SocketIoData = { values: new Array<unknown>(HEADER_NODES), headerEnd: 1, packet: null };
  index.formatData = data;
  const record = depth >= 1;
  // The root (node 0): a map of the packet's parts, its entry count set when they are read.
  if (!rootRecorded) addNode(store, Kind.map, 0, len, 0, record ? Flag.expanded : 0, -1, -1);
  else if (record) store.addFlags(0, Flag.expanded);
  // A broken payload keeps only its own node (see jsonPart): when the root is expanded later,
  // that node is expanded too, as expanding a root read with its parts would reach it.
  const depthAfterError = rootRecorded && depth > 1 ? depth - 1 : 0;
  // The root's last entry recorded, and its entries read (recorded or not).
  let prev = -1;
  let entries = 0;

  if (len === 0 || !isDigit(bytes[0]) || bytes[0] > 0x36) return failPacket(index, entries, 'invalid-token', 0, 'not an Engine.IO packet: the first byte must be a type digit 0-6');
  const engineType = ENGINE_IO_TYPES[bytes[0] - 0x30];
  entries++;
  if (record) prev = addPart(store, data, prev, 'engine.io', 0, 1, engineType, Kind.text);
  let pos = 1;
  let socketType: SocketIoPacket['socketType'] = null;
  let attachments = 0;
  let namespace = '/';
  let ack: number | null = null;
  let payloadNode = -1;
  let event: string | null = null;
  let socketNode = -1;

  if (engineType === 'message' && pos < len && isDigit(bytes[pos]) && bytes[pos] <= 0x36) {
    socketType = SOCKET_IO_TYPES[bytes[pos] - 0x30];
    entries++;
    if (record) prev = addPart(store, data, prev, 'socket.io', pos, pos + 1, socketType, Kind.text);
    socketNode = prev;
    pos++;
    if (socketType === 'BINARY_EVENT' || socketType === 'BINARY_ACK') {
      const end = digitsEnd(bytes, pos, len);
      if (end === pos || bytes[end] !== 0x2d) return failPacket(index, entries, 'invalid-token', pos, `${socketType} needs an attachment count followed by '-'`);
      attachments = digitsValue(bytes, pos, end);
      entries++;
      if (record) prev = addPart(store, data, prev, 'attachments', pos, end + 1, attachments, Kind.number);
      pos = end + 1;
    }
    if (bytes[pos] === 0x2f) {
      let comma = pos;
      while (comma < len && bytes[comma] !== 0x2c && bytes[comma] !== 0x5b && bytes[comma] !== 0x7b) comma++;
      // socket.io 2.x joins a namespace with its query: `40/admin?token=abc,`.
      let nameEnd = pos;
      while (nameEnd < comma && bytes[nameEnd] !== 0x3f) nameEnd++;
      const query = nameEnd < comma ? nameEnd - pos : -1;
      namespace = textDecoder.decode(bytes.subarray(pos, nameEnd));
      const end = bytes[comma] === 0x2c ? comma + 1 : comma;
      entries++;
      if (record) prev = addPart(store, data, prev, 'namespace', pos, query >= 0 ? nameEnd : end, namespace, Kind.text);
      if (query >= 0) {
        entries++;
        if (record) prev = addPart(store, data, prev, 'query', nameEnd, end, textDecoder.decode(bytes.subarray(nameEnd + 1, comma)), Kind.text);
      }
      pos = end;
    }
    const end = digitsEnd(bytes, pos, len);
    if (end > pos) {
      ack = digitsValue(bytes, pos, end);
      entries++;
      if (record) prev = addPart(store, data, prev, 'ack', pos, end, ack, Kind.number);
      pos = end;
    }
  }
  if (pos < len) {
    // socket.io 2.x's ERROR carries a JSON string: `44/locked,"Not authorized"`.
    const v2Error = socketType === 'CONNECT_ERROR' && bytes[pos] === 0x22;
    const isJson = bytes[pos] === 0x7b || bytes[pos] === 0x5b || v2Error || (engineType !== 'message' && bytes[pos] === 0x22);
    if (!isJson || socketType === null) {
      // Engine.IO's own payloads (open's JSON handshake aside) are plain text: `2probe`, or a
      // message sent with the engine alone (`4hello`).
      if (isJson && engineType !== 'message') {
        entries++;
        payloadNode = jsonPart(index, data, prev, pos, depth, depthAfterError);
        if (payloadNode === -2) return;
      } else {
        entries++;
        if (record) payloadNode = addPart(store, data, prev, 'data', pos, len, textDecoder.decode(bytes.subarray(pos)), Kind.text);
      }
    } else {
      // An event's arguments are recorded a level deeper than the depth asks (the array's
      // items), as reading the event name used to record them.
      const isEvent = (socketType === 'EVENT' || socketType === 'BINARY_EVENT') && bytes[pos] === 0x5b;
      entries++;
      payloadNode = jsonPart(index, data, prev, pos, isEvent && depth === 1 ? 2 : depth, depthAfterError);
      if (payloadNode === -2) return;
      if (v2Error) {
        socketType = 'ERROR';
        if (socketNode >= 0) data.values[socketNode] = socketType;
      }
      if (isEvent) event = eventName(bytes, pos, len);
    }
  }
  store.setArg(0, entries);
  data.packet = { engineType, socketType, attachments, namespace, ack, data: payloadNode, event };
}

/**
 * The event name: the payload array's first item when it is a string (`42["chat",…]`),
 * read from the bytes (the walk validated them), so no depth has to record it.
 */
function eventName(bytes: Uint8Array, start: number, end: number): string | null {
  let p = start + 1; // past '['
  while (p < end && isJsonSpace(bytes[p])) p++;
  if (bytes[p] !== 0x22) return null;
  const from = ++p;
  let escaped = false;
  for (let c = bytes[p]; c !== 0x22; c = bytes[p]) {
    if (c === 0x5c) {
      escaped = true;
      p += 2;
    } else {
      p++;
    }
  }
  return escaped ? jsonString(bytes, from, p) : eventText(bytes, from, p);
}

/**
 * Event names read lately, by length and first and last byte: a socket sends the same few
 * events over and over, and a name read again is the string read before (a compare of its
 * bytes instead of a decode; one string for every packet that names it).
 */
const EVENT_SLOTS = 64;
const MAX_CACHED_EVENT_BYTES = 64;
const cachedEventBytes: Uint8Array[] = Array.from({ length: EVENT_SLOTS }, () => new Uint8Array(0));
const cachedEventNames: string[] = new Array<string>(EVENT_SLOTS).fill('');

/** The text of the escape-free (validated) string body bytes[from, to). */
function eventText(bytes: Uint8Array, from: number, to: number): string {
  const n = to - from;
  if (n === 0 || n > MAX_CACHED_EVENT_BYTES) return decodeUtf8(bytes, from, to);
  const slot = (n * 7 + bytes[from] * 3 + bytes[to - 1]) & (EVENT_SLOTS - 1);
  const cached = cachedEventBytes[slot];
  if (cached.length === n) {
    let i = 0;
    while (i < n && cached[i] === bytes[from + i]) i++;
    if (i === n) return cachedEventNames[slot];
  }
  const name = decodeUtf8(bytes, from, to);
  cachedEventBytes[slot] = bytes.slice(from, to);
  cachedEventNames[slot] = name;
  return name;
}

function isJsonSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/**
 * Records `data:` as the JSON value from `start` to the frame's end, walked once into the packet's
 * index with `depth` levels recorded below the packet's root: its id, -1 when not recorded
 * (depth 0), -2 after an error. After an error only the value's own node is kept (its
 * subtree expands on demand, up to the error), as when the payload was validated apart;
 * `depthAfterError` > 0 expands it to that depth at once.
 */
function jsonPart(index: SpanIndex, data: SocketIoData, prev: number, start: number, depth: number, depthAfterError: number): number {
  const store = index.store;
  if (depth < 1) {
    walkJsonInto(index, start, 0, -1, -1, PAYLOAD_ERROR);
    if (!index.error) return -1;
    store.addFlags(0, Flag.incomplete);
    return -2;
  }
  const key = addKey(store, data, prev, 'data', start);
  const warnings = index.warnings.length;
  const id = walkJsonInto(index, start, 0, key, depth - 1, PAYLOAD_ERROR);
  if (index.error) {
    store.addFlags(0, Flag.incomplete);
    keepOnlyNode(index, id, warnings);
    if (depthAfterError > 0) jsonWalker.walk(index, id, depthAfterError);
    return -2;
  }
  return id;
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
