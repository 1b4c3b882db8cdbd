/**
 * Frames whose own bytes cannot say what they are read as the frames around them say: a part
 * of an MQTT packet split over frames (mqtt.js writes each part as its own message) reads as
 * MQTT, that part, never a guessed format or a cut-short packet; a Socket.IO attachment reads
 * as a format only when one reads it whole, else as plain binary, never "malformed <guess>".
 */
import { describe, expect, it } from 'vitest';
import { ingestFrames, type FrameContent } from './test/ingest-frames.js';

const ingest = (frames: readonly FrameContent[], subprotocol?: string) =>
  ingestFrames(frames, (h) => subprotocol && h.setSubprotocol('c1', subprotocol));

const bin = (...bytes: number[]) => ({
  direction: 'sent' as const,
  opcode: 'binary' as const,
  data: new Uint8Array(bytes),
});

/** A CONNECT (protocol MQTT 3.1.1, keep-alive 60, empty client id) a part per frame, as aedes' clients write it. */
const CONNECT_PARTS = [
  [0x10],
  [0x0c],
  [0x00, 0x04],
  [0x4d, 0x51, 0x54, 0x54],
  [0x04],
  [0x02],
  [0x00, 0x3c],
  [0x00, 0x00],
];

describe('a part of an MQTT packet split over frames', () => {
  it('lists as mqtt with no malformed verdict, whatever its bytes alone would read as', () => {
    const { rows } = ingest(
      CONNECT_PARTS.map((p) => bin(...p)),
      'mqtt',
    );
    for (const row of rows) {
      expect(row.format, `frame ${row.frameId}`).toBe('mqtt');
      expect(row.verdict, `frame ${row.frameId}`).toBe('decoded');
      expect(row.error, `frame ${row.frameId}`).toBeNull();
    }
    expect(rows.at(-1)!.protocol).toMatchObject({ name: 'mqtt', message: 'CONNECT' });
  });

  it('opens as the part it is: no error, a node per part spanning its bytes, named by packet and part', () => {
    const { handlers } = ingest(
      CONNECT_PARTS.map((p) => bin(...p)),
      'mqtt',
    );
    for (const frameId of [1, 2, 4]) {
      const detail = handlers.methods.decode({ frameId, format: 'auto' })!;
      expect(detail.format).toBe('mqtt');
      expect(detail.verdict).toBe('decoded');
      expect(detail.error).toBeNull();
      expect(detail.root!.head).toBe('MQTT, part of CONNECT packet');
      const [part] = handlers.methods.children({ frameId, format: 'auto', nodeId: detail.root!.id, limit: 10 }).nodes;
      expect(part.label).toMatch(new RegExp(`^CONNECT packet 0, part ${frameId} \\(packet bytes \\d+–\\d+\\)$`));
      expect([part.start, part.end]).toEqual([0, CONNECT_PARTS[frameId - 1].length]);
    }
  });

  it('a frame that cannot start a packet (a reserved packet type) is not called a part', () => {
    const { rows, handlers } = ingest([bin(0x10), bin(0x02), bin(0x00, 0x00), bin(0x00, 0x05)], 'mqtt');
    expect(rows[2].protocol).toMatchObject({ name: 'mqtt', message: 'CONNECT' });
    expect(rows[3].verdict).not.toBe('decoded');
    expect(handlers.methods.decode({ frameId: 4, format: 'auto' })!.verdict).not.toBe('decoded');
  });
});

describe('a Socket.IO binary attachment', () => {
  const event = (text: string) => ({
    direction: 'received' as const,
    opcode: 'text' as const,
    data: new TextEncoder().encode(text),
  });
  const attachment = (...bytes: number[]) => ({ ...bin(...bytes), direction: 'received' as const });

  it('that no format reads whole is plain binary, not a malformed guess (01 02 03 04 is no broken yjs)', () => {
    const { rows, handlers } = ingest([
      event('451-["uploaded",{"_placeholder":true,"num":0}]'),
      attachment(0x01, 0x02, 0x03, 0x04),
    ]);
    expect(rows[1].protocol).toMatchObject({ name: 'socket.io', message: 'attachment' });
    expect(rows[1].format).toBeNull();
    expect(rows[1].verdict).toBe('unknown');
    const detail = handlers.methods.decode({ frameId: 2, format: 'auto' })!;
    expect(detail.verdict).toBe('unknown');
    expect(detail.format).toBeNull();
    expect(detail.error!.message).toContain('Socket.IO attachment');
  });

  it('that a format reads whole reads as that format', () => {
    const { rows } = ingest([
      event('451-["uploaded",{"_placeholder":true,"num":0}]'),
      attachment(0xa1, 0x61, 0x61, 0x01),
    ]);
    expect(rows[1].format).toBe('cbor');
    expect(rows[1].verdict).toBe('decoded');
  });
});
