import { Kind } from '../core/kinds.js';
import { SpanIndex } from '../core/span-index.js';
import { jsonWalker } from '../json/walker.js';
import { msgpackWalker } from '../msgpack/walker.js';
import {
  adoptNode,
  closeContainer,
  field,
  initParts,
  markIncomplete,
  openContainer,
  protocolWalker,
  type PartsData,
} from './frame-parts.js';
import { grouped } from '../core/grouped.js';

/**
 * ASP.NET Core SignalR's hub protocol over WebSocket, in its two encodings:
 * - JSON: each message is a JSON object followed by the record separator 0x1e, one or more
 *   per frame (text frames). A record is a map: `message` (the object, read by the JSON
 *   walker with spans in the frame) and `separator`.
 * - MessagePack: each message is a MessagePack array preceded by its length as a varint
 *   (7 bits a byte, low bits first, at most 5 bytes), one or more per frame (binary frames).
 *   A record is a map: `length`, then `message`, whose head is the array's head and whose
 *   items are named by the message type (`type`, `headers`, `invocationId`, `target`,
 *   `arguments`, `streamIds`, …), each read by the MessagePack walker.
 * The handshake (`{"protocol":"messagepack","version":1}` and the server's `{}`) is JSON
 * records in either encoding. One record makes the root that record; several, an array of them.
 */
export const SIGNALR_TYPES: Record<number, string> = {
  1: 'Invocation',
  2: 'StreamItem',
  3: 'Completion',
  4: 'StreamInvocation',
  5: 'CancelInvocation',
  6: 'Ping',
  7: 'Close',
  8: 'Ack',
  9: 'Sequence',
};

/** The MessagePack array items after the type, by message type (`?` marks an item a writer may leave out). */
const MSGPACK_ITEMS: Record<number, readonly string[]> = {
  1: ['headers', 'invocationId', 'target', 'arguments', 'streamIds?'],
  2: ['headers', 'invocationId', 'item'],
  3: ['headers', 'invocationId', 'resultKind', 'result?'],
  4: ['headers', 'invocationId', 'target', 'arguments', 'streamIds?'],
  5: ['headers', 'invocationId'],
  6: [],
  7: ['error', 'allowReconnect?'],
  8: ['sequenceId'],
  9: ['sequenceId'],
};

const RECORD_SEPARATOR = 0x1e;

export type SignalrEncoding = 'json' | 'messagepack';

export interface SignalrMessage {
  /** `Invocation`, `Ping`, …, or `handshake request` / `handshake response`. */
  readonly name: string;
  /** The message type number (0 for the handshake). */
  readonly type: number;
  readonly target?: string;
  readonly invocationId?: string;
  /** The hub protocol a handshake request asks for (`json`, `messagepack`). */
  readonly protocol?: string;
  /** The record's node. */
  readonly node: number;
}

interface SignalrData extends PartsData {
  encoding: SignalrEncoding;
  messages: SignalrMessage[];
}

export function signalrMessages(index: SpanIndex): readonly SignalrMessage[] {
  return (index.formatData as SignalrData | null)?.messages ?? [];
}

export function signalrEncoding(index: SpanIndex): SignalrEncoding | null {
  return (index.formatData as SignalrData | null)?.encoding ?? null;
}

/**
 * Does the frame open with a JSON record (`{` then a quote, `}` or white space)? A
 * MessagePack record of 123 bytes also starts with 0x7b, but an array head follows it.
 */
export function opensJsonRecord(bytes: Uint8Array): boolean {
  const next = bytes[1];
  return (
    bytes[0] === 0x7b &&
    (next === 0x22 || next === 0x7d || next === 0x20 || next === 0x0a || next === 0x0d || next === 0x09)
  );
}

class Stop {
  constructor(
    readonly at: number,
    readonly message: string,
    readonly code: 'truncated' | 'invalid-byte' | 'length-exceeds-input' | 'invalid-varint' = 'invalid-byte',
  ) {}
}

/** The leaf value of a child of a map, by key, from a depth-1 index; undefined when absent or a container. */
function topLevel(sub: SpanIndex, name: string): unknown {
  for (const c of sub.children(sub.root)) {
    const k = sub.keyOf(c);
    if (k >= 0 && sub.value(k) === name) return sub.isContainer(c) ? undefined : sub.value(c);
  }
  return undefined;
}

const asText = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'bigint' ? String(v) : undefined;

/** What a JSON record says: a typed message, or a handshake request / response. */
function jsonMessage(sub: SpanIndex, node: number, at: number): SignalrMessage {
  if (sub.store.kind[sub.root] !== Kind.map) throw new Stop(at, 'a SignalR JSON message is an object');
  const type = topLevel(sub, 'type');
  if (type === undefined) {
    const protocol = topLevel(sub, 'protocol');
    if (typeof protocol === 'string') return { name: 'handshake request', type: 0, protocol, node };
    return { name: 'handshake response', type: 0, node };
  }
  if (typeof type !== 'number' || !SIGNALR_TYPES[type])
    throw new Stop(at, `"type" ${JSON.stringify(type)} is not a SignalR message type (1-9)`);
  return {
    name: SIGNALR_TYPES[type],
    type,
    target: asText(topLevel(sub, 'target')),
    invocationId: asText(topLevel(sub, 'invocationId')),
    node,
  };
}

/** JSON records: `{…}` 0x1e, repeated to the frame's end. */
function readJsonRecord(index: SpanIndex, data: SignalrData, parent: number, pos: number): number {
  const { bytes } = index;
  const rs = bytes.indexOf(RECORD_SEPARATOR, pos);
  const record = openContainer(index, parent, null, Kind.map, pos);
  try {
    if (rs < 0) throw new Stop(bytes.length, 'the record has no separator 0x1e at its end', 'truncated');
    const sub = new SpanIndex(bytes.subarray(pos, rs), jsonWalker, { depth: 1 });
    if (sub.error)
      throw new Stop(
        pos + sub.error.offset,
        `record: ${sub.error.message.replace(/ at byte \d+$/, '')}`,
        'invalid-byte',
      );
    const message = adoptNode(index, record, 'message', sub, sub.root, pos);
    data.messages.push(jsonMessage(sub, message, pos));
    field(index, record, 'separator', rs, rs + 1, '\u001e', Kind.text);
    closeContainer(index, record, rs + 1);
    return rs + 1;
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
    index.fail(e.code, e.at, e.message);
    markIncomplete(index, record, Math.max(e.at, pos));
    return -1;
  }
}

/** A varint length at pos: [value, bytes used], or a Stop. */
function varint(bytes: Uint8Array, pos: number): [number, number] {
  let value = 0;
  for (let i = 0; i < 5; i++) {
    if (pos + i >= bytes.length) throw new Stop(bytes.length, 'the length prefix is cut short', 'truncated');
    const b = bytes[pos + i];
    value += (b & 0x7f) * 2 ** (7 * i);
    if (!(b & 0x80)) return [value, i + 1];
  }
  throw new Stop(pos, 'the length prefix is longer than 5 bytes', 'invalid-varint');
}

/** MessagePack records: a varint length, then a MessagePack array of exactly that many bytes. */
function readMsgpackRecord(index: SpanIndex, data: SignalrData, parent: number, pos: number): number {
  const { bytes } = index;
  const record = openContainer(index, parent, null, Kind.map, pos);
  try {
    const [length, used] = varint(bytes, pos);
    field(index, record, 'length', pos, pos + used, length, Kind.uint);
    const start = pos + used;
    const end = start + length;
    if (length === 0) throw new Stop(start, 'a message of length 0');
    if (end > bytes.length)
      throw new Stop(
        bytes.length,
        `the length says ${grouped(length)} bytes but ${grouped(bytes.length - start)} remain`,
        'truncated',
      );
    const sub = new SpanIndex(bytes.subarray(start, end), msgpackWalker, { depth: 1 });
    if (sub.error)
      throw new Stop(start + sub.error.offset, `message: ${sub.error.message.replace(/ at byte \d+$/, '')}`);
    if (sub.store.kind[0] !== Kind.array) throw new Stop(start, 'a SignalR MessagePack message is an array');
    if (sub.store.end[0] !== length)
      throw new Stop(
        start + sub.store.end[0],
        `the array ends ${grouped(length - sub.store.end[0])} bytes before its length`,
      );
    const items = sub.children(0);
    const type = items.length ? sub.value(items[0]) : undefined;
    if (typeof type !== 'number' || !SIGNALR_TYPES[type])
      throw new Stop(
        items.length ? start + sub.store.start[items[0]] : start,
        `${items.length ? JSON.stringify(typeof type === 'bigint' ? String(type) : type) : 'an empty array'} is not a SignalR message type (1-9)`,
      );
    const names = MSGPACK_ITEMS[type];
    const required = names.filter((n) => !n.endsWith('?')).length;
    if (items.length - 1 < required || items.length - 1 > names.length)
      throw new Stop(
        start,
        `a ${SIGNALR_TYPES[type]} has ${required === names.length ? required : `${required}-${names.length}`} items after its type, not ${items.length - 1}`,
      );
    const message = openContainer(index, record, 'message', Kind.map, start, sub.headerLength(0));
    adoptNode(index, message, 'type', sub, items[0], start);
    const values: Record<string, unknown> = {};
    items.slice(1).forEach((item, i) => {
      let name = names[i].replace('?', '');
      if (type === 3 && name === 'result' && values.resultKind === 1) name = 'error';
      if (!sub.isContainer(item)) values[name] = sub.value(item);
      adoptNode(index, message, name, sub, item, start);
    });
    closeContainer(index, message, end);
    closeContainer(index, record, end);
    data.messages.push({
      name: SIGNALR_TYPES[type],
      type,
      target: asText(values.target),
      invocationId: asText(values.invocationId),
      node: record,
    });
    return end;
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
    index.fail(e.code, e.at, e.message);
    markIncomplete(index, record, Math.max(e.at, pos));
    return -1;
  }
}

/** Where the first record ends, without recording: several records make the root an array. */
function firstRecordEnd(bytes: Uint8Array, json: boolean): number {
  if (json) return bytes.indexOf(RECORD_SEPARATOR) + 1;
  try {
    const [length, used] = varint(bytes, 0);
    return used + length;
  } catch {
    return -1;
  }
}

function walkFrame(index: SpanIndex): void {
  const { bytes } = index;
  const data = initParts(index) as SignalrData;
  data.messages = [];
  const json = opensJsonRecord(bytes);
  data.encoding = json ? 'json' : 'messagepack';
  if (bytes.length === 0) {
    index.fail('empty-input', 0, 'a SignalR frame holds at least one message');
    return;
  }
  const first = firstRecordEnd(bytes, json);
  const several = first > 0 && first < bytes.length;
  const root = several ? openContainer(index, -1, null, Kind.array, 0) : -1;
  let pos = 0;
  do {
    // A MessagePack connection's handshake records are JSON too.
    pos = opensJsonRecord(bytes.subarray(pos))
      ? readJsonRecord(index, data, root, pos)
      : readMsgpackRecord(index, data, root, pos);
  } while (several && pos > 0 && pos < bytes.length);
  if (root >= 0) {
    if (index.error) markIncomplete(index, root, bytes.length);
    else closeContainer(index, root, bytes.length);
  }
}

export const signalrWalker = protocolWalker('signalr', walkFrame, (index) => {
  const messages = signalrMessages(index);
  if (index.store.kind[0] === Kind.array) return `signalr ${messages.length} messages`;
  return messages[0] ? `signalr ${messages[0].name}` : 'signalr';
});
