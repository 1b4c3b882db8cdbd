import { describe, expect, it } from 'vitest';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder';
import { MsgPackEncoder } from '@jsonjoy.com/json-pack/lib/msgpack/MsgPackEncoder';
import { decodeFrame, type FrameFormat } from './index.js';
import { editedModel, makeRng, randomJson } from './crdt/corpus.js';
import { hex } from './test/helpers/cbor.js';

/**
 * An error message names one offset, the error's own, at its end: truncation messages
 * used to name the cut item's start and then get the error offset appended
 * (`… at byte 0 (needs 1 argument bytes, 0 remain) at byte 1`).
 */
function offsetsNamed(message: string): number[] {
  return [...message.matchAll(/\bat byte (\d+)/g)].map((m) => Number(m[1]));
}

function expectOneOffset(bytes: Uint8Array, format: FrameFormat): void {
  const { error } = decodeFrame(bytes, { format });
  if (!error) return;
  expect(offsetsNamed(error.message), `${format} ${Buffer.from(bytes).toString('hex')}: ${error.message}`).toEqual([
    error.offset,
  ]);
  expect(error.message.endsWith(`at byte ${error.offset}`)).toBe(true);
}

describe('error messages name one offset, the right one', () => {
  it('a CBOR head cut inside its argument', () => {
    const { error } = decodeFrame(hex('1a 00'), { format: 'cbor' });
    expect(error).toMatchObject({ code: 'truncated', offset: 2 });
    expect(error!.message).toBe(
      'unexpected end of input inside the head of an item (initial byte 0x1a needs 4 argument bytes, 1 remains) at byte 2',
    );
    // The same in the skipper (below the recorded depth).
    expect(decodeFrame(hex('81 81 19'), { format: 'cbor', depth: 0 }).error!.message).toBe(
      'unexpected end of input inside the head of an item (initial byte 0x19 needs 2 argument bytes, 0 remain) at byte 3',
    );
  });

  it('a MessagePack item cut inside its fixed part', () => {
    const { error } = decodeFrame(hex('cd 01'), { format: 'msgpack' });
    expect(error).toMatchObject({ code: 'truncated', offset: 2 });
    expect(offsetsNamed(error!.message)).toEqual([2]);
  });

  it('every prefix of CBOR, MessagePack and JSON frames', () => {
    const rng = makeRng(7);
    for (let i = 0; i < 20; i++) {
      const value = randomJson(rng, 12);
      const frames: [Uint8Array, FrameFormat][] = [
        [new CborEncoder().encode(value), 'cbor'],
        [new MsgPackEncoder().encode(value), 'msgpack'],
        [new TextEncoder().encode(JSON.stringify(value)), 'json'],
      ];
      for (const [bytes, format] of frames)
        for (let cut = 1; cut < bytes.length; cut++) expectOneOffset(bytes.subarray(0, cut), format);
    }
  });

  it('every prefix of json-joy models and patches', () => {
    for (const clock of ['logical', 'server'] as const) {
      const { model, patches } = editedModel(3, { clock, edits: 8, size: 4 });
      const frames: [Uint8Array, FrameFormat][] = [
        [model.toBinary(), 'crdt-model'],
        ...patches.slice(0, 4).map((p) => [p.toBinary(), 'crdt-patch'] as [Uint8Array, FrameFormat]),
      ];
      for (const [bytes, format] of frames)
        for (let cut = 1; cut < bytes.length; cut++) expectOneOffset(bytes.subarray(0, cut), format);
    }
  });
});
