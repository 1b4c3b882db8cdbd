import { describe, expect, it } from 'vitest';
import { mqttPartLabel, mqttPartsIndex, readsAsParts } from './mqtt-parts.js';
import { MqttReassembler } from './mqtt-stream.js';

describe('a frame read as the parts of MQTT packets it holds', () => {
  it('names each part by packet, part and where it lies in the packet, spanning exactly its bytes', () => {
    const stream = new MqttReassembler();
    stream.feed(1, Uint8Array.of(0x30, 0x05));
    // The PUBLISH's last 5 bytes (topic "a" and payload "hi"), then a whole PINGREQ.
    const bytes = Uint8Array.of(0x00, 0x01, 0x61, 0x68, 0x69, 0xc0, 0x00);
    const { pieces } = stream.feed(2, bytes);
    expect(mqttPartLabel(pieces)).toBe('MQTT, part of PUBLISH packet');
    const index = mqttPartsIndex(bytes, pieces);
    expect(index.error).toBeNull();
    const parts = index
      .children(index.root)
      .map((c) => [index.value(index.keyOf(c)), index.store.start[c], index.store.end[c]]);
    expect(parts).toEqual([
      ['PUBLISH packet 0, part 2, last (packet bytes 2–7)', 0, 5],
      ['PINGREQ packet 1 (whole)', 5, 7],
    ]);
  });

  it('says "parts" when a frame ends one split packet and starts another', () => {
    const stream = new MqttReassembler();
    stream.feed(1, Uint8Array.of(0x40));
    const { pieces } = stream.feed(2, Uint8Array.of(0x02, 0x00, 0x01, 0x30));
    expect(mqttPartLabel(pieces)).toBe('MQTT, parts of PUBACK and PUBLISH packets');
  });

  it('a frame that only starts a packet keeps a convincing reading of its own; one that goes on with a packet never does', () => {
    const starts = new MqttReassembler().feed(1, Uint8Array.of(0xa2, 0x64)).pieces;
    const convincing = { verdict: 'decoded', detection: { candidates: [{ confidence: 0.9 }] } };
    expect(readsAsParts(starts, convincing)).toBe(false);
    expect(readsAsParts(starts, { verdict: 'decoded', detection: { candidates: [{ confidence: 0.3 }] } })).toBe(true);
    expect(readsAsParts(starts, { verdict: 'malformed' })).toBe(true);
    const stream = new MqttReassembler();
    stream.feed(1, Uint8Array.of(0x30));
    expect(readsAsParts(stream.feed(2, Uint8Array.of(0x05)).pieces, convincing)).toBe(true);
  });
});
