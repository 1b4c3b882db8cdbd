import { SpanIndex } from '../core/span-index.js';
import type { Detector } from '../detector.js';
import { mqttPackets, mqttWalker } from './mqtt-walker.js';

/**
 * MQTT over WebSocket (binary frames). Packets must tile the frame exactly (types, fixed
 * flags, remaining lengths, variable headers), which random CBOR / MessagePack rarely does;
 * a CONNECT / CONNACK or the connection's other frames make it certain. A 2-byte PINGREQ
 * (`c0 00`) is also CBOR tag 0 of 0: without the connection's evidence it stays CBOR.
 * A frame that breaks off mid-packet (a packet split across frames) is a rejection only on a
 * connection already known as MQTT or after a whole packet, so foreign bytes stay unknown.
 */
export const mqttDetector: Detector = {
  format: 'mqtt',
  textFrames: false,
  detect(bytes, context) {
    const known = context.preferFormat === 'mqtt';
    // One byte is a packet's first part only on a connection known as MQTT (aedes writes a part per frame).
    if (bytes.length < (known ? 1 : 2) || bytes[0] >> 4 === 0) return null;
    const index = new SpanIndex(bytes, mqttWalker, { depth: 1 });
    const packets = mqttPackets(index);
    if (index.error) return known || packets.length > 0 ? { format: 'mqtt', error: index.error, index } : null;
    let confidence = bytes.length <= 2 ? 0.5 : 0.86;
    if (packets.some((p) => p.type === 'CONNECT' || p.type === 'CONNACK')) confidence = 0.98;
    if (known) confidence = Math.min(0.995, confidence + 0.45);
    const first = packets[0];
    return {
      format: 'mqtt',
      confidence,
      reason: `MQTT ${first?.version === 5 ? '5' : '3.1.1'} ${packets.map((p) => p.type).join(', ')}`,
      index,
    };
  },
};
