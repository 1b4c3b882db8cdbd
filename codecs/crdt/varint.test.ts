import { CrdtReader } from 'json-joy/lib/json-crdt-patch/util/binary/CrdtReader.js';
import { Model } from 'json-joy/lib/json-crdt/index.js';
import { Decoder as PatchDecoder } from 'json-joy/lib/json-crdt-patch/codec/binary/Decoder.js';
import { describe, expect, it } from 'vitest';
import { makeRng } from '../core/rng.js';
import { indexCrdtPatch } from './patch-walker.js';
import { readB1vu56, readVu57, varintRead } from './varint.js';

/** A varint of `count` bytes: random payload bits, "more" bits set on all but the last. */
function randomVarint(rng: ReturnType<typeof makeRng>, count: number, b1: boolean): Uint8Array {
  const bytes = new Uint8Array(count);
  for (let i = 0; i < count; i++) bytes[i] = rng.int(256);
  for (let i = 0; i < count; i++) {
    const last = i === count - 1;
    if (i === 0 && b1) bytes[i] = last ? bytes[i] & 0xbf : bytes[i] | 0x40;
    else if (i < 7) bytes[i] = last ? bytes[i] & 0x7f : bytes[i] | 0x80;
  }
  // Often a needless last 0 byte (not the shortest form).
  if (count > 1 && rng.bool(0.3)) bytes[count - 1] = 0;
  return bytes;
}

describe('json-joy varints read as json-joy 17.67.0 reads them', () => {
  it('vu57: same value and length as CrdtReader, shortest form or not', () => {
    const rng = makeRng(57);
    const out = varintRead();
    for (let n = 0; n < 5000; n++) {
      const bytes = randomVarint(rng, 1 + rng.int(8), false);
      const reader = new CrdtReader();
      reader.reset(bytes);
      const expected = reader.vu57();
      expect(readVu57(bytes, 0, bytes.length, out)).toBe(reader.x);
      if (Number.isSafeInteger(expected)) expect(out.value).toBe(expected);
      const last = bytes[bytes.length - 1];
      expect(out.shortest).toBe(bytes.length === 1 || last !== 0);
    }
  });

  it('b1vu56: same flag, value and length as CrdtReader, shortest form or not', () => {
    const rng = makeRng(56);
    const out = varintRead();
    for (let n = 0; n < 5000; n++) {
      const bytes = randomVarint(rng, 1 + rng.int(8), true);
      const reader = new CrdtReader();
      reader.reset(bytes);
      const [flag, value] = reader.b1vu56();
      expect(readB1vu56(bytes, 0, bytes.length, out)).toBe(reader.x);
      expect(out.flag).toBe(flag);
      if (Number.isSafeInteger(value)) expect(out.value).toBe(value);
      expect(out.shortest).toBe(bytes.length === 1 || bytes[bytes.length - 1] !== 0);
    }
  });

  it('a varint cut off by the limit reads as -1, at every cut', () => {
    const out = varintRead();
    const vu = Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01);
    const b1 = Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01);
    for (let limit = 0; limit < 8; limit++) {
      expect(readVu57(vu, 0, limit, out)).toBe(-1);
      expect(readB1vu56(b1, 0, limit, out)).toBe(-1);
    }
    expect(readVu57(vu, 0, 8, out)).toBe(8);
    expect(out.value).toBe(2 ** 49 - 1 + 2 ** 49);
  });
});

describe('a patch with a varint not in its shortest form', () => {
  it('is read as json-joy reads it, with a warning at the varint', () => {
    const model = Model.create(undefined, 1234);
    model.api.set({ a: 1 });
    const bytes = model.api.flush().toBinary();
    // The patch id's time (second vu57) spelled with a needless 0 byte: `t | 0x80, 0x00`.
    const sidEnd = readVu57(bytes, 0, bytes.length, varintRead());
    const time = bytes[sidEnd];
    expect(time).toBeLessThan(0x80);
    const padded = new Uint8Array([...bytes.subarray(0, sidEnd), time | 0x80, 0x00, ...bytes.subarray(sidEnd + 1)]);
    const reference = PatchDecoder.prototype.decode.call(new PatchDecoder(), padded);
    expect(reference.toBinary()).toEqual(bytes);

    const index = indexCrdtPatch(padded);
    expect(index.error).toBeNull();
    expect(index.warnings).toEqual([
      expect.objectContaining({
        code: 'non-canonical',
        offset: sidEnd,
        message: 'the patch time is not in its shortest form',
      }),
    ]);
  });
});
