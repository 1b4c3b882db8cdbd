/**
 * The demo server's streams as lists of frames (one connection each), deterministic: a fixed
 * seed and a virtual clock. What the label baseline (codecs/reading/frame-labels.test.ts) is
 * taken over; it lives here, beside the streams, because codecs/ must not import the demo server.
 */
import { createJsonTraffic, createTraffic, type DemoTraffic } from './traffic.js';
import { createMqttTraffic } from './streams/mqtt.js';
import { createStompTraffic } from './streams/stomp.js';
import { createNestedTraffic } from './streams/nested.js';
import { createProtobufTraffic } from './streams/protobuf-schema.js';
import type { LabelledFrame } from '../codecs/reading/frame-labels.js';

const EPOCH_MS = Date.UTC(2026, 0, 1);
const utf8 = new TextEncoder();

function clock(): () => number {
  let ticks = 0;
  return () => EPOCH_MS + 200 * ticks++;
}

function take(name: string, traffic: DemoTraffic, n: number, subprotocol?: string): LabelledFrame[] {
  const out: LabelledFrame[] = [];
  for (let i = 0; i < n; i++) {
    const m = traffic.next();
    out.push({
      connectionId: name,
      direction: 'received',
      opcode: m.opcode,
      data: typeof m.data === 'string' ? utf8.encode(m.data) : m.data,
      ...(subprotocol ? { subprotocol } : {}),
    });
  }
  return out;
}

/** Every demo stream's first frames, by stream name. */
export function demoStreams(): Record<string, LabelledFrame[]> {
  return {
    demo: take('demo', createTraffic({ seed: 1, now: clock(), largeEvery: 0 }), 300),
    json: take('json', createJsonTraffic({ seed: 1, now: clock() }), 120),
    mqtt: take('mqtt', createMqttTraffic({ seed: 1, now: clock() }), 120),
    'mqtt (subprotocol mqtt)': take('mqtt-sub', createMqttTraffic({ seed: 2, now: clock() }), 120, 'mqtt'),
    stomp: take('stomp', createStompTraffic({ seed: 1, now: clock() }), 120),
    nested: take('nested', createNestedTraffic({ seed: 1, now: clock() }), 120),
    protobuf: take('protobuf', createProtobufTraffic({ seed: 1, now: clock() }), 120),
  };
}
