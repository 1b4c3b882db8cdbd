import { describe, expect, it } from 'vitest';
import { SHAPES, shapeValues, cutToSize, asciiJson } from './shapes.js';
import { FORMATS } from './shapes-bench.js';
import { makeRng } from '../core/rng.js';
import { SpanIndex } from '../core/span-index.js';

/** The real-world-shapes set of `npm run bench`: deterministic, the shapes it claims, valid in every format. */
describe('benchmark shapes', () => {
  const values = shapeValues(13, SHAPES, [8 << 10, 64 << 10]);

  it('are the same for the same seed', () => {
    const again = shapeValues(13, SHAPES, [8 << 10, 64 << 10]);
    expect(again.map((v) => JSON.stringify(v.value))).toEqual(values.map((v) => JSON.stringify(v.value)));
  });

  it('come near their target size as compact JSON', () => {
    for (const { shape, target, value } of values) {
      const size = JSON.stringify(value).length;
      expect(size, `${shape.id} ${target}`).toBeGreaterThan(target * 0.5);
      expect(size, `${shape.id} ${target}`).toBeLessThan(target * 2 + 600);
    }
  });

  it('tweets have 20 to 40 keys, unicode and escapes; their JSON text is ASCII with \\u escapes', () => {
    const doc = SHAPES[0].generate(makeRng(1), 64 << 10) as { statuses: Record<string, unknown>[] };
    for (const status of doc.statuses) {
      const keys = Object.keys(status).length + Object.keys(status.user as object).length;
      expect(Object.keys(status).length).toBeGreaterThanOrEqual(20);
      expect(Object.keys(status.user as object).length).toBeGreaterThanOrEqual(20);
      expect(Math.max(Object.keys(status).length, Object.keys(status.user as object).length)).toBeLessThanOrEqual(40);
      expect(keys).toBeGreaterThan(40);
    }
    const text = asciiJson(doc);
    expect(text).toMatch(/\\u[0-9a-f]{4}/);
    expect(text).toMatch(/\\ud83[cd]\\u[0-9a-f]{4}/); // astral characters as surrogate-pair escapes
    expect(text).toMatch(/\\"|\\\\|\\n/);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the test asks for ASCII bytes only
    expect(/[^\x00-\x7f]/.test(text)).toBe(false);
    expect(JSON.parse(text)).toEqual(doc);
  });

  it('cut frames keep the document structure from its front', () => {
    const doc = { a: [1, 2, 3, { b: 'x'.repeat(500) }], c: 'tail' };
    const frame = cutToSize(doc, 30) as { a: unknown[] };
    expect(Object.keys(frame)[0]).toBe('a');
    expect(frame.a[0]).toBe(1);
    expect(JSON.stringify(cutToSize(doc, 60)).length).toBeLessThan(120);
  });

  it('every frame encodes and indexes without error in CBOR, MessagePack and JSON, to the decoders value', () => {
    for (const { shape, target, value } of values) {
      for (const f of FORMATS) {
        const bytes = f.encode(value, shape.jsonText(value));
        const index = new SpanIndex(bytes, f.walker);
        expect(index.error, `${f.format} ${shape.id} ${target}`).toBeNull();
        expect(index.warnings, `${f.format} ${shape.id} ${target}`).toEqual([]);
        for (const ref of f.references) expect(ref.run(bytes), `${f.format} ${shape.id} ${ref.name}`).toEqual(value);
      }
    }
  });
});
