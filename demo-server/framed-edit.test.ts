/**
 * The demo's framed frames (its main stream's Socket.IO events and uploads, /demo/mqtt and
 * /demo/stomp) open in Edit and send as their framing, and the unchanged edit text gives back
 * each frame's bytes exactly; an edited inner value reads back through the protocol walker.
 */
import { describe, expect, it } from 'vitest';
import { decodeFrame, recognizeProtocol } from '../codecs/index.js';
import { FRAMINGS, framedFromText, framedSource } from '../codecs/edit/index.js';
import { createMqttTraffic } from './streams/mqtt.js';
import { createStompTraffic } from './streams/stomp.js';
import { createTraffic, type DemoTraffic } from './traffic.js';

const enc = new TextEncoder();

function framedFrames(traffic: DemoTraffic, count: number) {
  const seen: Record<string, number> = {};
  let preferred: string | null = null;
  for (let i = 0; i < count; i++) {
    const m = traffic.next();
    const bytes = typeof m.data === 'string' ? enc.encode(m.data) : m.data;
    const d = decodeFrame(bytes, { isText: m.opcode === 'text', preferFormat: preferred, depth: 1 });
    if (d.format === 'mqtt' || d.format === 'stomp') preferred = d.format;
    const protocol = recognizeProtocol(d.index, d.format)?.protocol ?? null;
    const source = framedSource(bytes, d.format, protocol);
    if (!source) continue;
    seen[source.framing] = (seen[source.framing] ?? 0) + 1;
    const back = framedFromText(source.framing, bytes, source.text);
    expect(back.ok && [...back.bytes], `${m.label}\n${source.text}`).toEqual([...bytes]);
  }
  return seen;
}

describe('the demo streams in Edit and send', () => {
  it('Socket.IO events of the main stream give back their bytes unchanged', () => {
    const seen = framedFrames(createTraffic({ seed: 7, largeEvery: 0, malformedChance: 0 }), 400);
    expect(seen.socketio).toBeGreaterThan(5);
  });

  it('/demo/mqtt PUBLISH packets and /demo/stomp frames give back their bytes unchanged', () => {
    expect(framedFrames(createMqttTraffic({ seed: 3 }), 120).mqtt).toBeGreaterThan(20);
    expect(framedFrames(createStompTraffic({ seed: 3 }), 120).stomp).toBeGreaterThan(20);
  });

  it('an edited MQTT payload reads back through the MQTT walker, the remaining length counted again', () => {
    const traffic = createMqttTraffic({ seed: 5 });
    for (let i = 0; i < 50; i++) {
      const m = traffic.next();
      const bytes = m.data as Uint8Array;
      const text = FRAMINGS.mqtt.source(bytes);
      if (!text?.includes('--- payload as JSON')) continue;
      const payload = { edited: 'x'.repeat(300) };
      const edited = framedFromText(
        'mqtt',
        bytes,
        text.replace(/(--- payload as JSON\n)[\s\S]*$/, `$1${JSON.stringify(payload)}`),
      );
      expect(edited.ok).toBe(true);
      if (!edited.ok) return;
      const d = decodeFrame(edited.bytes, { format: 'mqtt' });
      expect(d.error).toBeNull();
      expect((d.index!.value(0) as { payload: unknown }).payload).toEqual(payload);
      return;
    }
    throw new Error('no JSON PUBLISH in the stream');
  });
});
