import { Flag, Kind } from '../core/kinds.js';
import type { FormatWalker, SpanIndex } from '../core/span-index.js';
import type { DecodeErrorCode } from '../core/errors.js';
import { jsonWalker, walkJsonInto } from '../json/walker.js';
import { plainPreview } from '../core/describe.js';
import { addCommonHeader } from './socketio-common-prefix.js';
import { ABSENT, addNode, writeHeader } from './socketio-header-nodes.js';
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
  /** A header's numbers (the attachment count before its `-`, the ack id) by their value, not their bytes. */
  preview(index, node, max) {
    if (isHeader(index, node) && index.store.kind[node] === Kind.number) {
      const value = packetData(index).values[node];
      if (typeof value === 'number') return String(value).slice(0, max);
    }
    return plainPreview(index, node, max);
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
const SOCKET_BINARY_EVENT = 5;

/** Whether `node` is one of the packet's own nodes (not the root, not in the payload). */
function isHeader(index: SpanIndex, node: number): boolean {
  const state = index.formatData;
  return node > 0 && node < (typeof state === 'number' ? state >> 1 : ((state as SocketIoData | null)?.headerEnd ?? 1));
}

/** Stops the packet at an error in its header: the root incomplete, counting the entries read. */
function failPacket(
  index: SpanIndex,
  entries: number,
  headerEnd: number,
  code: DecodeErrorCode,
  at: number,
  message: string,
): void {
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
  // Most packets are a message with a Socket.IO type and its JSON payload after at most an
  // attachment count, a namespace and an ack id (`42[…`, `40{…`, `451-/admin,12[…`):
  // read without the general prefix reader, the root and its header's nodes written in one
  // go (socketio-common-prefix.ts); -1 for every other prefix. This function stays small
  // for them (the JIT inlines it into the walker's entry); the rest is walkOtherPacket's.
  const payloadStart = len > 1 && bytes[0] === 0x34 ? addCommonHeader(store, bytes, len, depth >= 1, rootRecorded) : -1;
  if (payloadStart < 0) return walkOtherPacket(index, depth, rootRecorded);
  const key = depth >= 1 ? store.size - 1 : -1;
  const headerEnd = depth >= 1 ? store.size : 1;
  const socket = bytes[1] - 0x30;
  // An event's arguments are recorded a level deeper than the depth asks (the array's
  // items), as reading the event name used to record them.
  const isEvent = bytes[payloadStart] === 0x5b && (socket === SOCKET_EVENT || socket === SOCKET_BINARY_EVENT);
  if (
    jsonPart(index, key, payloadStart, isEvent && depth === 1 ? 2 : depth, rootRecorded && depth > 1 ? depth - 1 : 0)
  ) {
    index.formatData = headerEnd * 2;
  } else {
    // The root's count of entries stays unset, as the general reader leaves it.
    store.setArg(0, 0);
    index.formatData = headerEnd * 2 + 1;
  }
}

/** walkPacket for the prefixes the common path leaves: read whole first, then recorded. */
function walkOtherPacket(index: SpanIndex, depth: number, rootRecorded: boolean): void {
  const { bytes, store } = index;
  const len = bytes.length;
  const record = depth >= 1;
  // A broken payload keeps only its own node (see jsonPart): when the root is expanded later,
  // that node is expanded too, as expanding a root read with its parts would reach it.
  const depthAfterError = rootRecorded && depth > 1 ? depth - 1 : 0;
  // What a walk that stops unexpectedly leaves: no header, failed.
  index.formatData = 3;
  if (len === 0 || bytes[0] < 0x30 || bytes[0] > 0x36) {
    // The root (node 0): a map of the packet's parts, none read.
    if (!rootRecorded) addNode(store, Kind.map, 0, len, 0, record ? Flag.expanded : 0, -1, -1);
    else if (record) store.addFlags(0, Flag.expanded);
    return failPacket(
      index,
      0,
      1,
      'invalid-token',
      0,
      'not an Engine.IO packet: the first byte must be a type digit 0-6',
    );
  }
  // The prefix, read whole first (each part's span in locals, nothing recorded), then its
  // nodes written in one block (writeHeader). readHeader reads the same for the packet's
  // summary; socketio-one-walk-property.test.ts holds both to the reference walker.
  let pos = 1;
  let socket = -1;
  let attachmentsEnd = ABSENT;
  let namespaceStart = ABSENT;
  let namespaceEnd = ABSENT;
  let queryEnd = ABSENT;
  let ackStart = ABSENT;
  let ackEnd = ABSENT;
  // The root's entries read (recorded or not).
  let entries = 1;
  if (bytes[0] === 0x34 && pos < len && bytes[pos] >= 0x30 && bytes[pos] <= 0x36) {
    socket = bytes[pos] - 0x30;
    entries++;
    pos++;
    if (socket > SOCKET_LAST_PLAIN) {
      const end = digitsEnd(bytes, pos, len);
      if (end === pos || bytes[end] !== 0x2d) {
        // The parts read so far (engine.io and socket.io, ids 1 to 4) are kept.
        let headerEnd = 1;
        if (record)
          headerEnd =
            writeHeader(store, len, rootRecorded, true, ABSENT, ABSENT, ABSENT, ABSENT, ABSENT, ABSENT, ABSENT, false) +
            1;
        else if (!rootRecorded) addNode(store, Kind.map, 0, len, 0, 0, -1, -1);
        return failPacket(
          index,
          entries,
          headerEnd,
          'invalid-token',
          pos,
          `${SOCKET_IO_TYPES[socket]} needs an attachment count followed by '-'`,
        );
      }
      entries++;
      attachmentsEnd = end + 1;
      pos = attachmentsEnd;
    }
    if (bytes[pos] === 0x2f) {
      let comma = pos;
      while (comma < len && bytes[comma] !== 0x2c && bytes[comma] !== 0x5b && bytes[comma] !== 0x7b) comma++;
      // socket.io 2.x joins a namespace with its query: `40/admin?token=abc,`.
      let nameEnd = pos;
      while (nameEnd < comma && bytes[nameEnd] !== 0x3f) nameEnd++;
      const end = bytes[comma] === 0x2c ? comma + 1 : comma;
      entries++;
      namespaceStart = pos;
      namespaceEnd = nameEnd < comma ? nameEnd : end;
      if (nameEnd < comma) {
        entries++;
        queryEnd = end;
      }
      pos = end;
    }
    const end = digitsEnd(bytes, pos, len);
    if (end > pos) {
      entries++;
      ackStart = pos;
      ackEnd = end;
      pos = end;
    }
  }
  const payload = pos < len ? payloadKindAt(bytes[pos], bytes[0] - 0x30, socket) : PAYLOAD_NONE;
  if (payload !== PAYLOAD_NONE) entries++;
  // The header's nodes are ids 1 to headerEnd - 1 (none when depth is 0).
  let headerEnd = 1;
  if (record) {
    headerEnd =
      writeHeader(
        store,
        len,
        rootRecorded,
        socket >= 0,
        attachmentsEnd,
        namespaceStart,
        namespaceEnd,
        queryEnd,
        ackStart,
        ackEnd,
        payload === PAYLOAD_NONE ? ABSENT : pos,
        payload === PAYLOAD_TEXT,
      ) + 1;
  } else if (!rootRecorded) {
    addNode(store, Kind.map, 0, len, 0, 0, -1, -1);
  }
  if (payload !== PAYLOAD_NONE && payload !== PAYLOAD_TEXT) {
    // An event's arguments are recorded a level deeper than the depth asks (the array's
    // items), as reading the event name used to record them.
    if (
      !jsonPart(
        index,
        record ? headerEnd - 1 : -1,
        pos,
        payload === PAYLOAD_EVENT && depth === 1 ? 2 : depth,
        depthAfterError,
      )
    ) {
      index.formatData = headerEnd * 2 + 1;
      return;
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
