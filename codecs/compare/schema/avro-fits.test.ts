/**
 * The Avro codec skips its per-frame check (avroMismatch) for frames the schema inference's
 * last round already checked against the same schema and found fitting. Every frame's
 * answer (bytes or mismatch) must be what a check-then-encode of it gives.
 */
import { describe, expect, it } from 'vitest';
import { encodeAvro } from './avro-binary.js';
import { avroMismatch, inferAvroSchema, type AvroType } from './avro-schema.js';
import { avroCodec } from './avro-codec.js';

/** What encode gave before the skip: check, then encode. */
function checked(type: AvroType, value: unknown): Uint8Array | { mismatch: string } {
  const why = avroMismatch(type, value);
  return why === null ? encodeAvro(type, value) : { mismatch: why };
}

describe('Avro: frames found fitting by inference are not checked twice', () => {
  it('records frames the last round found fitting; same bytes and mismatches as check-then-encode', () => {
    const values: unknown[] = [];
    for (let i = 0; i < 600; i++) values.push({ id: i, name: `n${i}`, tags: i % 3 ? ['a', 'b'] : [], px: i / 7 });
    values.push(undefined, 5, 'text', null, [1, 2]);
    const fits = new WeakSet<object>();
    const type = inferAvroSchema(values, fits)!;
    for (const v of values)
      if (typeof v === 'object' && v !== null && !Array.isArray(v)) expect(fits.has(v)).toBe(true);
    const codec = avroCodec(values);
    for (const v of values) if (v !== undefined) expect(codec.encode(v)).toEqual(checked(type, v));
    // A frame not seen by inference is still checked.
    expect(codec.encode({ id: 1, name: 'x', tags: [], px: 1, extra: true })).toEqual(
      checked(type, { id: 1, name: 'x', tags: [], px: 1, extra: true }),
    );
  });

  it('records nothing when the rounds run out with frames still misfitting; those stay mismatches', () => {
    // 200 sampled frames of one record, then 500 each adding its own key: four rounds merge
    // 400 of them, the last 100 still do not fit the returned schema.
    const values: unknown[] = [];
    for (let i = 0; i < 200; i++) values.push({ a: i });
    for (let i = 0; i < 500; i++) values.push({ a: i, [`k${i}`]: i });
    const fits = new WeakSet<object>();
    const type = inferAvroSchema(values, fits)!;
    for (const v of values) expect(fits.has(v as object)).toBe(false);
    const codec = avroCodec(values);
    let mismatches = 0;
    for (const v of values) {
      const out = codec.encode(v);
      expect(out).toEqual(checked(type, v));
      if (!(out instanceof Uint8Array)) mismatches++;
    }
    expect(mismatches).toBe(100);
  });
});
