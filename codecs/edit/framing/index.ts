/**
 * Edit the inner value of a framed frame, the framing rebuilt around it: Socket.IO, MQTT
 * PUBLISH, STOMP, and the JSON framings (Phoenix, GraphQL over WebSocket, Centrifugo, WAMP).
 * The edit text (framed-text.ts) shows the framing's fields and the value in its own
 * notation; unchanged, it gives back the original bytes.
 */
import type { EditResult } from '../edit-error.js';
import { editError } from '../edit-error.js';
import type { Framing, FramingName } from './framing.js';
import {
  centrifugoFraming,
  graphqlWsFraming,
  phoenixFraming,
  subscriptionsTransportWsFraming,
  wampFraming,
} from './json-framings.js';
import { mqttFraming } from './mqtt.js';
import { socketIoFraming } from './socketio.js';
import { stompFraming } from './stomp.js';

export type { Framing, FramingName } from './framing.js';
export { type InnerNotation, innerBytes, innerSource } from './inner-value.js';

export const FRAMINGS: Readonly<Record<FramingName, Framing>> = {
  socketio: socketIoFraming,
  mqtt: mqttFraming,
  stomp: stompFraming,
  phoenix: phoenixFraming,
  'graphql-ws': graphqlWsFraming,
  'subscriptions-transport-ws': subscriptionsTransportWsFraming,
  centrifugo: centrifugoFraming,
  wamp: wampFraming,
};

export const FRAMING_NAMES = Object.keys(FRAMINGS) as readonly FramingName[];

export function isFramingName(name: string): name is FramingName {
  return Object.hasOwn(FRAMINGS, name);
}

/** The framing `bytes` are edited in, given what the frame read as (its format and recognized protocol), and its edit text. */
export function framedSource(
  bytes: Uint8Array,
  format: string | null,
  protocol: string | null,
): { readonly framing: FramingName; readonly text: string } | null {
  const name: string | null =
    format === 'socketio' || format === 'mqtt' || format === 'stomp' ? format : format === 'json' ? protocol : null;
  if (!name || !isFramingName(name)) return null;
  const text = FRAMINGS[name].source(bytes);
  return text === null ? null : { framing: name, text };
}

/** The frame an edit text gives, `original` the frame edited in `framing`. */
export function framedFromText(framing: FramingName, original: Uint8Array, text: string): EditResult {
  const f = FRAMINGS[framing];
  return f ? f.build(original, text) : { ok: false, error: editError(text, 0, `unknown framing ${framing}`) };
}
