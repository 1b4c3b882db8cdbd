import fc from 'fast-check';

/** A frame field's value for the schema-codec property tests (Avro oracle, inferred schemas): every scalar kind a schema must hold or list as a mismatch. */
export const schemaScalar = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }),
  fc.integer(),
  fc.maxSafeInteger(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 8 }),
  fc.boolean(),
  fc.uint8Array({ maxLength: 6 }),
  fc.constant(null),
);
