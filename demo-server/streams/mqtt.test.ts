import { describe, expect, it } from 'vitest';
import { decodeFrame, mqttPackets, recognizeProtocol } from '../../codecs/index.js';
import { createMqttTraffic } from './mqtt.js';

describe('/demo/mqtt stream', () => {
  it('every frame is one MQTT packet that decodes whole; PUBLISH payloads are JSON or CBOR', () => {
    const traffic = createMqttTraffic({ seed: 3, now: () => 1_700_000_000_000 });
    const seen = new Set<string>();
    let preferred: string | null = null;
    for (let i = 0; i < 60; i++) {
      const m = traffic.next();
      const d = decodeFrame(m.data as Uint8Array, { preferFormat: preferred });
      expect(d.format, m.label).toBe('mqtt');
      expect(d.error).toBeNull();
      preferred = 'mqtt';
      const [p] = mqttPackets(d.index!);
      seen.add(p.type);
      if (p.type === 'PUBLISH') {
        expect(recognizeProtocol(d.index, d.format)).toMatchObject({
          protocol: 'mqtt',
          message: 'PUBLISH',
          event: p.topic,
        });
        const payload = (d.index!.value(0) as Record<string, unknown>).payload as Record<string, unknown>;
        expect(payload).toMatchObject({ celsius: expect.any(Number), room: expect.any(String) });
      }
    }
    expect([...seen].sort()).toEqual(['CONNACK', 'PINGRESP', 'PUBLISH', 'SUBACK']);
  });
});
