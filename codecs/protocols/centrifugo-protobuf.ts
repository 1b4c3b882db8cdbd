import { Kind } from '../core/kinds.js';
import { SpanIndex, type FormatWalker } from '../core/span-index.js';
import { loadSchema, lookupMessage } from '../protobuf/schema/load.js';
import { delimitedSchemaWalker } from '../protobuf/schema/walker.js';
import { schemaData } from '../protobuf/schema/data.js';
import { schemaLeafValue } from '../protobuf/schema/value.js';
import { CENTRIFUGO_PACKAGE, CENTRIFUGO_PROTO, CENTRIFUGO_PROTO_NAME } from './centrifugo-proto.js';
import type { ProtocolInfo } from './protocol-info.js';

/**
 * Centrifugo over Protobuf (subprotocol `centrifuge-protobuf`): a binary frame is one or more
 * varint-length-delimited messages, `Command`s from the client and `Reply`s from the server.
 * `readCentrifugoProtobuf` reads a frame with the schema walker (field names, nested
 * messages; a Publication's `data` bytes open as JSON / CBOR / … by the nested-value rules),
 * each message's node headed by its length prefix. Nothing throws: a bad length or field is
 * the index's error with its offset, the messages before it kept.
 */
export type CentrifugoSide = 'command' | 'reply';

export interface CentrifugoReadOptions {
  /** `sent` (client → server: commands) or `received` (replies); unknown: the better reading of the two. */
  readonly direction?: 'sent' | 'received';
  /** Levels to record (the schema walk records the whole frame regardless). */
  readonly depth?: number;
}

let walkers: Record<CentrifugoSide, FormatWalker> | null = null;

/** The Command / Reply walkers, built once from wirescope's own `.proto` text. */
export function centrifugoWalkers(): Record<CentrifugoSide, FormatWalker> {
  if (walkers) return walkers;
  const loaded = loadSchema([{ name: CENTRIFUGO_PROTO_NAME, source: CENTRIFUGO_PROTO }]);
  if (!loaded.ok) throw new Error(`the built-in Centrifugo schema does not load: ${loaded.error}`);
  const command = lookupMessage(loaded.schema, `${CENTRIFUGO_PACKAGE}.Command`)!;
  const reply = lookupMessage(loaded.schema, `${CENTRIFUGO_PACKAGE}.Reply`)!;
  walkers = { command: delimitedSchemaWalker(command), reply: delimitedSchemaWalker(reply) };
  return walkers;
}

/** Reads a frame as Centrifugo Protobuf commands (sent) or replies (received). */
export function readCentrifugoProtobuf(bytes: Uint8Array, options: CentrifugoReadOptions = {}): SpanIndex {
  const w = centrifugoWalkers();
  const depth = options.depth ?? 1;
  if (options.direction === 'sent') return new SpanIndex(bytes, w.command, { depth });
  if (options.direction === 'received') return new SpanIndex(bytes, w.reply, { depth });
  const asCommand = new SpanIndex(bytes, w.command, { depth });
  const asReply = new SpanIndex(bytes, w.reply, { depth });
  return fitScore(asReply) > fitScore(asCommand) ? asReply : asCommand;
}

/** Higher is a better reading: whole, with known fields and no unknown ones. */
function fitScore(index: SpanIndex): number {
  const d = schemaData(index);
  return (index.error ? -1000 : 0) - 10 * (d.unknownFields + d.wireMismatches) + d.knownFields;
}

/** Which side a frame read by `readCentrifugoProtobuf` is, or null for any other index. */
export function centrifugoSide(index: SpanIndex): CentrifugoSide | null {
  if (!walkers) return null;
  return index.walker === walkers.command ? 'command' : index.walker === walkers.reply ? 'reply' : null;
}

export interface CentrifugoMessage {
  /** The message's node (its head is the length prefix). */
  readonly node: number;
  readonly id?: number;
  /** The command or reply field that is set (`connect`, `subscribe`, `push`, …), `ping` for an empty message. */
  readonly method: string;
  /** The channel it names (a push's, a subscribe's, a publication's). */
  readonly channel?: string;
  /** A push's kind (`pub`, `join`, `leave`, …). */
  readonly push?: string;
}

/** Field name → value node of a message node's fields (one level). */
function fieldsOf(index: SpanIndex, message: number): Map<string, number> {
  const out = new Map<string, number>();
  const { store } = index;
  for (let key = store.firstChild[message]; key >= 0; ) {
    const value = store.nextSibling[key];
    if (value < 0) break;
    const name = schemaLeafValue(index, key);
    if (typeof name === 'string') out.set(name, value);
    key = store.nextSibling[value];
  }
  return out;
}

function leafString(index: SpanIndex, id: number | undefined): string | undefined {
  if (id === undefined || index.store.kind[id] !== Kind.text) return undefined;
  const v = schemaLeafValue(index, id);
  return typeof v === 'string' ? v : undefined;
}

/** The messages of a Centrifugo Protobuf frame, in order. */
export function centrifugoMessages(index: SpanIndex): CentrifugoMessage[] {
  if (!centrifugoSide(index) || index.root < 0) return [];
  const out: CentrifugoMessage[] = [];
  const { store } = index;
  for (let m = store.firstChild[index.root]; m >= 0; m = store.nextSibling[m]) {
    const f = fieldsOf(index, m);
    const idNode = f.get('id');
    const id = idNode !== undefined ? Number(schemaLeafValue(index, idNode)) : undefined;
    const method = [...f.keys()].find((k) => k !== 'id' && k !== 'error') ?? (f.has('error') ? 'error' : 'ping');
    const body = f.get(method);
    let channel: string | undefined;
    let push: string | undefined;
    if (body !== undefined && store.kind[body] === Kind.map) {
      const b = fieldsOf(index, body);
      channel = leafString(index, b.get('channel'));
      if (method === 'push') push = [...b.keys()].find((k) => k !== 'id' && k !== 'channel');
    }
    out.push({ node: m, id, method, channel, push });
  }
  return out;
}

/**
 * The list row's protocol for a Centrifugo Protobuf frame: the first message's method (with
 * the count of the others), the channels named, the first id; pings (empty messages) quiet.
 */
export function centrifugoProtobufInfo(index: SpanIndex): ProtocolInfo | null {
  const messages = centrifugoMessages(index);
  const first = messages[0];
  if (!first) return null;
  const channels = [...new Set(messages.map((m) => m.channel).filter((c): c is string => c !== undefined))];
  const message =
    (first.push ? `push ${first.push}` : first.method) + (messages.length > 1 ? ` +${messages.length - 1}` : '');
  return {
    protocol: 'centrifugo',
    message,
    event: channels.length ? channels.join(' ') : undefined,
    id: first.id !== undefined && first.id !== 0 ? String(first.id) : undefined,
    quiet: messages.every((m) => m.method === 'ping'),
  };
}
