/**
 * A json-joy model of the ~1 MB document is ~66 MB of heap, and every major
 * garbage collection marks what is still referenced. A comparison kept every prepared value
 * (both CRDT models, converted copies) to its end; now each is dropped once no codec still
 * to run shares it, so the server-clock model lives only through its own row.
 */
import { describe, expect, it } from 'vitest';
import { codecByName, type Codec, type PrepareCache } from './codecs.js';
import { runComparison } from './compare.js';

/** A codec that records what the comparison's cache holds when it is prepared. */
function probe(name: string, seen: Map<string, Map<string, unknown>>): Codec {
  const json = codecByName('json')!;
  return {
    ...json,
    name,
    label: name,
    shares: undefined,
    prepare: (value, f, cache: PrepareCache) => (seen.set(name, new Map(cache)), json.prepare(value, f, cache)),
  };
}

describe('prepared values are released', () => {
  const value = { a: [1, 2, 3], s: 'text', nested: { b: true } };

  it('the server-clock model is dropped after its row; the logical model stays while a logical codec is still to run', async () => {
    const seen = new Map<string, Map<string, unknown>>();
    await runComparison(value, {
      runs: 1,
      warmup: 0,
      compress: false,
      codecs: [
        'json-joy-binary',
        'json-joy-binary-server',
        probe('after-server', seen),
        'json-joy-compact',
        probe('after-last', seen),
      ],
    });
    expect([...seen.get('after-server')!.keys()]).toEqual(['json-joy:logical']);
    expect([...seen.get('after-last')!.keys()]).toEqual([]);
  });

  it('codecs sharing a prepared value still get the same one (one model per clock, one conversion per family)', async () => {
    const seen = new Map<string, Map<string, unknown>>();
    const withBytes = { ...value, b: Uint8Array.of(1, 2), m: new Map([[1, 'one']]) };
    await runComparison(withBytes, {
      runs: 1,
      warmup: 0,
      compress: false,
      codecs: ['cbor', probe('mid-cbor', seen), 'cbor-stable', 'cbor-dag', probe('after-cbor', seen)],
    });
    expect([...seen.get('mid-cbor')!.keys()]).toEqual(['convert:cbor']);
    expect([...seen.get('after-cbor')!.keys()]).toEqual([]);
    const codecs = ['json-joy-binary', 'json-joy-compact', 'json-joy-sidecar'].map((n) => codecByName(n)!);
    const models = new Set<unknown>();
    const cache: PrepareCache = new Map();
    for (const c of codecs) models.add(c.prepare(value, undefined as never, cache));
    expect(models.size).toBe(1);
  });
});
