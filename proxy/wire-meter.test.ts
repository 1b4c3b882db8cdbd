import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';

// ws's own framing builds the frames the meter reads (its Sender is not in ws's type declarations).
const { Sender } = createRequire(import.meta.url)('ws') as { Sender: unknown };
import { createWireMeter } from './wire-meter.js';

type FrameOptions = { fin: boolean; opcode: number; mask: boolean; rsv1?: boolean };
const frame = (payload: Buffer, options: FrameOptions): Buffer =>
  Buffer.concat(
    (
      Sender as unknown as {
        frame(data: Buffer, options: FrameOptions & { readOnly: boolean; maskKey?: Buffer }): Buffer[];
      }
    ).frame(payload, { readOnly: false, rsv1: false, maskKey: Buffer.alloc(4, 9), ...options }),
  );

describe('createWireMeter', () => {
  it("adds a message's frames (7-, 16- and 64-bit lengths, masked or not) and counts control frames apart, fed a byte at a time", () => {
    const stream = Buffer.concat([
      frame(Buffer.alloc(10), { fin: true, opcode: 1, mask: true }), // 2 + 4 + 10
      frame(Buffer.alloc(300), { fin: false, opcode: 2, mask: false }), // 4 + 300
      frame(Buffer.alloc(5), { fin: true, opcode: 9, mask: false }), // a ping between fragments: 2 + 5
      frame(Buffer.alloc(70_000), { fin: true, opcode: 0, mask: false }), // 10 + 70,000
      frame(Buffer.alloc(0), { fin: true, opcode: 1, mask: false }), // 2
    ]);
    const messages: number[] = [];
    const meter = createWireMeter((n) => messages.push(n));
    for (const byte of stream) meter.push(Uint8Array.of(byte));
    expect(messages).toEqual([16, 304 + 70_010, 2]);
    expect(meter.controlBytes()).toBe(7);
    const whole: number[] = [];
    createWireMeter((n) => whole.push(n)).push(stream);
    expect(whole).toEqual(messages);
  });
});
