/**
 * Avro's reasons for a value it cannot type name what the value is in the user's terms,
 * never a class name (a minified worker showed `pe` for a map with a key twice).
 */
import { describe, expect, it } from 'vitest';
import { typeOfValue, whyNoAvroType } from './avro-schema.js';
import { EntriesMap, ExtValue, SimpleValue, TaggedValue } from '../../core/values.js';

const cases: [unknown, RegExp][] = [
  [
    new EntriesMap([
      ['id', 1],
      ['id', 2],
    ]),
    /a map with a key twice \(duplicate keys\)/,
  ],
  [new Map<unknown, unknown>([[1, 'a']]), /a map whose keys are not all text/],
  [new TaggedValue(1000, 'x'), /a tagged value \(tag 1000\)/],
  [new ExtValue(5, Uint8Array.of(1)), /an extension value \(type 5\)/],
  [new SimpleValue(99), /a simple value \(99\)/],
];

describe('Avro: why a value has no type', () => {
  it.each(cases)('%o', (value, reason) => {
    const why = whyNoAvroType({ customer: value });
    expect(why).toMatch(reason);
    expect(why).toMatch(/^customer: /);
    expect(why).not.toMatch(/EntriesMap|TaggedValue|ExtValue|SimpleValue|\bMap\b|duplicate keys\?/);
    expect(() => typeOfValue(value)).toThrow(reason);
  });
});
