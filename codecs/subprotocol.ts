/**
 * What a connection's negotiated WebSocket subprotocol (`Sec-WebSocket-Protocol`) says about
 * its frames: the formats they are written in (ranked first by detection, never forced: a
 * frame the hinted format cannot read keeps the reading another format has) and the framing
 * protocol around them (for the recognizer, `protocols/recognize.ts`).
 */
import type { FormatName } from './core/span-index.js';

export interface SubprotocolHint {
  /** The subprotocol as negotiated (trimmed), to say why: "by subprotocol mqtt". */
  readonly subprotocol: string;
  /** Formats its frames are written in, most likely first (empty: the protocol only). */
  readonly formats: readonly FormatName[];
  /** The framing protocol, as `ProtocolInfo.protocol` names it. */
  readonly protocol: string;
}

/**
 * Registered and common subprotocol names (IANA "WebSocket Subprotocol Name Registry" and the
 * libraries' own), lower case.
 */
const HINTS: ReadonlyMap<string, Omit<SubprotocolHint, 'subprotocol'>> = new Map<
  string,
  Omit<SubprotocolHint, 'subprotocol'>
>([
  ['mqtt', { formats: ['mqtt'], protocol: 'mqtt' }],
  ['mqttv3.1', { formats: ['mqtt'], protocol: 'mqtt' }],
  ['v10.stomp', { formats: ['stomp'], protocol: 'stomp' }],
  ['v11.stomp', { formats: ['stomp'], protocol: 'stomp' }],
  ['v12.stomp', { formats: ['stomp'], protocol: 'stomp' }],
  // graphql-ws (the library) negotiates graphql-transport-ws; subscriptions-transport-ws negotiates graphql-ws.
  ['graphql-transport-ws', { formats: ['json'], protocol: 'graphql-ws' }],
  ['graphql-ws', { formats: ['json'], protocol: 'subscriptions-transport-ws' }],
  ['wamp.2.json', { formats: ['json'], protocol: 'wamp' }],
  ['wamp.2.msgpack', { formats: ['msgpack'], protocol: 'wamp' }],
  ['wamp.2.cbor', { formats: ['cbor'], protocol: 'wamp' }],
  ['centrifuge-json', { formats: ['json', 'ndjson'], protocol: 'centrifugo' }],
  ['centrifuge-protobuf', { formats: ['protobuf'], protocol: 'centrifugo' }],
  // Rails' Action Cable (actioncable-unsupported is what its client offers beside it).
  ['actioncable-v1-json', { formats: ['json'], protocol: 'actioncable' }],
]);

/** The hint a negotiated subprotocol gives, or null (none negotiated, or one wirescope does not know). */
export function subprotocolHint(subprotocol: string | null | undefined): SubprotocolHint | null {
  if (!subprotocol) return null;
  const name = subprotocol.trim();
  const hint = HINTS.get(name.toLowerCase());
  return hint ? { subprotocol: name, ...hint } : null;
}
