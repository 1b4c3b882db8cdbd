import { encode as msgpackEncode } from '@msgpack/msgpack';
import { encode as cbor2Encode } from 'cbor2';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { indexCbor } from '../cbor/index.js';
import { diagnostic } from '../core/diagnostic.js';
import { indexMsgpack } from '../msgpack/index.js';
import { cborFromEdn } from './cbor-from-edn.js';
import { msgpackEditText } from './msgpack-edit-text.js';
import { msgpackFromText } from './msgpack-from-text.js';

/**
 * An edited value encodes as an independent encoder encodes that value: the edit text of a
 * frame, one value changed, gives the bytes cbor2 (CBOR, preferred serialization) or
 * @msgpack/msgpack (MessagePack) write for the edited value.
 */
const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : 0x656474;
const toHex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** Values both notations spell alike: safe integers, finite doubles (not -0), strings, booleans, null, arrays, objects. */
const number = fc.oneof(
  fc.integer(),
  fc.maxSafeInteger(),
  fc
    .double({ noNaN: true, noDefaultInfinity: true })
    .filter((v) => !Object.is(v, -0) && (!Number.isInteger(v) || Number.isSafeInteger(v))),
);
const value = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    number,
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(fc.string({ unit: 'grapheme', maxLength: 6 }), tie('v'), { maxKeys: 4 }),
  ),
})).v;

function ok(r: ReturnType<typeof cborFromEdn>): string {
  if (!r.ok) throw new Error(`${r.error.line}:${r.error.column}: ${r.error.message}`);
  return toHex(r.bytes);
}

describe('an edited map value encodes as an independent encoder encodes the edited value', () => {
  it('CBOR: the EDN of a frame with one value replaced gives the bytes cbor2 writes', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 6 }), value, { minKeys: 1, maxKeys: 4 }), value, (map, next) => {
        const frame = cbor2Encode(map);
        const index = indexCbor(frame);
        expect(index.error).toBeNull();
        const key = Object.keys(map)[0];
        const edited = { ...map, [key]: next };
        // The first value's text swapped for the new value's EDN (JSON is EDN).
        const text = diagnostic(index, index.root);
        const firstValue = index.store.nextSibling[index.store.firstChild[index.root]];
        const valueText = diagnostic(index, firstValue);
        const at = text.indexOf(valueText, JSON.stringify(key).length + 1);
        const editedText = text.slice(0, at) + JSON.stringify(next) + text.slice(at + valueText.length);
        expect(ok(cborFromEdn(editedText)), editedText).toBe(toHex(cbor2Encode(edited)));
      }),
      { seed: SEED, numRuns: 400, endOnFailure: true },
    );
  });

  it('MessagePack: the edit text of a frame with one value replaced gives the bytes @msgpack/msgpack writes', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 6 }), value, { minKeys: 1, maxKeys: 4 }), value, (map, next) => {
        const frame = msgpackEncode(map);
        const index = indexMsgpack(frame);
        expect(index.error).toBeNull();
        const key = Object.keys(map)[0];
        const edited = { ...map, [key]: next };
        const text = msgpackEditText(index, index.root);
        const firstValue = index.store.nextSibling[index.store.firstChild[index.root]];
        const valueText = msgpackEditText(index, firstValue);
        const at = text.indexOf(valueText, JSON.stringify(key).length + 1);
        const editedText = text.slice(0, at) + JSON.stringify(next) + text.slice(at + valueText.length);
        const r = msgpackFromText(editedText);
        expect(r.ok && toHex(r.bytes), editedText).toBe(toHex(msgpackEncode(edited)));
      }),
      { seed: SEED, numRuns: 400, endOnFailure: true },
    );
  });
});
