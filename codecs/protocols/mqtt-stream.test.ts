/**
 * MQTT packets split across WebSocket frames, put back together per connection and
 * direction: real traffic from mqtt.js in Node (each part of a packet its own frame, against
 * aedes), the same packets split at every offset and batched several per frame, and damaged
 * streams that must never throw.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import mqttPacket from 'mqtt-packet';
import { SpanIndex, mqttWalker, mqttPackets } from '../index.js';
import { MqttReassembler, type ReassembledPacket } from './mqtt-stream.js';
import { nodeMqttSession } from './test/mqtt-rig.js';
import type { CapturedFrame } from './test/ws-capture.js';

/** Every packet in a byte stream, as the mqtt library's own parser (mqtt-packet) finds them. */
function libraryPackets(stream: Uint8Array): string[] {
  const parser = mqttPacket.parser({ protocolVersion: 4 }) as unknown as {
    on(e: 'packet', f: (p: { cmd: string }) => void): void;
    parse(b: Buffer): void;
  };
  const out: string[] = [];
  parser.on('packet', (p) => out.push(p.cmd.toUpperCase()));
  parser.parse(Buffer.from(stream));
  return out;
}

const concat = (parts: readonly Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

let wire: CapturedFrame[] = [];
beforeAll(async () => {
  wire = await nodeMqttSession();
}, 30_000);

describe('MQTT reassembly across frames', () => {
  it('puts back every packet mqtt.js in Node wrote in pieces, each part traced to its frame', () => {
    for (const direction of ['sent', 'received'] as const) {
      const frames = wire.filter((f) => f.direction === direction);
      // Node writes most packets in pieces: far more frames than packets.
      const stream = concat(frames.map((f) => f.data));
      const expected = libraryPackets(stream);
      expect(frames.length).toBeGreaterThan(expected.length);
      const r = new MqttReassembler();
      const packets: { type: string; bytes: Uint8Array }[] = [];
      const reassembled: ReassembledPacket[] = [];
      frames.forEach((f, i) => {
        const result = r.feed(i, f.data);
        expect(result.error).toBeNull();
        for (const piece of result.pieces) {
          if (!piece.completes) continue;
          const done = result.completed.find((c) => c.packet === piece.packet);
          packets.push({ type: piece.type, bytes: done ? done.bytes : f.data.subarray(piece.start, piece.end) });
        }
        reassembled.push(...result.completed);
      });
      expect(packets.map((p) => p.type)).toEqual(expected);
      expect(concat(packets.map((p) => p.bytes))).toEqual(stream);
      // Every put-together packet reads whole as MQTT, and its parts point at the bytes they came from.
      expect(reassembled.length).toBeGreaterThan(3);
      for (const p of reassembled) {
        const ix = new SpanIndex(p.bytes, mqttWalker, { depth: 1 });
        expect(ix.error).toBeNull();
        expect(mqttPackets(ix)[0].type).toBe(p.type);
        for (const part of p.parts)
          expect(frames[part.frameId].data.subarray(part.start, part.end)).toEqual(
            p.bytes.subarray(part.at, part.at + part.end - part.start),
          );
      }
      expect(r.inProgress).toBeNull();
    }
  });

  it('splits at every offset and batches several packets per frame: the same packets come out', () => {
    const stream = concat(wire.filter((f) => f.direction === 'sent').map((f) => f.data));
    const expected = libraryPackets(stream);
    for (let cut = 1; cut < stream.length; cut++) {
      const r = new MqttReassembler();
      const a = r.feed(1, stream.subarray(0, cut));
      const b = r.feed(2, stream.subarray(cut));
      expect(a.error ?? b.error).toBeNull();
      const types = [...a.pieces, ...b.pieces].filter((p) => p.completes).map((p) => p.type);
      expect(types).toEqual(expected);
      // At most one packet straddles the cut, and it comes back whole.
      expect(b.completed.length).toBeLessThanOrEqual(1);
      for (const c of b.completed) expect(c.parts.map((p) => p.frameId)).toEqual([1, 2]);
    }
  });

  it('bytes that cannot start a packet are an error with the frame offset; the next frame starts afresh; nothing throws', () => {
    const r = new MqttReassembler();
    const first = r.feed(1, new Uint8Array([0x30, 0x05, 0x00]));
    expect(first.pieces).toMatchObject([{ type: 'PUBLISH', part: 0, completes: false }]);
    r.reset(); // a lost frame
    expect(r.inProgress).toBeNull();
    const junk = r.feed(2, new Uint8Array([0xc0, 0x00, 0x07, 0x01]));
    expect(junk.pieces).toMatchObject([{ type: 'PINGREQ', completes: true }]);
    expect(junk.error).toEqual({ offset: 2, message: 'byte 2 cannot start an MQTT packet: packet type 0 is reserved' });
    expect(r.feed(3, new Uint8Array([0xd0, 0x00])).pieces).toMatchObject([{ type: 'PINGRESP', completes: true }]);
    expect(r.feed(4, new Uint8Array([0x30, 0xff, 0xff, 0xff, 0xff])).error).toMatchObject({ offset: 4 });

    const frames = wire.map((f) => f.data);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat(), fc.integer({ min: 0, max: 255 })), {
          minLength: 1,
          maxLength: 30,
        }),
        (edits) => {
          const s = new MqttReassembler();
          edits.forEach(([pick, cutAt, flipAt, value], i) => {
            const original = frames[pick % frames.length];
            const bytes = original.slice(0, 1 + (cutAt % original.length));
            bytes[flipAt % bytes.length] = value;
            const result = s.feed(i, bytes);
            if (result.error) expect(result.error.offset).toBeLessThan(bytes.length);
            for (const p of result.pieces) expect(p.end).toBeLessThanOrEqual(bytes.length);
            for (const c of result.completed) new SpanIndex(c.bytes, mqttWalker, { depth: 1 }).value(0);
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});
