/**
 * protobuf-wire.ts writes nested messages and packed lists into scratch writers reused
 * from message to message (no writer per nested message): the bytes are those of a writer
 * per message — checked by hand on a small value, unchanged by what was encoded before
 * (a bigger value, a value that stops mid-way with a mismatch), and read back whole.
 */
import { describe, expect, it } from 'vitest';
import { decodeProtobuf, encodeProtobuf } from './protobuf-wire';
import { inferProtobuf } from './protobuf-infer';

const bytesOf = (r: Uint8Array | { readonly mismatch: string }): number[] => {
  if (!(r instanceof Uint8Array)) throw new Error(r.mismatch);
  return [...r];
};

describe('Protobuf encoding with reused scratch writers', () => {
  it('writes a nested message holding a packed list as by hand, before and after other encodings', () => {
    const small = { x: { y: [1, 2] } };
    const big = {
      x: {
        y: Array.from({ length: 300 }, (_, i) => i * 1000),
        z: 'z'.repeat(600),
        w: { v: [{ u: 'deep'.repeat(100) }, { u: 'er' }] },
      },
    };
    const schema = inferProtobuf([small, big]);
    // field 1 (x), length 4: field 1 (y) packed, length 2: 1, 2.
    const expected = [0x0a, 0x04, 0x0a, 0x02, 0x01, 0x02];
    expect(bytesOf(encodeProtobuf(schema, small))).toEqual(expected);
    const bigBytes = encodeProtobuf(schema, big);
    expect(decodeProtobuf(schema, bigBytes as Uint8Array)).toEqual(big);
    expect(bytesOf(encodeProtobuf(schema, small))).toEqual(expected);
    // A mismatch deep inside a nested message leaves no writer half-used.
    expect(encodeProtobuf(schema, { x: { w: { v: [{ u: 'ok' }, { u: 5 }] } } })).toHaveProperty('mismatch');
    expect(bytesOf(encodeProtobuf(schema, small))).toEqual(expected);
    expect([...(encodeProtobuf(schema, big) as Uint8Array)]).toEqual([...(bigBytes as Uint8Array)]);
  });

  it('returns bytes of its own: a later encoding does not change an earlier result', () => {
    const schema = inferProtobuf([{ a: { b: 'one' } }, { a: { b: 'two' } }]);
    const first = encodeProtobuf(schema, { a: { b: 'one' } }) as Uint8Array;
    const copy = [...first];
    encodeProtobuf(schema, { a: { b: 'two' } });
    expect([...first]).toEqual(copy);
  });
});
