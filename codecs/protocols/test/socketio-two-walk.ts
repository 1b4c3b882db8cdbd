import { Flag, Kind } from '../../core/kinds.js';
import { SpanIndex, type FormatWalker } from '../../core/span-index.js';
import { jsonWalker } from '../../json/walker.js';

/**
 * The Socket.IO walker as it was before the payload was walked in place: it
 * validated the JSON payload in an index of its own at depth 0, copied that root into the
 * frame's index, then walked it a second time to record its children. Kept unchanged (but
 * for its import paths and exported names) as the reference the one-walk walker must equal
 * node for node: socketio-one-walk.test.ts. (With the socket.io 2.x differences the walker
 * reads too: a namespace's query, ERROR's string payload.)
 */
const ENGINE_IO_TYPES = ['open', 'close', 'ping', 'pong', 'message', 'upgrade', 'noop'] as const;
const SOCKET_IO_TYPES = [
  'CONNECT',
  'DISCONNECT',
  'EVENT',
  'ACK',
  'CONNECT_ERROR',
  'BINARY_EVENT',
  'BINARY_ACK',
] as const;

interface SocketIoPacket {
  readonly engineType: (typeof ENGINE_IO_TYPES)[number];
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
  /** Values of the header nodes (keys are names, header parts their meaning). */
  readonly values: Map<number, unknown>;
  packet: SocketIoPacket | null;
}

export function twoWalkPacket(index: SpanIndex): SocketIoPacket | null {
  return (index.formatData as SocketIoData | null)?.packet ?? null;
}

export const twoWalkSocketIoWalker: FormatWalker = {
  format: 'json',
  walk(index, node, depth) {
    if (node < 0) walkPacket(index, depth);
    else if (!(index.formatData as SocketIoData).values.has(node)) jsonWalker.walk(index, node, depth);
  },
  leafValue(index, node) {
    const values = (index.formatData as SocketIoData).values;
    return values.has(node) ? values.get(node) : jsonWalker.leafValue(index, node);
  },
  describe(index, node) {
    const values = (index.formatData as SocketIoData).values;
    const { store } = index;
    if (node === 0) {
      const p = twoWalkPacket(index);
      return p ? (p.socketType ? `socket.io ${p.socketType}` : `engine.io ${p.engineType}`) : 'socket.io';
    }
    if (values.has(node)) return store.flags[node] & Flag.key ? 'key' : 'header';
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

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Reads `digits` at pos: [value, end] or null. */
function readInt(bytes: Uint8Array, pos: number, end: number): [number, number] | null {
  let i = pos;
  let v = 0;
  while (i < end && isDigit(bytes[i]) && i - pos < 15) v = v * 10 + (bytes[i++] - 0x30);
  return i > pos ? [v, i] : null;
}

function walkPacket(index: SpanIndex, depth: number): void {
  const { bytes, store } = index;
  const len = bytes.length;
  const data: SocketIoData = { values: new Map(), packet: null };
  index.formatData = data;
  const root = store.add(Kind.map, 0, 0, 0, -1, -1);
  store.setEnd(root, len);
  if (depth >= 1) store.addFlags(root, Flag.expanded);
  let prev = -1;
  let entries = 0;
  /** Records `name: value` where the value spans [start, end) of the frame. */
  const part = (name: string, start: number, end: number, value: unknown, kind: number = Kind.text): void => {
    entries++;
    if (depth < 1) return;
    const key = store.add(Kind.text, start, 0, name.length, root, prev);
    store.setEnd(key, start);
    store.addFlags(key, Flag.key);
    data.values.set(key, name);
    const v = store.add(kind, start, 0, end - start, root, key);
    store.setEnd(v, end);
    data.values.set(v, value);
    prev = v;
  };
  const fail = (code: Parameters<SpanIndex['fail']>[0], at: number, message: string): void => {
    index.fail(code, at, message);
    store.addFlags(root, Flag.incomplete);
    store.setArg(root, entries);
  };

  if (len === 0 || !isDigit(bytes[0]) || bytes[0] > 0x36)
    return fail('invalid-token', 0, 'not an Engine.IO packet: the first byte must be a type digit 0-6');
  const engineType = ENGINE_IO_TYPES[bytes[0] - 0x30];
  part('engine.io', 0, 1, engineType);
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
    part('socket.io', pos, pos + 1, socketType);
    socketNode = prev;
    pos++;
    if (socketType === 'BINARY_EVENT' || socketType === 'BINARY_ACK') {
      const n = readInt(bytes, pos, len);
      if (!n || bytes[n[1]] !== 0x2d)
        return fail('invalid-token', pos, `${socketType} needs an attachment count followed by '-'`);
      attachments = n[0];
      part('attachments', pos, n[1] + 1, attachments, Kind.number);
      pos = n[1] + 1;
    }
    if (bytes[pos] === 0x2f) {
      let comma = pos;
      while (comma < len && bytes[comma] !== 0x2c && bytes[comma] !== 0x5b && bytes[comma] !== 0x7b) comma++;
      const query = bytes.subarray(pos, comma).indexOf(0x3f);
      const nameEnd = query >= 0 ? pos + query : comma;
      namespace = new TextDecoder().decode(bytes.subarray(pos, nameEnd));
      const end = bytes[comma] === 0x2c ? comma + 1 : comma;
      part('namespace', pos, query >= 0 ? nameEnd : end, namespace);
      if (query >= 0) part('query', nameEnd, end, new TextDecoder().decode(bytes.subarray(nameEnd + 1, comma)));
      pos = end;
    }
    const id = readInt(bytes, pos, len);
    if (id) {
      ack = id[0];
      part('ack', pos, id[1], ack, Kind.number);
      pos = id[1];
    }
  }
  if (pos < len) {
    const v2Error = socketType === 'CONNECT_ERROR' && bytes[pos] === 0x22;
    const isJson =
      bytes[pos] === 0x7b || bytes[pos] === 0x5b || v2Error || (engineType !== 'message' && bytes[pos] === 0x22);
    if (!isJson || socketType === null) {
      // Engine.IO's own payloads (open's JSON handshake aside) are plain text: `2probe`, or a
      // message sent with the engine alone (`4hello`).
      if (isJson && engineType !== 'message') {
        payloadNode = jsonPart(
          index,
          pos,
          len,
          depth,
          () => prev,
          (id) => ((prev = id), entries++),
          root,
          data,
        );
        if (payloadNode === -2) return;
      } else {
        part('data', pos, len, new TextDecoder().decode(bytes.subarray(pos)));
        payloadNode = prev;
      }
    } else {
      payloadNode = jsonPart(
        index,
        pos,
        len,
        depth,
        () => prev,
        (id) => ((prev = id), entries++),
        root,
        data,
      );
      if (payloadNode === -2) return;
      if (v2Error) {
        socketType = 'ERROR';
        if (socketNode >= 0) data.values.set(socketNode, socketType);
      }
      if ((socketType === 'EVENT' || socketType === 'BINARY_EVENT') && bytes[pos] === 0x5b)
        event = eventName(index, payloadNode, pos, len);
    }
  }
  store.setArg(root, entries);
  data.packet = { engineType, socketType, attachments, namespace, ack, data: payloadNode, event };
}

/** The event name: the payload array's first item when it is a string. */
function eventName(index: SpanIndex, payload: number, start: number, end: number): string | null {
  // Unrecorded payload (depth 0): read its first level on the side.
  const ix = payload >= 0 ? index : new SpanIndex(index.bytes.subarray(start, end), jsonWalker, { depth: 1 });
  const arr = payload >= 0 ? payload : ix.root;
  if (ix.store.kind[arr] !== Kind.array) return null;
  const first = ix.children(arr)[0];
  return first !== undefined && ix.store.kind[first] === Kind.text ? String(jsonWalker.leafValue(ix, first)) : null;
}

/** Records `data:` as a JSON value spanning [start, end): its id, -1 when not recorded (depth 0), -2 after an error. */
function jsonPart(
  index: SpanIndex,
  start: number,
  end: number,
  depth: number,
  prev: () => number,
  recorded: (id: number) => void,
  root: number,
  data: SocketIoData,
): number {
  const { bytes, store } = index;
  const json = new SpanIndex(bytes.subarray(start, end), jsonWalker, { depth: 0 });
  const js = json.store;
  if (json.root < 0 || json.error) {
    const at = json.error ? start + json.error.offset : start;
    index.fail(
      json.error?.code ?? 'invalid-token',
      at,
      `in the packet's JSON payload: ${(json.error?.message ?? 'no JSON value').replace(/ at byte \d+$/, '')}`,
    );
    store.addFlags(root, Flag.incomplete);
    if (json.root < 0 || depth < 1) return -2;
  }
  if (depth < 1) {
    recorded(-1);
    return -1;
  }
  const key = store.add(Kind.text, start, 0, 4, root, prev());
  store.setEnd(key, start);
  store.addFlags(key, Flag.key);
  data.values.set(key, 'data');
  const id = store.add(js.kind[0], start + js.start[0], js.head[0], js.arg[0], root, key);
  store.setEnd(id, start + js.end[0]);
  store.addFlags(id, js.flags[0] & ~Flag.expanded);
  for (const w of json.warnings) index.warn({ ...w, offset: start + w.offset, node: id });
  recorded(id);
  if (json.error) return -2;
  if (depth > 1 && (js.kind[0] === Kind.array || js.kind[0] === Kind.map)) jsonWalker.walk(index, id, depth - 1);
  return id;
}
