/**
 * The sample lanes warm on before a comparison (codecs/compare/lane-sample.ts): small, the
 * value's own shapes, a valid value of the value model, and the value left as it was.
 */
import { describe, expect, it } from 'vitest';
import { laneSample, SAMPLE_ITEMS, SAMPLE_KEYS, SAMPLE_NODES, SAMPLE_TEXT } from './lane-sample.js';
import { EntriesMap, ExtValue, SimpleValue, TaggedValue } from '../core/values.js';
import { generateDocument } from '../bench/generate.js';
import { scanValue } from './features.js';

const countNodes = (v: unknown): number => {
  if (v === null || typeof v !== 'object' || v instanceof Uint8Array) return 1;
  if (Array.isArray(v)) return 1 + v.reduce((n: number, x) => n + countNodes(x), 0);
  if (v instanceof Map) return 1 + [...v.values()].reduce((n: number, x) => n + countNodes(x), 0);
  return 1 + Object.values(v).reduce((n: number, x) => n + countNodes(x), 0);
};

describe('laneSample', () => {
  it('a 1 MB document: a sample of a few percent with the same record shape, the document untouched', () => {
    const doc = generateDocument(1 << 20) as { events: Record<string, unknown>[] };
    const before = JSON.stringify(doc);
    const sample = laneSample(doc) as { stream: string; version: number; events: Record<string, unknown>[] };
    expect(JSON.stringify(doc)).toBe(before);
    const size = JSON.stringify(sample).length;
    expect(size).toBeLessThan(before.length / 20);
    expect(size).toBeGreaterThan(4_000);
    expect(sample.events).toHaveLength(SAMPLE_ITEMS);
    expect(sample.events.slice(0, 5)).toEqual(doc.events.slice(0, 5));
    expect(Object.keys(sample.events[0])).toEqual(Object.keys(doc.events[0]));
    expect(countNodes(sample)).toBeLessThanOrEqual(SAMPLE_NODES + 200);
  });

  it('many keys, long arrays, long text and bytes are cut; a surrogate pair is never split', () => {
    const wide = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, i]));
    const text = 'a'.repeat(SAMPLE_TEXT - 1) + '😀' + 'b'.repeat(10);
    const sample = laneSample({
      wide,
      list: Array.from({ length: 10_000 }, (_, i) => i * 0.5),
      text,
      bytes: new Uint8Array(100_000).fill(7),
    }) as Record<string, unknown>;
    expect(Object.keys(sample.wide as object)).toHaveLength(SAMPLE_KEYS);
    expect(sample.list).toEqual(Array.from({ length: SAMPLE_ITEMS }, (_, i) => i * 0.5));
    expect(sample.text).toBe('a'.repeat(SAMPLE_TEXT - 1));
    expect(sample.bytes).toEqual(new Uint8Array(SAMPLE_TEXT).fill(7));
  });

  it('the value model kept: tags (content sampled), simple and ext values, Maps, EntriesMaps, bigint, -0, undefined, an own __proto__ key', () => {
    const proto = JSON.parse('{"__proto__": {"x": 1}}') as Record<string, unknown>;
    const value = {
      tag: new TaggedValue(
        1000,
        Array.from({ length: 100 }, (_, i) => i),
      ),
      simple: new SimpleValue(99),
      ext: new ExtValue(5, Uint8Array.of(1, 2)),
      map: new Map<unknown, unknown>([
        [1, 'one'],
        [2n, [1, 2]],
      ]),
      entries: new EntriesMap([
        ['a', 1],
        ['a', 2],
      ]),
      big: 1n << 80n,
      negZero: -0,
      nothing: undefined,
      proto,
    };
    const sample = laneSample(value) as typeof value;
    expect(sample.tag).toBeInstanceOf(TaggedValue);
    expect(sample.tag.tag).toBe(1000);
    expect(sample.tag.value).toHaveLength(SAMPLE_ITEMS);
    expect(sample.simple).toBe(value.simple);
    expect(sample.ext).toBe(value.ext);
    expect(sample.map).toEqual(value.map);
    expect(sample.entries).toBeInstanceOf(EntriesMap);
    expect(sample.entries.entries).toEqual([
      ['a', 1],
      ['a', 2],
    ]);
    expect(sample.big).toBe(1n << 80n);
    expect(Object.is(sample.negZero, -0)).toBe(true);
    expect('nothing' in sample && sample.nothing === undefined).toBe(true);
    expect(Object.keys(sample.proto)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(sample.proto)).toBe(Object.prototype);
    const f = scanValue(sample);
    expect([f.tags, f.simples, f.exts, f.duplicateKeyMaps, f.bigints]).toEqual([1, 1, 1, 1, 2]);
  });

  it('a value nested 100,000 deep: sampled without recursion trouble, no deeper than the cap', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const sample = laneSample(deep);
    expect(scanValue(sample).depth).toBeLessThanOrEqual(64);
  });

  it('leaves are themselves', () => {
    for (const leaf of [1, 'x', null, true, 2n, undefined]) expect(laneSample(leaf)).toBe(leaf);
  });
});
