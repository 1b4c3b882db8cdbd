import { Kind } from '../../core/kinds.js';
import { SpanIndex } from '../../core/span-index.js';
import { mqttPackets, mqttWalker } from '../../protocols/mqtt-walker.js';
import { editError } from '../edit-error.js';
import { fail, fieldLines, framedText } from './framed-text.js';
import { concatBytes, type Framing, readEdit, utf8Bytes } from './framing.js';
import { innerSource } from './inner-value.js';
import { namedParts } from './named-parts.js';
import { grouped } from '../../core/grouped.js';

/**
 * An MQTT PUBLISH (a frame holding that one packet), read by the MQTT walker: topic, QoS,
 * retain, dup and packet id are fields, the payload the value. Rebuilt: the first byte from
 * the flags, the remaining length as a variable byte integer (its original bytes when the
 * length is unchanged), the topic, the packet id when QoS > 0, MQTT 5 properties byte for
 * byte as they were, the payload.
 */
interface Publish {
  readonly version: 4 | 5;
  readonly flags: number;
  readonly remainingLength: Uint8Array;
  readonly bodyLength: number;
  readonly topic: string;
  readonly topicBytes: Uint8Array;
  readonly packetId: number | null;
  readonly packetIdBytes: Uint8Array;
  readonly properties: Uint8Array;
  readonly payload: Uint8Array;
}

function publish(bytes: Uint8Array): Publish | null {
  if (bytes.length < 2 || bytes[0] >> 4 !== 3) return null;
  const index = new SpanIndex(bytes, mqttWalker);
  if (index.error || index.root !== 0 || index.store.kind[0] !== Kind.map) return null;
  const packet = mqttPackets(index)[0];
  if (packet?.type !== 'PUBLISH') return null;
  const parts = namedParts(index, 0);
  const span = (name: string): [number, number] | null => {
    const n = parts.get(name);
    return n === undefined ? null : [index.store.start[n], index.store.end[n]];
  };
  const rl = span('remaining length');
  const topic = span('topic');
  const payload = span('payload');
  if (!rl || !topic || !payload) return null;
  const id = span('packet id');
  const props = span('properties');
  return {
    version: packet.version,
    flags: bytes[0] & 0x0f,
    remainingLength: bytes.slice(rl[0], rl[1]),
    bodyLength: bytes.length - rl[1],
    topic: packet.topic ?? '',
    topicBytes: bytes.slice(topic[0], topic[1]),
    packetId: packet.packetId ?? null,
    packetIdBytes: id ? bytes.slice(id[0], id[1]) : new Uint8Array(0),
    properties: props ? bytes.slice(props[0], props[1]) : new Uint8Array(0),
    payload: bytes.slice(payload[0], payload[1]),
  };
}

/** MQTT's variable byte integer (1-4 bytes, up to 268,435,455). */
export function mqttVarint(value: number): Uint8Array {
  const out: number[] = [];
  do {
    let b = value % 128;
    value = Math.floor(value / 128);
    if (value > 0) b |= 0x80;
    out.push(b);
  } while (value > 0);
  return Uint8Array.from(out);
}

const FIELDS = ['topic', 'qos', 'retain', 'dup', 'packet id'] as const;
const MAX_REMAINING_LENGTH = 268_435_455;

export const mqttFraming: Framing = {
  name: 'mqtt',
  title: 'MQTT PUBLISH',
  source(bytes) {
    const p = publish(bytes);
    if (!p) return null;
    return framedText(
      [
        `MQTT${p.version === 5 ? ' 5' : ''} PUBLISH: edit the fields and the payload (a packet id from 1 to 65535 at QoS 1 and 2, null at QoS 0); the packet is rebuilt around them, its remaining length counted again`,
        ...(p.version === 5
          ? [`its MQTT 5 properties (${grouped(p.properties.length)} bytes) are kept byte for byte`]
          : []),
      ],
      [
        `topic: ${JSON.stringify(p.topic)}`,
        `qos: ${(p.flags >> 1) & 3}`,
        `retain: ${(p.flags & 1) === 1}`,
        `dup: ${(p.flags & 8) === 8}`,
        `packet id: ${p.packetId ?? 'null'}`,
      ],
      'payload',
      innerSource(p.payload),
    );
  },
  build(original, text) {
    const p = publish(original);
    if (!p) return fail(text, 0, 'the original frame is not one MQTT PUBLISH packet');
    const read = readEdit(text);
    if (!read.ok) return read;
    const fields = fieldLines(text, read.value.parts.head, FIELDS);
    if (!fields.ok) return fields;
    const f = (name: (typeof FIELDS)[number]) => fields.value.get(name)!;
    const bad = (name: (typeof FIELDS)[number], message: string) => ({
      ok: false as const,
      error: editError(text, f(name).offset, message),
    });
    const topic = f('topic').value;
    if (typeof topic !== 'string') return bad('topic', 'a topic is a string');
    const topicUtf8 = utf8Bytes(topic);
    if (topicUtf8.length > 0xffff) return bad('topic', 'a topic is at most 65,535 bytes of UTF-8');
    const qos = f('qos').value;
    if (qos !== 0 && qos !== 1 && qos !== 2) return bad('qos', 'QoS is 0, 1 or 2');
    const retain = f('retain').value;
    if (typeof retain !== 'boolean') return bad('retain', 'retain is true or false');
    const dup = f('dup').value;
    if (typeof dup !== 'boolean') return bad('dup', 'dup is true or false');
    const id = f('packet id').value;
    if (qos === 0 && id !== null) return bad('packet id', 'a QoS 0 PUBLISH has no packet id: null');
    if (qos > 0 && !(Number.isInteger(id) && (id as number) >= 1 && (id as number) <= 0xffff))
      return bad('packet id', 'a QoS 1 or 2 PUBLISH has a packet id from 1 to 65535');
    const topicBytes =
      topic === p.topic
        ? p.topicBytes
        : concatBytes([Uint8Array.of(topicUtf8.length >> 8, topicUtf8.length & 0xff), topicUtf8]);
    const idBytes =
      qos === 0
        ? new Uint8Array(0)
        : id === p.packetId
          ? p.packetIdBytes
          : Uint8Array.of((id as number) >> 8, (id as number) & 0xff);
    const body = concatBytes([topicBytes, idBytes, p.properties, read.value.inner]);
    if (body.length > MAX_REMAINING_LENGTH)
      return fail(
        text,
        read.value.parts.bodyOffset,
        `the packet would be ${grouped(body.length)} bytes after its header, over MQTT's 268,435,455`,
      );
    const first = 0x30 | (dup ? 8 : 0) | (qos << 1) | (retain ? 1 : 0);
    const rl = body.length === p.bodyLength ? p.remainingLength : mqttVarint(body.length);
    return { ok: true, bytes: concatBytes([Uint8Array.of(first), rl, body]) };
  },
};
