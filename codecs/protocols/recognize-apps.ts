/**
 * JSON protocols of hosted and framework services, recognized from a frame's top two levels:
 * Pusher Channels (protocol 7), Rails' Action Cable, Nostr (NIP-01) and the client side of
 * SockJS. Each names its message and fills the event / topic column with the channel or
 * subscription.
 */
import { Kind } from '../core/kinds.js';
import type { SpanIndex } from '../core/span-index.js';
import type { ProtocolInfo } from './protocol-info.js';
import { fields, leaf, str } from './recognize-fields.js';

const PUSHER_KEYS = new Set(['event', 'data', 'channel', 'user_id']);

/**
 * Pusher: `{event, data?, channel?}` where the event is `pusher:…` / `pusher_internal:…`, or
 * an app or client event on a channel (`data` then a JSON-encoded string or a value). The
 * channel of `pusher:subscribe` is inside its data.
 */
export function pusherInfo(index: SpanIndex, f: Map<string, number>): ProtocolInfo | null {
  const event = leaf(index, f.get('event'));
  if (typeof event !== 'string' || ![...f.keys()].every((k) => PUSHER_KEYS.has(k))) return null;
  const internal = event.startsWith('pusher:') || event.startsWith('pusher_internal:');
  if (!internal && !(f.has('channel') && f.has('data'))) return null;
  let channel = str(leaf(index, f.get('channel')));
  const data = f.get('data');
  if (channel === undefined && data !== undefined && index.store.kind[data] === Kind.map)
    channel = str(leaf(index, fields(index, data).get('channel')));
  return {
    protocol: 'pusher',
    message: event,
    event: channel,
    quiet: event === 'pusher:ping' || event === 'pusher:pong',
  };
}

const CABLE_TYPES = new Set(['welcome', 'ping', 'confirm_subscription', 'reject_subscription', 'disconnect']);
const CABLE_SERVER_KEYS = new Set(['type', 'message', 'identifier', 'reason', 'reconnect', 'sid']);
const CABLE_COMMANDS = new Set(['subscribe', 'unsubscribe', 'message']);

/** The channel an Action Cable identifier (a JSON-encoded string) names, with its other params. */
function cableChannel(identifier: unknown): string | undefined {
  if (typeof identifier !== 'string') return undefined;
  try {
    const parsed = JSON.parse(identifier) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return identifier;
    const { channel, ...params } = parsed as Record<string, unknown>;
    const rest = Object.entries(params)
      .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join(' ');
    return [typeof channel === 'string' ? channel : undefined, rest].filter(Boolean).join(' ') || identifier;
  } catch {
    return identifier;
  }
}

/** The action a client's `message` command performs (`{"action":"speak",…}` in its data string). */
function cableAction(data: unknown): string | undefined {
  if (typeof data !== 'string') return undefined;
  try {
    const parsed = JSON.parse(data) as { action?: unknown } | null;
    return typeof parsed?.action === 'string' ? parsed.action : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Action Cable (`actioncable-v1-json`): the server's `{type: welcome | ping |
 * confirm_subscription | reject_subscription | disconnect, …}` and broadcasts
 * `{identifier, message}`; the client's `{command, identifier, data?}`. The channel comes
 * from the identifier (itself JSON in a string).
 */
export function actionCableInfo(index: SpanIndex, f: Map<string, number>, subprotocol: string): ProtocolInfo | null {
  const keys = [...f.keys()];
  const identifier = leaf(index, f.get('identifier'));
  const type = leaf(index, f.get('type'));
  if (typeof type === 'string' && CABLE_TYPES.has(type) && keys.every((k) => CABLE_SERVER_KEYS.has(k))) {
    const fits =
      type === 'welcome' ||
      (type === 'ping' && typeof leaf(index, f.get('message')) === 'number') ||
      (type === 'disconnect' && f.has('reason')) ||
      (type.endsWith('_subscription') && typeof identifier === 'string');
    if (!fits && !subprotocol.startsWith('actioncable')) return null;
    return { protocol: 'actioncable', message: type, event: cableChannel(identifier), quiet: type === 'ping' };
  }
  if (keys.length === 2 && f.has('identifier') && f.has('message') && typeof identifier === 'string')
    return { protocol: 'actioncable', message: 'broadcast', event: cableChannel(identifier) };
  const command = leaf(index, f.get('command'));
  if (
    typeof command === 'string' &&
    CABLE_COMMANDS.has(command) &&
    typeof identifier === 'string' &&
    keys.every((k) => k === 'command' || k === 'identifier' || k === 'data')
  ) {
    const action = command === 'message' ? cableAction(leaf(index, f.get('data'))) : undefined;
    return {
      protocol: 'actioncable',
      message: action ? `message (${action})` : command,
      event: cableChannel(identifier),
    };
  }
  return null;
}

/** Nostr NIP-01 messages: the label, then the shape its items must have. */
const NOSTR_SHAPES: Record<string, (kinds: readonly number[], leaves: readonly unknown[]) => boolean> = {
  // Client: ["EVENT", event]; relay: ["EVENT", subscription, event].
  EVENT: (k, v) =>
    (k.length === 2 && k[1] === Kind.map) || (k.length === 3 && typeof v[1] === 'string' && k[2] === Kind.map),
  REQ: (k, v) => k.length >= 2 && typeof v[1] === 'string' && k.slice(2).every((x) => x === Kind.map),
  COUNT: (k, v) => k.length >= 3 && typeof v[1] === 'string' && k.slice(2).every((x) => x === Kind.map),
  CLOSE: (k, v) => k.length === 2 && typeof v[1] === 'string',
  EOSE: (k, v) => k.length === 2 && typeof v[1] === 'string',
  OK: (k, v) => k.length === 4 && typeof v[1] === 'string' && /^[0-9a-f]{64}$/.test(v[1]) && typeof v[2] === 'boolean',
  NOTICE: (k, v) => k.length === 2 && typeof v[1] === 'string',
  CLOSED: (k, v) => k.length === 3 && typeof v[1] === 'string' && typeof v[2] === 'string',
  AUTH: (k, v) => k.length === 2 && (typeof v[1] === 'string' || k[1] === Kind.map),
};

/**
 * Nostr (NIP-01): `["EVENT", …]`, `["REQ", sub, filters…]`, `["OK", id, accepted, message]`, …
 * The event / topic column holds the subscription id, else the event's kind.
 */
export function nostrInfo(index: SpanIndex, items: readonly number[]): ProtocolInfo | null {
  const label = leaf(index, items[0]);
  if (typeof label !== 'string' || !Object.hasOwn(NOSTR_SHAPES, label)) return null;
  const kinds = items.map((id) => index.store.kind[id]);
  const leaves = items.map((id) => leaf(index, id));
  if (!NOSTR_SHAPES[label](kinds, leaves)) return null;
  let event: string | undefined;
  let id: string | undefined;
  if (label === 'OK') id = leaves[1] as string;
  else if (label !== 'NOTICE' && label !== 'AUTH' && typeof leaves[1] === 'string') event = leaves[1];
  const eventNode =
    label === 'EVENT' || label === 'AUTH' ? items.find((_, i) => i > 0 && kinds[i] === Kind.map) : undefined;
  if (eventNode !== undefined) {
    const f = fields(index, eventNode);
    const kind = leaf(index, f.get('kind'));
    id = str(leaf(index, f.get('id')));
    if (typeof kind === 'number') event = event ? `${event} kind ${kind}` : `kind ${kind}`;
  }
  return { protocol: 'nostr', message: label, event, id };
}

/** SockJS' client frames: a JSON array of strings (each a message), on a connection known as SockJS. */
export function sockjsClientInfo(index: SpanIndex, items: readonly number[]): ProtocolInfo | null {
  if (!items.every((id) => index.store.kind[id] === Kind.text)) return null;
  return { protocol: 'sockjs', message: items.length === 1 ? 'send' : `send ×${items.length}` };
}
