/**
 * MQTT packets split across frames in the worker, with the frames mqtt.js in Node really
 * writes (each part of a packet its own WebSocket message, against aedes): the frame that
 * completes a packet lists as the packet, its parts are linked both ways in the detail.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeMqttSession } from '../../../codecs/protocols/test/mqtt-rig.js';
import type { CapturedFrame } from '../../../codecs/protocols/test/ws-capture.js';
import type { FromWorker } from './api.js';
import { ingestFrames, connectionFrameAt, type FrameContent } from './test/ingest-frames.js';

const ingest = (frames: readonly FrameContent[], subprotocol?: string) =>
  ingestFrames(frames, (h) => subprotocol && h.links.setSubprotocol('c1', subprotocol));

let wire: CapturedFrame[] = [];
beforeAll(async () => {
  wire = await nodeMqttSession();
}, 30_000);

describe('MQTT reassembly in the worker (real mqtt.js in Node)', () => {
  it('lists the frame completing a split PUBLISH as that PUBLISH, with its topic, id and payload', () => {
    const { rows } = ingest(wire, 'mqtt');
    const pubs = rows.filter((r) => r.direction === 'sent' && r.protocol?.message === 'PUBLISH');
    expect(pubs.map((r) => r.protocol!.event)).toEqual(['sensors/kitchen/temp', 'sensors/attic/temp']);
    const kitchen = pubs[0];
    expect(kitchen.protocol).toMatchObject({ name: 'mqtt', message: 'PUBLISH', id: expect.any(String) });
    expect(kitchen.preview).toContain('celsius');
    expect(kitchen.preview).toMatch(/^sensors\/kitchen\/temp \{"celsius":21.5,.* · reassembled from frames \d+–\d+ · /);
    // Its first part, a lone type byte (0x32) that reads as the JSON number 50 on its own, says what it is.
    const firstPart = rows.find(
      (r) => r.frameId < kitchen.frameId && r.direction === 'sent' && r.protocol?.message === 'PUBLISH (part 1)',
    )!;
    expect(firstPart.preview).toBe('MQTT, part of PUBLISH packet (part 1, split across frames) · 32');
    expect(firstPart).toMatchObject({ format: 'mqtt', verdict: 'decoded', error: null });
    // Nothing on this connection is left unexplained as a stray number or cut packet.
    for (const r of rows) expect(r.protocol?.name, `${r.frameId} ${r.preview}`).toBe('mqtt');
  });

  it('links the parts and the completing frame both ways in the detail', () => {
    const { handlers, rows } = ingest(wire, 'mqtt');
    const kitchen = rows.find((r) => r.direction === 'sent' && r.protocol?.event === 'sensors/kitchen/temp')!;
    const lines = handlers.methods.decode({ frameId: kitchen.frameId, format: 'auto' })!.links!;
    const whole = lines.find((l) => l.text.startsWith('PUBLISH sensors/kitchen/temp reassembled from'))!;
    expect(whole.frameIds.length).toBeGreaterThanOrEqual(4);
    expect(whole.frameIds.at(-1)).toBe(kitchen.frameId);
    whole.frameIds.slice(0, -1).forEach((part, i) => {
      const back = handlers.methods.decode({ frameId: part, format: 'auto' })!.links!;
      expect(back).toContainEqual({
        text: `part ${i + 1} of ${whole.frameIds.length} of the PUBLISH sensors/kitchen/temp completed at frame ${kitchen.frameId}`,
        frameIds: [kitchen.frameId],
      });
    });
    // The bytes of the parts, in order, are the packet.
    const packet = handlers.links.reassembledMqtt(kitchen.frameId, (id) => handlers.store.get(id)?.data)!;
    expect(packet[0] >> 4).toBe(3);
    const parts = whole.frameIds.map((id) => handlers.store.get(id)!.data);
    expect(new Uint8Array(Buffer.concat(parts))).toEqual(packet);
  });

  it('without the subprotocol, a connection becomes MQTT at its first whole packet; other connections are left alone', () => {
    // mqtt.js in a browser sends each packet whole: here the CONNECT, then Node-style pieces.
    const connect = Buffer.concat(
      wire
        .slice(
          0,
          wire.findIndex((f) => f.direction === 'received'),
        )
        .map((f) => f.data),
    );
    const rest = wire.slice(wire.findIndex((f) => f.direction === 'received'));
    const { rows } = ingest([
      { direction: 'sent', opcode: 'binary', data: new Uint8Array(connect), subprotocol: '' },
      ...rest,
    ]);
    expect(rows[0].protocol).toMatchObject({ name: 'mqtt', message: 'CONNECT' });
    expect(
      rows.filter((r) => r.direction === 'sent' && r.protocol?.message === 'PUBLISH').map((r) => r.protocol!.event),
    ).toContain('sensors/kitchen/temp');
    // The same pieces on a connection nothing marks as MQTT stay what their bytes say.
    const plain = ingest(rest);
    expect(plain.rows.some((r) => r.preview.includes('reassembled'))).toBe(false);
  });
});

describe('MQTT reassembly from the connection message (the worker as the app drives it)', () => {
  it('a connection announced with subprotocol mqtt gets reassembled rows though no frame holds a whole packet', async () => {
    const { createDispatcher } = await import('./dispatcher.js');
    const posted: FromWorker[] = [];
    const send = createDispatcher((m) => posted.push(m));
    // From the broker's first frame on: pieces only, nothing whole that would mark the connection MQTT by itself.
    const rest = wire.slice(wire.findIndex((f) => f.direction === 'received'));
    send({ type: 'connection', connectionId: 'c1', subprotocol: 'mqtt' });
    send({
      type: 'ingest',
      frames: rest.map(connectionFrameAt),
    });
    send({ type: 'call', callId: 1, method: 'decode', params: { frameId: 1, format: 'auto' } }); // flushes the rows
    const rows = posted.flatMap((m) => (m.type === 'summaries' ? m.summaries : []));
    expect(rows.length).toBe(rest.length);
    const pubs = rows.filter((r) => r.direction === 'sent' && r.protocol?.message === 'PUBLISH');
    expect(pubs.map((r) => r.protocol!.event)).toEqual(['sensors/kitchen/temp', 'sensors/attic/temp']);
    expect(pubs[0].preview).toContain('reassembled from frames');
    expect(rows.some((r) => r.protocol?.message === 'PUBLISH (part 1)')).toBe(true);
  });
});
