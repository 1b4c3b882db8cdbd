import {
  ENGINE_IO_TYPES,
  ENGINE_MESSAGE,
  H_ACK,
  H_ATTACHMENTS,
  H_COMMA,
  H_DASH,
  H_ENGINE,
  H_ERROR,
  H_NAMESPACE,
  H_NAMESPACE_END,
  H_PAYLOAD,
  H_SOCKET,
  HEADER,
  NO_ERROR,
  PAYLOAD_TEXT,
  payloadKind,
  readHeader,
  SOCKET_IO_TYPES,
} from '../../protocols/socketio-header.js';
import { editError } from '../edit-error.js';
import { fail, fieldLines, framedText } from './framed-text.js';
import { concatBytes, type Framing, readEdit, utf8Bytes } from './framing.js';
import { innerSource } from './inner-value.js';

/**
 * A Socket.IO packet in an Engine.IO message (`42/chat,17["message",{"a":1}]`): the
 * namespace and the ack id are fields, the packet's data (the event name and its arguments,
 * as one JSON array) the value. The Engine.IO and Socket.IO types and a binary packet's
 * attachment count are kept as they are; a binary packet's attachments are frames of their
 * own (edited alone). An Engine.IO message without Socket.IO (`4hello`) edits its text.
 */
interface Header {
  readonly engine: number;
  readonly socket: number;
  readonly attachments: number;
  /** Where the namespace (or, without one, the ack id or the data) starts. */
  readonly typesEnd: number;
  /** The namespace as written (with a 2.x query), `/` when absent. */
  readonly namespace: string;
  readonly namespaceBytes: Uint8Array;
  readonly ack: number | null;
  readonly ackBytes: Uint8Array;
  readonly payload: number;
  readonly payloadText: boolean;
}

const utf8 = new TextDecoder();

function header(bytes: Uint8Array): Header | null {
  readHeader(bytes);
  const h = HEADER;
  if (h[H_ERROR] !== NO_ERROR || h[H_ENGINE] !== ENGINE_MESSAGE) return null;
  const socket = h[H_SOCKET];
  const typesEnd = socket < 0 ? 1 : h[H_NAMESPACE] >= 0 ? h[H_NAMESPACE] : h[H_ACK] >= 0 ? h[H_ACK] : h[H_PAYLOAD];
  const ackEnd = h[H_PAYLOAD];
  const payloadText = payloadKind(bytes) === PAYLOAD_TEXT;
  return {
    engine: h[H_ENGINE],
    socket,
    attachments: h[H_ATTACHMENTS] >= 0 ? Number(utf8.decode(bytes.subarray(h[H_ATTACHMENTS], h[H_DASH]))) : 0,
    typesEnd,
    namespace: h[H_NAMESPACE] >= 0 ? utf8.decode(bytes.subarray(h[H_NAMESPACE], h[H_COMMA])) : '/',
    namespaceBytes: h[H_NAMESPACE] >= 0 ? bytes.slice(h[H_NAMESPACE], h[H_NAMESPACE_END]) : new Uint8Array(0),
    ack: h[H_ACK] >= 0 ? Number(utf8.decode(bytes.subarray(h[H_ACK], ackEnd))) : null,
    ackBytes: h[H_ACK] >= 0 ? bytes.slice(h[H_ACK], ackEnd) : new Uint8Array(0),
    payload: h[H_PAYLOAD],
    payloadText,
  };
}

const FIELDS = ['namespace', 'ack id'] as const;

export const socketIoFraming: Framing = {
  name: 'socketio',
  title: 'Socket.IO packet',
  source(bytes) {
    const h = header(bytes);
    if (!h) return null;
    const inner = innerSource(bytes.subarray(h.payload), h.payloadText ? 'text' : 'json');
    if (h.socket < 0)
      return framedText([`Engine.IO ${ENGINE_IO_TYPES[h.engine]}: edit its text below`], [], 'text', inner);
    const type = SOCKET_IO_TYPES[h.socket];
    return framedText(
      [
        `Socket.IO ${type} packet in an Engine.IO message: edit the namespace, the ack id (null: none) and the data; the packet is rebuilt around them`,
        ...(h.attachments
          ? [
              `its ${h.attachments} binary attachment${h.attachments === 1 ? ' follows' : 's follow'} as frames of their own, edited alone; placeholders stay as written`,
            ]
          : []),
      ],
      [`namespace: ${JSON.stringify(h.namespace)}`, `ack id: ${h.ack === null ? 'null' : h.ack}`],
      'data',
      inner,
    );
  },
  build(original, text) {
    const h = header(original);
    if (!h) return fail(text, 0, 'the original frame is not a Socket.IO packet');
    const read = readEdit(text);
    if (!read.ok) return read;
    const { parts, inner } = read.value;
    const prefix = original.subarray(0, h.typesEnd);
    if (h.socket < 0) {
      if (parts.head.length) return fail(text, parts.head[0].offset, 'an Engine.IO message has no fields');
      return { ok: true, bytes: concatBytes([prefix, inner]) };
    }
    const fields = fieldLines(text, parts.head, FIELDS);
    if (!fields.ok) return fields;
    const ns = fields.value.get('namespace')!;
    const ack = fields.value.get('ack id')!;
    if (typeof ns.value !== 'string' || !ns.value.startsWith('/') || /[,[{]/.test(ns.value))
      return {
        ok: false,
        error: editError(text, ns.offset, "a namespace is a string starting with '/' without ',', '[' or '{'"),
      };
    if (ack.value !== null && !(Number.isSafeInteger(ack.value) && (ack.value as number) >= 0))
      return { ok: false, error: editError(text, ack.offset, 'an ack id is a whole number ≥ 0, or null for none') };
    const nsBytes =
      ns.value === h.namespace ? h.namespaceBytes : ns.value === '/' ? new Uint8Array(0) : utf8Bytes(`${ns.value},`);
    const ackBytes =
      ack.value === h.ack ? h.ackBytes : ack.value === null ? new Uint8Array(0) : utf8Bytes(String(ack.value));
    return { ok: true, bytes: concatBytes([prefix, nsBytes, ackBytes, inner]) };
  },
};
