import { Flag, Kind } from '../core/kinds.js';
import type { SpanStore } from '../core/span-store.js';
import { addNode } from './socketio-header-nodes.js';

/**
 * The Socket.IO message prefixes nearly every frame has, read and recorded in one
 * straight-line pass: `4X` (a Socket.IO type 0-6), then for a binary type its attachment
 * count `N-`, then optionally a namespace ending in a comma (`/admin,`) and an ack id
 * (`12`), then a JSON array or object (`[` / `{`). `451-/admin,12[…`, `42/chat,[…`,
 * `4213[…`, `40{…`, `42[…`.
 *
 * Anything else (a namespace without its comma or with a socket.io 2.x query, a missing
 * `-`, a payload that is not `[` or `{`, digit runs past 15, a cut frame) is left whole to
 * the general prefix reader in socketio-walker.ts, which records what it always recorded:
 * this only ever takes prefixes whose parts it records exactly as that reader and
 * writeHeader do (socketio-one-walk-property.test.ts holds both to the reference walker).
 *
 * Why a path of its own: the general reader keeps each part's span in a local and hands
 * twelve of them to writeHeader, whose per-entry writes (`writeEntry`, twelve arguments)
 * the JIT does not inline; a profile of 383 B events (perf, 2026-11-25) put the prefix and
 * its header at about 260 ns a frame for `451-/admin,12` against about 65 ns for a plain
 * `42[`. Here the prefix is scanned once with byte compares and the nodes are written
 * straight, no loop and no call, the column bases computed once (a loop over the shared
 * fields cost more: the JIT reloaded each typed array's base in every iteration).
 */

/** Where an optional part is absent (no part of the prefix starts at byte 0). */
const NONE = 0;
/** digitsEnd's cap: an attachment count or ack id is read as at most 15 digits. */
const MAX_DIGITS = 15;

/**
 * Reads the prefix of `bytes` (whose first byte the caller checked is `4`): when it is one
 * of the common shapes above, records the root (node 0: written whole, or only marked
 * expanded when `rootRecorded`) with its count of entries as its arg, and, when `record`,
 * the header's entries (the payload's key the store's last node), and returns where the
 * payload starts. Otherwise returns -1 and has written nothing. Without `record`, only a
 * root not yet recorded is written (a map of the whole frame, not expanded), as the general
 * reader does. (The caller sets the root's arg back to 0 when the payload turns out broken,
 * as the general reader leaves it.)
 */
export function addCommonHeader(
  store: SpanStore,
  bytes: Uint8Array,
  len: number,
  record: boolean,
  rootRecorded: boolean,
): number {
  const socketByte = bytes[1];
  if (!(socketByte >= 0x30 && socketByte <= 0x36)) return -1;
  // Bytes are read while in the frame (0 past its end), so reads stay in bounds for the JIT.
  let pos = 2;
  let c = len > 2 ? bytes[2] : 0;
  let attachmentsEnd = NONE;
  if (socketByte >= 0x35) {
    // BINARY_EVENT / BINARY_ACK: `N-`, N one to 15 digits.
    while (c >= 0x30 && c <= 0x39 && pos < 2 + MAX_DIGITS) c = ++pos < len ? bytes[pos] : 0;
    if (pos === 2 || c !== 0x2d) return -1;
    attachmentsEnd = ++pos;
    c = pos < len ? bytes[pos] : 0;
  }
  let namespaceStart = NONE;
  let namespaceEnd = NONE;
  if (c === 0x2f) {
    // A namespace up to its comma (kept in its span); a query, a payload or the frame's end
    // before the comma is the general reader's.
    namespaceStart = pos;
    for (;;) {
      if (++pos === len) return -1;
      c = bytes[pos];
      if (c === 0x2c) break;
      if (c === 0x3f || c === 0x5b || c === 0x7b) return -1;
    }
    namespaceEnd = ++pos;
    c = pos < len ? bytes[pos] : 0;
  }
  const ackStart = pos;
  while (c >= 0x30 && c <= 0x39 && pos < ackStart + MAX_DIGITS) c = ++pos < len ? bytes[pos] : 0;
  // The payload: a 16th digit, text or the frame's end here is the general reader's.
  if (c !== 0x5b && c !== 0x7b) return -1;
  // The header's entries before the payload's: engine.io, socket.io and the optional parts.
  const parts = 2 + (attachmentsEnd !== NONE ? 1 : 0) + (namespaceStart !== NONE ? 1 : 0) + (pos > ackStart ? 1 : 0);
  if (!record) {
    if (!rootRecorded) addNode(store, Kind.map, 0, len, parts + 1, 0, -1, -1);
    else store.setArg(0, parts + 1);
    return pos;
  }
  // The root, `parts` entries of a key and a value, and the payload's key: written straight
  // (no loop, no call), the column bases and the constants read once. Fresh slots are zero
  // (see SpanStore; a depth-0 index's root-only store grows before its header is written):
  // a node's parent (the root, 0), head and a value's flags are not written, nor starts at 0.
  const nodes = 2 * parts + 2;
  while (store.size + nodes > store.cap) store.growFor(2);
  const cap = store.cap;
  const i32 = store.slabI32;
  const u8 = store.slabU8;
  const f64 = store.slabF64;
  const start = store.i32At;
  const end = start + cap;
  const child = end + 2 * cap;
  const next = child + cap;
  const kind = store.u8At;
  const flags = kind + cap;
  const arg = store.f64At;
  const text = Kind.text;
  const key = Flag.key;
  if (rootRecorded) {
    u8[flags] |= Flag.expanded;
  } else {
    i32[end] = len;
    i32[end + cap] = -1; // parent
    i32[next] = -1;
    u8[kind] = Kind.map;
    u8[flags] = Flag.expanded;
  }
  i32[child] = 1;
  f64[arg] = parts + 1;
  // engine.io [0, 1) and socket.io [1, 2), each key zero-width at its value's start; a key's
  // arg is its name's length, a value's its byte length.
  i32[end + 2] = i32[start + 3] = i32[end + 3] = i32[start + 4] = 1;
  i32[end + 4] = 2;
  i32[child + 1] = i32[child + 2] = i32[child + 3] = i32[child + 4] = -1;
  i32[next + 1] = 2;
  i32[next + 2] = 3;
  i32[next + 3] = 4;
  i32[next + 4] = 5;
  u8[kind + 1] = u8[kind + 2] = u8[kind + 3] = u8[kind + 4] = text;
  u8[flags + 1] = u8[flags + 3] = key;
  f64[arg + 1] = f64[arg + 3] = 9; // 'engine.io', 'socket.io'
  f64[arg + 2] = f64[arg + 4] = 1;
  let id = 5;
  if (attachmentsEnd !== NONE) {
    i32[start + id] = i32[end + id] = i32[start + id + 1] = 2;
    i32[end + id + 1] = attachmentsEnd;
    i32[child + id] = i32[child + id + 1] = -1;
    i32[next + id] = id + 1;
    i32[next + id + 1] = id + 2;
    u8[kind + id] = text;
    u8[kind + id + 1] = Kind.number;
    u8[flags + id] = key;
    f64[arg + id] = 11; // 'attachments'
    f64[arg + id + 1] = attachmentsEnd - 2;
    id += 2;
  }
  if (namespaceStart !== NONE) {
    i32[start + id] = i32[end + id] = i32[start + id + 1] = namespaceStart;
    i32[end + id + 1] = namespaceEnd;
    i32[child + id] = i32[child + id + 1] = -1;
    i32[next + id] = id + 1;
    i32[next + id + 1] = id + 2;
    u8[kind + id] = u8[kind + id + 1] = text;
    u8[flags + id] = key;
    f64[arg + id] = 9; // 'namespace'
    f64[arg + id + 1] = namespaceEnd - namespaceStart;
    id += 2;
  }
  if (pos > ackStart) {
    i32[start + id] = i32[end + id] = i32[start + id + 1] = ackStart;
    i32[end + id + 1] = pos;
    i32[child + id] = i32[child + id + 1] = -1;
    i32[next + id] = id + 1;
    i32[next + id + 1] = id + 2;
    u8[kind + id] = text;
    u8[kind + id + 1] = Kind.number;
    u8[flags + id] = key;
    f64[arg + id] = 3; // 'ack'
    f64[arg + id + 1] = pos - ackStart;
    id += 2;
  }
  // The payload's key, zero-width at its start, the root's last entry: its value is the
  // JSON walker's, which links it.
  i32[start + id] = i32[end + id] = pos;
  i32[child + id] = i32[next + id] = -1;
  u8[kind + id] = text;
  u8[flags + id] = key;
  f64[arg + id] = 4; // 'data'
  store.size = nodes;
  return pos;
}
