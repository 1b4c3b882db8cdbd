import { decodeUtf8 } from '../core/utf8.js';
import { jsonString } from '../json/value.js';

/**
 * The prefix of a Socket.IO over Engine.IO text packet (`42`, `451-/admin,12`, `40/a?x=1,`),
 * read from its bytes into reused slots: where each part starts and ends, no string and no
 * object made. The walker records the header's nodes from it on every frame; the packet's
 * summary (types, namespace, ack id, event name: what the list and the tree show) is read
 * from it again when first asked for (`readPacketData`).
 */
export const ENGINE_IO_TYPES = ['open', 'close', 'ping', 'pong', 'message', 'upgrade', 'noop'] as const;
export const SOCKET_IO_TYPES = [
  'CONNECT',
  'DISCONNECT',
  'EVENT',
  'ACK',
  'CONNECT_ERROR',
  'BINARY_EVENT',
  'BINARY_ACK',
] as const;

/** Engine.IO's message and Socket.IO's CONNECT_ERROR, EVENT and BINARY_EVENT, by number. */
export const ENGINE_MESSAGE = 4;
export const SOCKET_CONNECT_ERROR = 4;
const SOCKET_EVENT = 2;
const SOCKET_BINARY_EVENT = 5;

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

/** The packet's summary and the header nodes' values, made when first asked for. */
export interface SocketIoData {
  /** Values of the header nodes by node id (keys: their names; parts: their meaning). */
  readonly values: unknown[];
  /** The header's nodes are ids 1 to headerEnd - 1 (the payload's key the last of them). */
  readonly headerEnd: number;
  /** Null when the walk stopped at an error. */
  readonly packet: SocketIoPacket | null;
}

/** Slots of HEADER (offsets in the frame, -1 where the part is absent). */
export const H_ENGINE = 0; // Engine.IO type 0-6, -1 when the first byte is not one
export const H_SOCKET = 1; // Socket.IO type 0-6, -1 when none
export const H_ATTACHMENTS = 2; // the attachment count's first digit, -1 when none
export const H_DASH = 3; // the '-' after it
export const H_NAMESPACE = 4; // the namespace's '/', -1 when none
export const H_QUERY = 5; // a socket.io 2.x query's '?' (`40/admin?token=abc,`), -1 when none
export const H_COMMA = 6; // where the namespace's text ends: its ',', or the payload's first byte
export const H_NAMESPACE_END = 7; // past its ',' when it has one
export const H_ACK = 8; // the ack id's first digit, -1 when none
export const H_PAYLOAD = 9; // where the payload starts (the ack id's end; the frame's length when no payload)
export const H_ERROR = 10; // NO_ERROR, or where the header breaks: NOT_ENGINE_IO, NO_ATTACHMENT_COUNT
export const NO_ERROR = 0;
export const NOT_ENGINE_IO = 1;
/** BINARY_EVENT / BINARY_ACK without `digits-` (at H_ATTACHMENTS). */
export const NO_ATTACHMENT_COUNT = 2;

/** Filled by readHeader; one for the module (a walk reads it before anything else can). */
export const HEADER = new Int32Array(11);

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Where the digits at pos end (pos when there are none; at most 15 digits). */
export function digitsEnd(bytes: Uint8Array, pos: number, end: number): number {
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

/** Reads the packet's prefix into HEADER (see its slots). */
export function readHeader(bytes: Uint8Array): void {
  const h = HEADER;
  const len = bytes.length;
  h[H_SOCKET] = h[H_ATTACHMENTS] = h[H_NAMESPACE] = h[H_QUERY] = h[H_ACK] = -1;
  h[H_ERROR] = NO_ERROR;
  if (len === 0 || !isDigit(bytes[0]) || bytes[0] > 0x36) {
    h[H_ENGINE] = -1;
    h[H_ERROR] = NOT_ENGINE_IO;
    h[H_PAYLOAD] = len;
    return;
  }
  const engine = bytes[0] - 0x30;
  h[H_ENGINE] = engine;
  let pos = 1;
  if (engine === ENGINE_MESSAGE && pos < len && isDigit(bytes[pos]) && bytes[pos] <= 0x36) {
    const socket = bytes[pos] - 0x30;
    h[H_SOCKET] = socket;
    pos++;
    if (socket === SOCKET_BINARY_EVENT || socket === 6) {
      const end = digitsEnd(bytes, pos, len);
      h[H_ATTACHMENTS] = pos;
      if (end === pos || bytes[end] !== 0x2d) {
        h[H_ERROR] = NO_ATTACHMENT_COUNT;
        h[H_PAYLOAD] = len;
        return;
      }
      h[H_DASH] = end;
      pos = end + 1;
    }
    if (bytes[pos] === 0x2f) {
      let comma = pos;
      while (comma < len && bytes[comma] !== 0x2c && bytes[comma] !== 0x5b && bytes[comma] !== 0x7b) comma++;
      // socket.io 2.x joins a namespace with its query: `40/admin?token=abc,`.
      let nameEnd = pos;
      while (nameEnd < comma && bytes[nameEnd] !== 0x3f) nameEnd++;
      h[H_NAMESPACE] = pos;
      if (nameEnd < comma) h[H_QUERY] = nameEnd;
      h[H_COMMA] = comma;
      pos = bytes[comma] === 0x2c ? comma + 1 : comma;
      h[H_NAMESPACE_END] = pos;
    }
    const end = digitsEnd(bytes, pos, len);
    if (end > pos) {
      h[H_ACK] = pos;
      pos = end;
    }
  }
  h[H_PAYLOAD] = pos;
}

/** What the payload at HEADER's H_PAYLOAD is read as. */
export const PAYLOAD_NONE = 0;
/** Engine.IO's own payloads (open's JSON handshake aside) are plain text: `2probe`, or a message sent with the engine alone (`4hello`). */
export const PAYLOAD_TEXT = 1;
export const PAYLOAD_JSON = 2;
/** An EVENT / BINARY_EVENT's argument array. */
export const PAYLOAD_EVENT = 3;
/** socket.io 2.x's ERROR: a JSON string after type 4 (`44/locked,"Not authorized"`). */
export const PAYLOAD_V2_ERROR = 4;

/** How the payload after the header in HEADER is read. */
export function payloadKind(bytes: Uint8Array): number {
  const pos = HEADER[H_PAYLOAD];
  return pos < bytes.length ? payloadKindAt(bytes[pos], HEADER[H_ENGINE], HEADER[H_SOCKET]) : PAYLOAD_NONE;
}

/** How a payload whose first byte is `c` is read after Engine.IO type `engine` and Socket.IO type `socket` (-1: none). */
export function payloadKindAt(c: number, engine: number, socket: number): number {
  if (socket < 0)
    return engine !== ENGINE_MESSAGE && (c === 0x7b || c === 0x5b || c === 0x22) ? PAYLOAD_JSON : PAYLOAD_TEXT;
  if (socket === SOCKET_CONNECT_ERROR && c === 0x22) return PAYLOAD_V2_ERROR;
  if (c === 0x5b) return socket === SOCKET_EVENT || socket === SOCKET_BINARY_EVENT ? PAYLOAD_EVENT : PAYLOAD_JSON;
  return c === 0x7b ? PAYLOAD_JSON : PAYLOAD_TEXT;
}

// Not fatal, and a leading BOM dropped: what namespaces and Engine.IO text have always read as.
const textDecoder = new TextDecoder();

/** The text of bytes[start, end) as textDecoder reads it; short ASCII (a namespace, mostly) by hand, which is faster. */
function headerText(bytes: Uint8Array, start: number, end: number): string {
  if (end - start < 32) {
    let s = '';
    for (let i = start; i < end; i++) {
      const b = bytes[i];
      if (b >= 0x80) return textDecoder.decode(bytes.subarray(start, end));
      s += String.fromCharCode(b);
    }
    return s;
  }
  return textDecoder.decode(bytes.subarray(start, end));
}

/**
 * The packet's summary and its header nodes' values, read again from the bytes: the walk
 * that indexed them recorded the header's nodes as ids 1 to `headerEnd - 1` in the order
 * below (none when `headerEnd` is 1) and stopped at an error when `failed`.
 */
export function readPacketData(bytes: Uint8Array, headerEnd: number, failed: boolean): SocketIoData {
  readHeader(bytes);
  const h = HEADER;
  const values = new Array<unknown>(headerEnd);
  if (h[H_ENGINE] < 0) return { values, headerEnd, packet: null };
  const len = bytes.length;
  let id = 1;
  const engineType = ENGINE_IO_TYPES[h[H_ENGINE]];
  id = putPart(values, headerEnd, id, 'engine.io', engineType);
  const socket = h[H_SOCKET];
  const payload = payloadKind(bytes);
  const socketType = socket < 0 ? null : payload === PAYLOAD_V2_ERROR && !failed ? 'ERROR' : SOCKET_IO_TYPES[socket];
  if (socketType) id = putPart(values, headerEnd, id, 'socket.io', socketType);
  let attachments = 0;
  if (h[H_ATTACHMENTS] >= 0 && h[H_ERROR] === NO_ERROR)
    id = putPart(values, headerEnd, id, 'attachments', (attachments = digitsValue(bytes, h[H_ATTACHMENTS], h[H_DASH])));
  let namespace = '/';
  if (h[H_NAMESPACE] >= 0) {
    const nameEnd = h[H_QUERY] >= 0 ? h[H_QUERY] : h[H_COMMA];
    id = putPart(values, headerEnd, id, 'namespace', (namespace = headerText(bytes, h[H_NAMESPACE], nameEnd)));
    if (h[H_QUERY] >= 0) id = putPart(values, headerEnd, id, 'query', headerText(bytes, h[H_QUERY] + 1, h[H_COMMA]));
  }
  let ack: number | null = null;
  if (h[H_ACK] >= 0) id = putPart(values, headerEnd, id, 'ack', (ack = digitsValue(bytes, h[H_ACK], h[H_PAYLOAD])));
  let data = -1;
  if (payload === PAYLOAD_TEXT) {
    if (id + 1 < headerEnd) {
      data = id + 1;
      putPart(values, headerEnd, id, 'data', headerText(bytes, h[H_PAYLOAD], bytes.length));
    }
  } else if (payload !== PAYLOAD_NONE) {
    // The payload's key is the header's last node, the payload's root the node after it.
    if (id < headerEnd) {
      values[id] = 'data';
      data = id + 1;
    }
  }
  if (failed) return { values, headerEnd, packet: null };
  const event = payload === PAYLOAD_EVENT ? eventName(bytes, h[H_PAYLOAD], len) : null;
  return { values, headerEnd, packet: { engineType, socketType, attachments, namespace, ack, data, event } };
}

/** Puts the values of the part `name` recorded as key `id` and value `id + 1` (when the walk recorded them); the next part's id. */
function putPart(values: unknown[], headerEnd: number, id: number, name: string, value: unknown): number {
  if (id < headerEnd) values[id] = name;
  if (id + 1 < headerEnd) values[id + 1] = value;
  return id + 2;
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
