/**
 * `/demo/mqtt`: what a browser's MQTT client receives from a broker over WebSocket (MQTT
 * 3.1.1, one packet per frame as mqtt.js sends them in a browser): CONNACK, SUBACK, then
 * PUBLISH messages on sensor topics with JSON payloads (now and then a CBOR one, at QoS 1
 * with a packet id), and a PINGRESP now and then.
 */
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { makeRng } from '../rng.js';
import type { DemoMessage, DemoTraffic } from '../traffic.js';

export const MQTT_CHANNEL_PATH = '/demo/mqtt';

const ROOMS = ['kitchen', 'attic', 'garage', 'lab'];
const utf8 = new TextEncoder();
const cbor = new CborEncoder();

/** The remaining length as MQTT's variable byte integer. */
function varint(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return out;
}

function packet(firstByte: number, body: number[]): Uint8Array {
  return new Uint8Array([firstByte, ...varint(body.length), ...body]);
}

const str = (s: string) => {
  const b = utf8.encode(s);
  return [b.length >> 8, b.length & 0xff, ...b];
};

export function mqttPublish(topic: string, payload: Uint8Array, packetId?: number): Uint8Array {
  const id = packetId === undefined ? [] : [packetId >> 8, packetId & 0xff];
  return packet(0x30 | (packetId === undefined ? 0 : 0x02), [...str(topic), ...id, ...payload]);
}

export function createMqttTraffic(options: { seed?: number; now?: () => number } = {}): DemoTraffic {
  const rng = makeRng(options.seed ?? 1);
  const now = options.now ?? Date.now;
  let count = 0;
  let packetId = 1;
  const produce = (): DemoMessage => {
    if (count === 0) return { opcode: 'binary', kind: 'mqtt', data: packet(0x20, [0x00, 0x00]), label: 'mqtt CONNACK' };
    if (count === 1)
      return { opcode: 'binary', kind: 'mqtt', data: packet(0x90, [0x00, 0x01, 0x01]), label: 'mqtt SUBACK' };
    if (count % 15 === 0) return { opcode: 'binary', kind: 'mqtt', data: packet(0xd0, []), label: 'mqtt PINGRESP' };
    const room = ROOMS[Math.floor(rng() * ROOMS.length)];
    const reading = {
      room,
      celsius: Math.round((15 + rng() * 15) * 10) / 10,
      humidity: Math.round(rng() * 100),
      at: now(),
    };
    if (count % 7 === 0)
      return {
        opcode: 'binary',
        kind: 'mqtt',
        data: mqttPublish(`sensors/${room}/cbor`, cbor.encode(reading), packetId++),
        label: `mqtt PUBLISH sensors/${room}/cbor (CBOR, qos 1)`,
      };
    return {
      opcode: 'binary',
      kind: 'mqtt',
      data: mqttPublish(`sensors/${room}/temp`, utf8.encode(JSON.stringify(reading))),
      label: `mqtt PUBLISH sensors/${room}/temp`,
    };
  };
  return {
    next() {
      const m = produce();
      count++;
      return m;
    },
    get count() {
      return count;
    },
  };
}
