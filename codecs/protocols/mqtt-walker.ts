import { Kind } from '../core/kinds.js';
import type { DecodeErrorCode } from '../core/errors.js';
import type { SpanIndex } from '../core/span-index.js';
import {
  closeContainer,
  field,
  initParts,
  markIncomplete,
  openContainer,
  payload,
  protocolWalker,
  text,
  type PartsData,
} from './frame-parts.js';
import { grouped } from '../core/grouped.js';

/**
 * MQTT 3.1.1 and 5 over WebSocket (binary frames, subprotocol `mqtt`): one or more control
 * packets per frame. Each packet is a map of its parts with their spans: `type` (the first
 * byte: packet type and flags), `remaining length` (the varint), the variable header (topic,
 * packet id, MQTT 5 properties by name) and the payload (a PUBLISH payload read as JSON,
 * CBOR, MessagePack or text when one reads it whole, else bytes). Several packets in a frame
 * make the root an array of them; a packet cut by the frame's end (split across frames) is an
 * error at that offset with its parts so far kept.
 *
 * A frame does not say its MQTT version except in CONNECT: other packets are read as 5 when
 * the MQTT 5 reading fits exactly and 3.1.1 does not (or a PUBLISH's bytes after the topic
 * form valid properties), else as 3.1.1.
 */
export const MQTT_TYPES = [
  'reserved',
  'CONNECT',
  'CONNACK',
  'PUBLISH',
  'PUBACK',
  'PUBREC',
  'PUBREL',
  'PUBCOMP',
  'SUBSCRIBE',
  'SUBACK',
  'UNSUBSCRIBE',
  'UNSUBACK',
  'PINGREQ',
  'PINGRESP',
  'DISCONNECT',
  'AUTH',
] as const;
export type MqttType = (typeof MQTT_TYPES)[number];

export interface MqttPacket {
  readonly type: MqttType;
  readonly version: 4 | 5;
  readonly topic?: string;
  readonly packetId?: number;
  readonly qos?: number;
  /** Topic filters of a SUBSCRIBE / UNSUBSCRIBE. */
  readonly filters?: readonly string[];
  /** The packet's map node. */
  readonly node: number;
}

interface MqttData extends PartsData {
  packets: MqttPacket[];
}

export function mqttPackets(index: SpanIndex): readonly MqttPacket[] {
  return (index.formatData as MqttData | null)?.packets ?? [];
}

type PropType = 'byte' | 'u16' | 'u32' | 'varint' | 'utf8' | 'bin' | 'pair';
const PROPERTIES: Record<number, [string, PropType]> = {
  1: ['payload format indicator', 'byte'],
  2: ['message expiry interval', 'u32'],
  3: ['content type', 'utf8'],
  8: ['response topic', 'utf8'],
  9: ['correlation data', 'bin'],
  11: ['subscription identifier', 'varint'],
  17: ['session expiry interval', 'u32'],
  18: ['assigned client identifier', 'utf8'],
  19: ['server keep alive', 'u16'],
  21: ['authentication method', 'utf8'],
  22: ['authentication data', 'bin'],
  23: ['request problem information', 'byte'],
  24: ['will delay interval', 'u32'],
  25: ['request response information', 'byte'],
  26: ['response information', 'utf8'],
  28: ['server reference', 'utf8'],
  31: ['reason string', 'utf8'],
  33: ['receive maximum', 'u16'],
  34: ['topic alias maximum', 'u16'],
  35: ['topic alias', 'u16'],
  36: ['maximum qos', 'byte'],
  37: ['retain available', 'byte'],
  38: ['user property', 'pair'],
  39: ['maximum packet size', 'u32'],
  40: ['wildcard subscription available', 'byte'],
  41: ['subscription identifier available', 'byte'],
  42: ['shared subscription available', 'byte'],
};

/** A parse failure inside a packet: where and why. */
class Stop {
  constructor(
    readonly code: DecodeErrorCode,
    readonly at: number,
    readonly message: string,
  ) {}
}

/** Reads MQTT's variable byte integer at pos: [value, end]. */
function varint(bytes: Uint8Array, pos: number, end: number, what: string): [number, number] {
  let value = 0;
  let mult = 1;
  for (let i = 0; i < 4; i++) {
    if (pos + i >= end) throw new Stop('truncated', end, `${what} is cut short`);
    const b = bytes[pos + i];
    value += (b & 0x7f) * mult;
    if (!(b & 0x80)) return [value, pos + i + 1];
    mult *= 128;
  }
  throw new Stop('invalid-varint', pos, `${what} is longer than 4 bytes`);
}

function need(pos: number, n: number, end: number, what: string): void {
  if (pos + n > end)
    throw new Stop(
      'length-exceeds-input',
      pos,
      `${what} needs ${grouped(n)} byte${n === 1 ? '' : 's'}, ${grouped(Math.max(0, end - pos))} left in the packet`,
    );
}

const u16 = (b: Uint8Array, p: number) => (b[p] << 8) | b[p + 1];
const u32 = (b: Uint8Array, p: number) => ((b[p] << 24) >>> 0) + (b[p + 1] << 16) + (b[p + 2] << 8) + b[p + 3];

/** A 2-byte-length-prefixed UTF-8 string: [value, end]. */
function str(bytes: Uint8Array, pos: number, end: number, what: string): [string, number] {
  need(pos, 2, end, what);
  const n = u16(bytes, pos);
  need(pos + 2, n, end, `${what} (${grouped(n)} bytes)`);
  return [text(bytes, pos + 2, pos + 2 + n), pos + 2 + n];
}

/** Reads one packet's body under `node` with the given version; returns the packet info. */
function readBody(
  index: SpanIndex,
  node: number,
  type: MqttType,
  flags: number,
  version: 4 | 5,
  pos: number,
  end: number,
): Omit<MqttPacket, 'node' | 'type'> {
  const { bytes } = index;
  const strField = (parent: number, name: string, at: number): [string, number] => {
    const [v, next] = str(bytes, at, end, name);
    field(index, parent, name, at, next, v, Kind.text, 2);
    return [v, next];
  };
  const u16Field = (name: string, at: number): number => {
    need(at, 2, end, name);
    const v = u16(bytes, at);
    field(index, node, name, at, at + 2, v, Kind.uint);
    return v;
  };
  const byteField = (name: string, at: number, value?: unknown): number => {
    need(at, 1, end, name);
    field(index, node, name, at, at + 1, value ?? bytes[at], Kind.uint);
    return bytes[at];
  };
  const props = (at: number): number => (version === 5 ? properties(index, node, at, end) : at);
  switch (type) {
    case 'CONNECT': {
      let [, p] = strField(node, 'protocol name', pos);
      const level = byteField('protocol level', p);
      const v: 4 | 5 = level === 5 ? 5 : 4;
      p++;
      need(p, 1, end, 'connect flags');
      const cf = bytes[p];
      field(index, node, 'connect flags', p, p + 1, connectFlags(cf), Kind.text);
      p++;
      u16Field('keep alive', p);
      p += 2;
      if (v === 5) p = properties(index, node, p, end);
      [, p] = strField(node, 'client id', p);
      if (cf & 0x04) {
        if (v === 5) p = properties(index, node, p, end, 'will properties');
        [, p] = strField(node, 'will topic', p);
        need(p, 2, end, 'will payload');
        const n = u16(bytes, p);
        need(p + 2, n, end, 'will payload');
        field(index, node, 'will payload length', p, p + 2, n, Kind.uint);
        payload(index, node, 'will payload', p + 2, p + 2 + n);
        p += 2 + n;
      }
      if (cf & 0x80) [, p] = strField(node, 'username', p);
      if (cf & 0x40) {
        need(p, 2, end, 'password');
        const n = u16(bytes, p);
        need(p + 2, n, end, 'password');
        field(index, node, 'password', p, p + 2 + n, bytes.slice(p + 2, p + 2 + n), Kind.bytes, 2);
        p += 2 + n;
      }
      if (p !== end) throw new Stop('trailing-bytes', p, 'CONNECT has bytes past its payload');
      return { version: v };
    }
    case 'CONNACK': {
      byteField('session present', pos, (bytes[pos] & 1) === 1);
      byteField(version === 5 ? 'reason code' : 'return code', pos + 1);
      const p = props(pos + 2);
      if (p !== end) throw new Stop('trailing-bytes', p, 'CONNACK has bytes past its header');
      return { version };
    }
    case 'PUBLISH': {
      const qos = (flags >> 1) & 3;
      if (qos === 3) throw new Stop('invalid-byte', pos - 1, 'PUBLISH with QoS 3');
      const [topic, t] = strField(node, 'topic', pos);
      let p = t;
      let packetId: number | undefined;
      if (qos > 0) {
        packetId = u16Field('packet id', p);
        p += 2;
      }
      p = props(p);
      payload(index, node, 'payload', p, end);
      return { version, topic, qos, packetId };
    }
    case 'PUBACK':
    case 'PUBREC':
    case 'PUBREL':
    case 'PUBCOMP': {
      const packetId = u16Field('packet id', pos);
      let p = pos + 2;
      if (p < end) {
        if (version !== 5) throw new Stop('trailing-bytes', p, `${type} has bytes past its packet id`);
        byteField('reason code', p);
        p++;
        if (p < end) p = properties(index, node, p, end);
      }
      if (p !== end) throw new Stop('trailing-bytes', p, `${type} has bytes past its header`);
      return { version, packetId };
    }
    case 'SUBSCRIBE':
    case 'UNSUBSCRIBE': {
      const packetId = u16Field('packet id', pos);
      let p = props(pos + 2);
      const list = openContainer(index, node, type === 'SUBSCRIBE' ? 'subscriptions' : 'topic filters', Kind.array, p);
      const filters: string[] = [];
      while (p < end) {
        if (type === 'SUBSCRIBE') {
          const entry = openContainer(index, list, null, Kind.map, p);
          const [f, q] = strField(entry, 'topic filter', p);
          need(q, 1, end, 'subscription options');
          field(index, entry, 'options', q, q + 1, subscriptionOptions(bytes[q], version), Kind.text);
          closeContainer(index, entry, q + 1);
          filters.push(f);
          p = q + 1;
        } else {
          const [f, q] = strField(list, null as unknown as string, p);
          filters.push(f);
          p = q;
        }
      }
      closeContainer(index, list, end);
      if (!filters.length) throw new Stop('truncated', end, `${type} has no topic filter`);
      return { version, packetId, filters };
    }
    case 'SUBACK':
    case 'UNSUBACK': {
      const packetId = u16Field('packet id', pos);
      let p = props(pos + 2);
      if (type === 'SUBACK' || version === 5) {
        const codes = openContainer(index, node, type === 'SUBACK' ? 'return codes' : 'reason codes', Kind.array, p);
        for (; p < end; p++) field(index, codes, null, p, p + 1, bytes[p], Kind.uint);
        closeContainer(index, codes, end);
      }
      if (p !== end) throw new Stop('trailing-bytes', p, `${type} has bytes past its header`);
      return { version, packetId };
    }
    case 'PINGREQ':
    case 'PINGRESP':
      if (pos !== end) throw new Stop('trailing-bytes', pos, `${type} has a body`);
      return { version };
    case 'DISCONNECT':
    case 'AUTH': {
      let p = pos;
      if (p < end) {
        if (version !== 5) throw new Stop('trailing-bytes', p, `${type} has a body in MQTT 3.1.1`);
        byteField('reason code', p);
        p++;
        if (p < end) p = properties(index, node, p, end);
      }
      if (p !== end) throw new Stop('trailing-bytes', p, `${type} has bytes past its header`);
      return { version };
    }
    default:
      throw new Stop('invalid-byte', pos - 1, 'packet type 0 is reserved');
  }
}

function connectFlags(b: number): string {
  const parts: string[] = [];
  if (b & 0x80) parts.push('username');
  if (b & 0x40) parts.push('password');
  if (b & 0x04) parts.push(`will (qos ${(b >> 3) & 3}${b & 0x20 ? ', retain' : ''})`);
  if (b & 0x02) parts.push('clean start');
  return parts.join(', ') || 'none';
}

function subscriptionOptions(b: number, version: 4 | 5): string {
  const parts = [`qos ${b & 3}`];
  if (version === 5) {
    if (b & 4) parts.push('no local');
    if (b & 8) parts.push('retain as published');
    parts.push(`retain handling ${(b >> 4) & 3}`);
  }
  return parts.join(', ');
}

/** MQTT 5 properties at pos (length varint, then id/value pairs) as a map; returns the end. */
function properties(index: SpanIndex, parent: number, pos: number, end: number, name = 'properties'): number {
  const { bytes } = index;
  const [length, body] = varint(bytes, pos, end, `${name} length`);
  const stop = body + length;
  if (stop > end)
    throw new Stop(
      'length-exceeds-input',
      pos,
      `${name} declare ${grouped(length)} bytes but only ${grouped(end - body)} remain in the packet`,
    );
  const map = openContainer(index, parent, name, Kind.map, pos, body - pos);
  let p = body;
  try {
    while (p < stop) {
      const id = bytes[p];
      const known = PROPERTIES[id];
      if (!known) throw new Stop('invalid-byte', p, `unknown MQTT 5 property id ${id}`);
      const [pname, type] = known;
      const v = p + 1;
      let next: number;
      let value: unknown;
      let kind: number = Kind.uint;
      let head = 1;
      switch (type) {
        case 'byte':
          need(v, 1, stop, pname);
          value = bytes[v];
          next = v + 1;
          break;
        case 'u16':
          need(v, 2, stop, pname);
          value = u16(bytes, v);
          next = v + 2;
          break;
        case 'u32':
          need(v, 4, stop, pname);
          value = u32(bytes, v);
          next = v + 4;
          break;
        case 'varint':
          [value, next] = varint(bytes, v, stop, pname);
          break;
        case 'utf8':
          [value, next] = str(bytes, v, stop, pname);
          kind = Kind.text;
          head = 3;
          break;
        case 'bin': {
          need(v, 2, stop, pname);
          const n = u16(bytes, v);
          need(v + 2, n, stop, pname);
          value = bytes.slice(v + 2, v + 2 + n);
          next = v + 2 + n;
          kind = Kind.bytes;
          head = 3;
          break;
        }
        case 'pair': {
          const [k, a] = str(bytes, v, stop, `${pname} name`);
          const [val, b] = str(bytes, a, stop, `${pname} value`);
          value = `${k}: ${val}`;
          next = b;
          kind = Kind.text;
          break;
        }
      }
      field(index, map, pname, p, next, value, kind, kind === Kind.uint ? 0 : head);
      p = next;
    }
  } finally {
    closeContainer(index, map, Math.max(p, pos));
  }
  closeContainer(index, map, stop);
  return stop;
}

/** Where the packet at pos ends, per its fixed header (or null when the header itself is cut). */
function packetEnd(bytes: Uint8Array, pos: number): number | null {
  try {
    const [rl, body] = varint(bytes, pos + 1, bytes.length, 'remaining length');
    return body + rl;
  } catch {
    return null;
  }
}

/** True when `type` carries these fixed-header flags in every MQTT version. */
function flagsValid(type: number, flags: number): boolean {
  if (type === 3) return true;
  if (type === 6 || type === 8 || type === 10) return flags === 2;
  return flags === 0;
}

/** Does the version-`v` reading of this body parse exactly? (Side-effect free: a scratch check.) */
function fits(bytes: Uint8Array, type: MqttType, flags: number, v: 4 | 5, pos: number, end: number): boolean {
  try {
    switch (type) {
      case 'PUBLISH': {
        const [, t] = str(bytes, pos, end, 'topic');
        let p = t + ((flags >> 1) & 3 ? 2 : 0);
        if (p > end) return false;
        // 3.1.1 reads any payload; 5 only when valid properties follow the topic.
        if (v === 5) p = skipProperties(bytes, p, end);
        return p <= end;
      }
      case 'CONNACK':
        return v === 5 ? skipProperties(bytes, pos + 2, end) === end : end - pos === 2;
      case 'PUBACK':
      case 'PUBREC':
      case 'PUBREL':
      case 'PUBCOMP':
        return v === 5
          ? end - pos >= 2 && (end - pos <= 3 || skipProperties(bytes, pos + 3, end) === end)
          : end - pos === 2;
      case 'SUBSCRIBE':
      case 'UNSUBSCRIBE': {
        let p = v === 5 ? skipProperties(bytes, pos + 2, end) : pos + 2;
        if (p >= end) return false;
        while (p < end) {
          const [, q] = str(bytes, p, end, 'filter');
          p = q + (type === 'SUBSCRIBE' ? 1 : 0);
          if (type === 'SUBSCRIBE' && (q >= end || (v === 4 && bytes[q] > 2))) return false;
        }
        return p === end;
      }
      case 'SUBACK':
      case 'UNSUBACK': {
        const p = v === 5 ? skipProperties(bytes, pos + 2, end) : pos + 2;
        if (type === 'UNSUBACK') return v === 4 ? p === end : p <= end;
        // 3.1.1 grants QoS 0-2 or fails with 0x80; anything else is a reason code of 5.
        if (v === 4) for (let i = p; i < end; i++) if (bytes[i] > 2 && bytes[i] !== 0x80) return false;
        return p < end;
      }
      case 'DISCONNECT':
      case 'AUTH':
        return v === 5 || pos === end;
      default:
        return true;
    }
  } catch {
    return false;
  }
}

function skipProperties(bytes: Uint8Array, pos: number, end: number): number {
  const [length, body] = varint(bytes, pos, end, 'properties length');
  const stop = body + length;
  if (stop > end) throw new Stop('length-exceeds-input', pos, 'properties');
  let p = body;
  while (p < stop) {
    const known = PROPERTIES[bytes[p]];
    if (!known) throw new Stop('invalid-byte', p, 'property');
    const v = p + 1;
    switch (known[1]) {
      case 'byte':
        p = v + 1;
        break;
      case 'u16':
        p = v + 2;
        break;
      case 'u32':
        p = v + 4;
        break;
      case 'varint':
        p = varint(bytes, v, stop, 'property')[1];
        break;
      case 'utf8':
      case 'bin':
        p = v + 2 + u16(bytes, v);
        break;
      case 'pair':
        p = v + 2 + u16(bytes, v);
        p = p + 2 + u16(bytes, p);
        break;
    }
  }
  if (p !== stop) throw new Stop('length-exceeds-input', p, 'property');
  return stop;
}

function walkFrame(index: SpanIndex): void {
  const { bytes, store } = index;
  const len = bytes.length;
  const data = initParts(index) as MqttData;
  data.packets = [];
  if (len === 0) {
    index.fail('empty-input', 0, 'an MQTT frame holds at least one packet');
    return;
  }
  const firstEnd = packetEnd(bytes, 0);
  const several = firstEnd !== null && firstEnd < len;
  const root = several ? openContainer(index, -1, null, Kind.array, 0) : -1;
  let pos = 0;
  while (pos < len) {
    const node = openContainer(index, root, null, Kind.map, pos);
    const b0 = bytes[pos];
    const typeNo = b0 >> 4;
    const flags = b0 & 0x0f;
    const type = MQTT_TYPES[typeNo];
    const fail = (stop: Stop) => {
      index.fail(stop.code, stop.at, stop.message);
      markIncomplete(index, node, Math.min(len, Math.max(stop.at, store.end[node])));
      if (root >= 0) closeContainer(index, root, len);
    };
    field(index, node, 'type', pos, pos + 1, type === 'PUBLISH' ? `PUBLISH${publishFlags(flags)}` : type, Kind.text);
    if (typeNo === 0 || !flagsValid(typeNo, flags)) {
      fail(
        new Stop(
          'invalid-byte',
          pos,
          typeNo === 0
            ? 'MQTT packet type 0 is reserved'
            : `${type} with fixed-header flags ${flags.toString(2).padStart(4, '0')} (MQTT fixes them)`,
        ),
      );
      return;
    }
    let rl: number;
    let body: number;
    try {
      [rl, body] = varint(bytes, pos + 1, len, 'remaining length');
    } catch (e) {
      if (!(e instanceof Stop)) throw e;
      fail(e);
      return;
    }
    field(index, node, 'remaining length', pos + 1, body, rl, Kind.uint);
    const end = body + rl;
    const cut = end > len;
    const stop = Math.min(end, len);
    const declared =
      type === 'CONNECT'
        ? 4
        : type === 'PUBLISH'
          ? fits(bytes, type, flags, 5, body, stop)
            ? 5
            : 4
          : fits(bytes, type, flags, 4, body, stop) || !fits(bytes, type, flags, 5, body, stop)
            ? 4
            : 5;
    try {
      const info = readBody(index, node, type, flags, declared, body, stop);
      closeContainer(index, node, stop);
      data.packets.push({ type, node, ...info });
    } catch (e) {
      if (!(e instanceof Stop)) throw e;
      // A packet split across frames reads as far as this frame goes.
      fail(
        cut
          ? new Stop(
              'truncated',
              len,
              `the ${type} packet declares ${grouped(rl)} bytes after its header but the frame ends ${grouped(end - len)} bytes short (split across frames?)`,
            )
          : e,
      );
      return;
    }
    if (cut) {
      fail(
        new Stop(
          'truncated',
          len,
          `the ${type} packet declares ${grouped(rl)} bytes after its header but the frame ends ${grouped(end - len)} bytes short (split across frames?)`,
        ),
      );
      return;
    }
    pos = stop;
  }
  if (root >= 0) closeContainer(index, root, len);
}

function publishFlags(flags: number): string {
  const parts: string[] = [];
  if ((flags >> 1) & 3) parts.push(`qos ${(flags >> 1) & 3}`);
  if (flags & 8) parts.push('dup');
  if (flags & 1) parts.push('retain');
  return parts.length ? ` (${parts.join(', ')})` : '';
}

export const mqttWalker = protocolWalker('mqtt', walkFrame, (index) => {
  const packets = mqttPackets(index);
  const store = index.store;
  if (store.kind[0] === Kind.array) return `mqtt ${packets.length} packets`;
  const p = packets[0];
  return p ? `mqtt${p.version === 5 ? ' 5' : ''} ${p.type}` : 'mqtt';
});
