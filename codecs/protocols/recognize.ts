import { Kind } from '../core/kinds.js';
import type { SpanIndex } from '../core/span-index.js';
import { SOCKET_IO_TYPES, socketIoPacket } from './socketio-walker.js';
import { mqttPackets } from './mqtt-walker.js';
import { stompFrames } from './stomp-walker.js';
import { phoenixBinary } from './phoenix-walker.js';
import { yjsProtocolInfo } from '../yjs/protocol-info.js';
import { isEngineIoBinary } from './engineio-binary.js';
import { centrifugoProtobufInfo, centrifugoSide, readCentrifugoProtobuf } from './centrifugo-protobuf.js';
import type { ProtocolInfo } from './protocol-info.js';
import { fields, leaf, str } from './recognize-fields.js';
import { actionCableInfo, nostrInfo, pusherInfo, sockjsClientInfo } from './recognize-apps.js';
import { signalrMessages } from './signalr-walker.js';
import { sockjsFrame } from './sockjs-walker.js';
export type { ProtocolInfo } from './protocol-info.js';

export interface RecognizeContext {
  /** The WebSocket subprotocol the connection negotiated (`graphql-transport-ws`, `wamp.2.json`, …). */
  readonly subprotocol?: string;
  /** The format most of the connection's frames read as (`sockjs`: its client frames are SockJS too). */
  readonly connectionFormat?: string | null;
  /** A handshake the connection's earlier frames showed (`handshakeOf`): `graphql` after a `connection_init` / `connection_ack`. */
  readonly handshake?: string;
}

/**
 * The handshake a recognized message is, if any: what makes a connection's later messages
 * of that protocol credible even where their shape alone is too common to claim it.
 */
export function handshakeOf(info: ProtocolInfo | null): string | undefined {
  if (info?.protocol !== 'graphql-ws' && info?.protocol !== 'subscriptions-transport-ws') return undefined;
  return info.message === 'connection_init' || info.message === 'connection_ack' ? 'graphql' : undefined;
}

/**
 * GraphQL-over-WebSocket messages shaped as many apps' own heartbeats (`{"type":"ping"}`):
 * GraphQL only on a connection that says so, by its subprotocol or its handshake.
 */
const GRAPHQL_COMMON_SHAPES = new Set(['ping', 'pong']);

const GRAPHQL_WS = new Set([
  'connection_init',
  'connection_ack',
  'ping',
  'pong',
  'subscribe',
  'next',
  'error',
  'complete',
]);
const SUBSCRIPTIONS_TRANSPORT_WS = new Set([
  'connection_init',
  'connection_ack',
  'ka',
  'start',
  'data',
  'stop',
  'complete',
  'connection_error',
  'connection_terminate',
  'error',
]);
const WAMP_CODES: Record<number, string> = {
  1: 'HELLO',
  2: 'WELCOME',
  3: 'ABORT',
  4: 'CHALLENGE',
  5: 'AUTHENTICATE',
  6: 'GOODBYE',
  8: 'ERROR',
  16: 'PUBLISH',
  17: 'PUBLISHED',
  32: 'SUBSCRIBE',
  33: 'SUBSCRIBED',
  34: 'UNSUBSCRIBE',
  35: 'UNSUBSCRIBED',
  36: 'EVENT',
  48: 'CALL',
  49: 'CANCEL',
  50: 'RESULT',
  64: 'REGISTER',
  65: 'REGISTERED',
  66: 'UNREGISTER',
  67: 'UNREGISTERED',
  68: 'INVOCATION',
  69: 'INTERRUPT',
  70: 'YIELD',
};
const ENVELOPE_MAX_ENTRIES = 16;

/** Where a WAMP message names its realm, topic, procedure or error URI. */
const WAMP_NAME_AT: Record<number, number> = { 1: 1, 3: 2, 6: 2, 8: 4, 16: 3, 32: 3, 48: 3, 64: 3 };
const CENTRIFUGO_COMMANDS = [
  'connect',
  'subscribe',
  'unsubscribe',
  'publish',
  'presence',
  'presence_stats',
  'history',
  'ping',
  'send',
  'rpc',
  'refresh',
  'sub_refresh',
];
const CENTRIFUGO_REPLY_KEYS = ['push', 'error', ...CENTRIFUGO_COMMANDS];

export function recognizeProtocol(
  index: SpanIndex | null,
  format: string | null,
  context: RecognizeContext = {},
): ProtocolInfo | null {
  if (!index || index.root < 0 || index.error) return null;
  if (format === 'socketio') {
    const p = socketIoPacket(index);
    // Engine.IO v3's binary frames (`04` + data): whose attachment it is, the worker knows.
    if (!p) return isEngineIoBinary(index) ? { protocol: 'engine.io', message: 'binary message' } : null;
    if (!p.socketType)
      return {
        protocol: 'engine.io',
        message: p.engineType,
        quiet: p.engineType === 'ping' || p.engineType === 'pong' || p.engineType === 'noop',
      };
    return {
      protocol: 'socket.io',
      message: p.socketType,
      event: p.event ?? (p.namespace !== '/' ? p.namespace : undefined),
      id: p.ack !== null ? String(p.ack) : undefined,
      ...(p.attachments > 0 ? { attachments: p.attachments } : {}),
    };
  }
  // Centrifugo's Protobuf commands / replies (read by readCentrifugoProtobuf); a raw Protobuf
  // reading on a `centrifuge-protobuf` connection is read again as them.
  if (format === 'protobuf') {
    if (centrifugoSide(index)) return centrifugoProtobufInfo(index);
    if (context.subprotocol !== 'centrifuge-protobuf') return null;
    const read = readCentrifugoProtobuf(index.bytes);
    return read.error ? null : centrifugoProtobufInfo(read);
  }
  if (format === 'yjs') return yjsProtocolInfo(index);
  if (format === 'mqtt') return mqttInfo(index);
  if (format === 'signalr') return signalrInfo(index);
  if (format === 'sockjs') return sockjsInfo(index);
  if (format === 'stomp') return stompInfo(index);
  if (format === 'phoenix') {
    const m = phoenixBinary(index);
    return m
      ? {
          protocol: 'phoenix',
          message: m.kind === 'reply' ? 'phx_reply' : m.event,
          event: m.topic,
          id: m.ref ?? undefined,
          quiet: m.topic === 'phoenix',
        }
      : null;
  }
  if (format !== 'json' && format !== 'cbor' && format !== 'msgpack' && format !== 'ndjson') return null;
  if (format !== 'ndjson') return recognizeValue(index, index.root, context);
  // A batch (Centrifugo sends several commands or replies per frame, one per line): the first
  // one's type with the count of the others, and the channels they name.
  const values = index.children(index.root);
  const first = values.length ? recognizeValue(index, values[0], context) : null;
  if (!first || values.length === 1) return first;
  const events = new Set<string>();
  for (const v of values.slice(0, 64)) {
    const info = recognizeValue(index, v, context);
    if (info?.protocol === first.protocol && info.event) events.add(info.event);
  }
  return {
    ...first,
    message: `${first.message} +${values.length - 1}`,
    event: events.size ? [...events].join(' ') : undefined,
    quiet: first.quiet && values.length === 1,
  };
}

/** The protocol of one JSON-shaped value (a frame's root, or one value of a batch). */
function recognizeValue(index: SpanIndex, root: number, context: RecognizeContext): ProtocolInfo | null {
  const sub = context.subprotocol ?? '';
  const kind = index.store.kind[root];
  // Protocol envelopes are small: a frame whose top level holds more is data, not a message.
  if (index.store.arg[root] > ENVELOPE_MAX_ENTRIES) return null;
  if (kind === Kind.map) {
    const f = fields(index, root);
    const type = str(leaf(index, f.get('type')));
    const graphqlConnection = sub === 'graphql-transport-ws' || sub === 'graphql-ws' || context.handshake === 'graphql';
    if (
      type &&
      (GRAPHQL_WS.has(type) || SUBSCRIPTIONS_TRANSPORT_WS.has(type)) &&
      (graphqlConnection || !GRAPHQL_COMMON_SHAPES.has(type)) &&
      [...f.keys()].every((k) => k === 'type' || k === 'id' || k === 'payload')
    ) {
      const modern =
        sub === 'graphql-transport-ws' ||
        (sub !== 'graphql-ws' && GRAPHQL_WS.has(type) && !SUBSCRIPTIONS_TRANSPORT_WS.has(type)) ||
        type === 'subscribe' ||
        type === 'next' ||
        type === 'ping' ||
        type === 'pong';
      const protocol = modern ? 'graphql-ws' : 'subscriptions-transport-ws';
      let event: string | undefined;
      const payload = f.get('payload');
      if (payload !== undefined && (type === 'subscribe' || type === 'start')) {
        const pf = fields(index, payload);
        event = str(leaf(index, pf.get('operationName'))) ?? operationName(str(leaf(index, pf.get('query'))));
      }
      return {
        protocol,
        message: type,
        event,
        id: str(leaf(index, f.get('id'))),
        quiet: type === 'ping' || type === 'pong' || type === 'ka',
      };
    }
    // Phoenix v1 (JSON object serializer): {topic, event, payload, ref}.
    if (f.has('topic') && f.has('event') && f.has('payload')) {
      const event = str(leaf(index, f.get('event')));
      const topic = str(leaf(index, f.get('topic')));
      if (event !== undefined && topic !== undefined)
        return {
          protocol: 'phoenix',
          message: event,
          event: topic,
          id: str(leaf(index, f.get('ref'))),
          quiet: event === 'heartbeat' || topic === 'phoenix',
        };
    }
    // Centrifugo JSON protocol: {id, <command>: {...}} / {id, <reply>: {...}} / {push: {channel, pub}}.
    const centrifugo = CENTRIFUGO_REPLY_KEYS.find((k) => f.has(k));
    if (centrifugo && [...f.keys()].every((k) => k === 'id' || CENTRIFUGO_REPLY_KEYS.includes(k))) {
      const body = fields(index, f.get(centrifugo)!);
      return {
        protocol: 'centrifugo',
        message: centrifugo,
        event: str(leaf(index, body.get('channel'))),
        id: str(leaf(index, f.get('id'))),
        quiet: centrifugo === 'ping',
      };
    }
    // centrifuge-js negotiates centrifuge-protobuf (and servers accept centrifuge-json).
    if (f.size === 0 && sub.startsWith('centrifug')) return { protocol: 'centrifugo', message: 'ping', quiet: true };
    const socketIo = socketIoMsgpack(index, f);
    if (socketIo) return socketIo;
    const app = pusherInfo(index, f) ?? actionCableInfo(index, f, sub);
    if (app) return app;
  }
  if (kind === Kind.array) {
    const items = index.children(root);
    const nostr = nostrInfo(index, items);
    if (nostr) return nostr;
    if (context.connectionFormat === 'sockjs' && items.length > 0) {
      const sockjs = sockjsClientInfo(index, items);
      if (sockjs) return sockjs;
    }
    // Phoenix v2: [join_ref, ref, topic, event, payload].
    if (items.length === 5) {
      const [joinRef, ref, topic, event] = items.map((id) => leaf(index, id));
      if (
        typeof topic === 'string' &&
        typeof event === 'string' &&
        (joinRef === null || typeof joinRef === 'string') &&
        (ref === null || typeof ref === 'string')
      ) {
        return {
          protocol: 'phoenix',
          message: event,
          event: topic,
          id: ref ?? undefined,
          quiet: event === 'heartbeat' || topic === 'phoenix',
        };
      }
    }
    // WAMP: [code, ...] with a registered message code; weak on its own, so HELLO/WELCOME shapes or the subprotocol.
    const code = leaf(index, items[0]);
    if (typeof code === 'number' && WAMP_CODES[code] && (sub.startsWith('wamp') || wampShape(index, code, items))) {
      const at = WAMP_NAME_AT[code];
      const name = at !== undefined ? leaf(index, items[at]) : undefined;
      return { protocol: 'wamp', message: WAMP_CODES[code], event: typeof name === 'string' ? name : undefined };
    }
  }
  return null;
}

/** SignalR: the first message's type, its target and invocation id; pings quiet. */
function signalrInfo(index: SpanIndex): ProtocolInfo | null {
  const messages = signalrMessages(index);
  const m = messages[0];
  if (!m) return null;
  const targets = [...new Set(messages.flatMap((x) => (x.target ? [x.target] : [])))];
  return {
    protocol: 'signalr',
    message: messages.length > 1 ? `${m.name} +${messages.length - 1}` : m.name,
    event: targets.length ? targets.join(' ') : m.protocol,
    id: m.invocationId,
    quiet: messages.every((x) => x.name === 'Ping'),
  };
}

/** SockJS: the frame's kind; a close frame's code and reason as its topic; heart-beats quiet. */
function sockjsInfo(index: SpanIndex): ProtocolInfo | null {
  const f = sockjsFrame(index);
  if (!f) return null;
  const message = f.name === 'array' ? (f.messages === 1 ? 'message' : `messages ×${f.messages}`) : f.name;
  const event = f.name === 'close' ? [f.code, f.reason].filter((x) => x !== undefined).join(' ') : undefined;
  return { protocol: 'sockjs', message, event: event || undefined, quiet: f.name === 'heartbeat' };
}

/** STOMP: the command, the destination, the receipt / message id; heart-beats quiet. */
function stompInfo(index: SpanIndex): ProtocolInfo | null {
  const frames = stompFrames(index);
  const f = frames[0];
  if (!f) return null;
  const h = f.headers;
  return {
    protocol: 'stomp',
    message: frames.length > 1 ? `${f.command} +${frames.length - 1}` : f.command,
    event: h.get('destination') ?? h.get('subscription'),
    id: h.get('receipt') ?? h.get('receipt-id') ?? h.get('message-id') ?? h.get('id'),
    quiet: frames.every((x) => x.command === 'heart-beat'),
  };
}

/** MQTT: the first packet's type, its topic (or topic filters) and packet id; pings quiet. */
function mqttInfo(index: SpanIndex): ProtocolInfo | null {
  const packets = mqttPackets(index);
  const p = packets[0];
  if (!p) return null;
  const message = packets.length > 1 ? `${p.type} +${packets.length - 1}` : p.type;
  return {
    protocol: 'mqtt',
    message,
    event: p.topic ?? p.filters?.join(' '),
    id: p.packetId !== undefined ? String(p.packetId) : undefined,
    quiet: packets.every((q) => q.type === 'PINGREQ' || q.type === 'PINGRESP'),
  };
}

/**
 * socket.io-msgpack-parser: every packet is one binary frame, a MessagePack map
 * {type, data, nsp, id, options} (Engine.IO adds nothing to binary frames in v4).
 */
function socketIoMsgpack(index: SpanIndex, f: Map<string, number>): ProtocolInfo | null {
  const type = leaf(index, f.get('type'));
  const nsp = leaf(index, f.get('nsp'));
  if (typeof type !== 'number' || !Number.isInteger(type) || type < 0 || type > 6 || typeof nsp !== 'string')
    return null;
  // The client's packets carry its emit options too ({compress: true}).
  if (![...f.keys()].every((k) => k === 'type' || k === 'data' || k === 'nsp' || k === 'id' || k === 'options'))
    return null;
  const message = SOCKET_IO_TYPES[type];
  let event: string | undefined;
  const data = f.get('data');
  if (
    (message === 'EVENT' || message === 'BINARY_EVENT') &&
    data !== undefined &&
    index.store.kind[data] === Kind.array
  ) {
    if (!index.isExpanded(data)) index.expand(data, 1);
    event = str(leaf(index, index.children(data)[0]));
  }
  return {
    protocol: 'socket.io',
    message,
    event: event ?? (nsp !== '/' ? nsp : undefined),
    id: str(leaf(index, f.get('id'))),
  };
}

/** HELLO [1, realm, {roles…}] and WELCOME [2, session, {…}]: the shapes that open every WAMP session. */
function wampShape(index: SpanIndex, code: number, items: number[]): boolean {
  if (code === 1)
    return (
      items.length === 3 &&
      typeof leaf(index, items[1]) === 'string' &&
      index.store.kind[items[2]] === Kind.map &&
      fields(index, items[2]).has('roles')
    );
  if (code === 2)
    return items.length === 3 && typeof leaf(index, items[1]) === 'number' && index.store.kind[items[2]] === Kind.map;
  return false;
}

/** `subscription OnMessage { … }` → OnMessage. */
function operationName(query: string | undefined): string | undefined {
  const m = query ? /^\s*(?:query|mutation|subscription)\s+([_A-Za-z][_0-9A-Za-z]*)/.exec(query) : null;
  return m ? m[1] : undefined;
}
