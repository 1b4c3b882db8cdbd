import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { create, toBinary } from '@bufbuild/protobuf';
import { Kind } from '../../core/kinds.js';
import { SpanIndex } from '../../core/span-index.js';
import { loadSchema, lookupMessage, schemaWalker } from './index.js';
import { bufbuildRegistry, normalize, protobufjsRoot, TEST_PROTO_FILE } from '../../test/helpers/protobuf-schema.js';
import { type Model, model, toBufbuild, toProtobufjs } from '../../test/helpers/protobuf-model.js';

/**
 * Random messages of the test schema, encoded by protobufjs and by @bufbuild/protobuf: the
 * schema walker's spans tile every frame (each container's children run from the end of its
 * head to its end, one after another), its values equal protobufjs' decode, and mutated or
 * truncated frames never throw.
 */
const root = protobufjsRoot();
const Everything = root.lookupType('wtest.Everything');
const registry = bufbuildRegistry(root);
const BufEverything = registry.getMessage('wtest.Everything')!;
const loaded = loadSchema([TEST_PROTO_FILE]);
if (!loaded.ok) throw new Error(loaded.error);
const walker = schemaWalker(lookupMessage(loaded.schema, 'wtest.Everything')!);

function encodeProtobufjs(m: Model): Uint8Array {
  return Everything.encode(Everything.fromObject(toProtobufjs(m))).finish();
}
function encodeBufbuild(m: Model): Uint8Array {
  return toBinary(BufEverything, create(BufEverything, toBufbuild(m) as never));
}

/** Every container's children tile it: from the end of its head to its end, in order, no gaps. */
function expectTiled(index: SpanIndex): void {
  const { store } = index;
  for (let id = 0; id < store.size; id++) {
    if (!index.isContainer(id)) continue;
    let at = store.start[id] + store.head[id];
    for (let c = store.firstChild[id]; c >= 0; c = store.nextSibling[c]) {
      expect(store.start[c], `node ${c} starts where its previous sibling ends`).toBe(at);
      at = store.end[c];
    }
    expect(at, `node ${id}'s children reach its end`).toBe(store.end[id]);
  }
  expect(store.end[0]).toBe(index.bytes.length);
}

function checkFrame(bytes: Uint8Array): void {
  const index = new SpanIndex(bytes, walker);
  expect(index.error).toBeNull();
  expectTiled(index);
  const expected = Everything.toObject(Everything.decode(bytes), { enums: String, bytes: String });
  expect(normalize(index.value(0))).toEqual(normalize(expected));
}

describe('schema walker properties', () => {
  test('protobufjs-encoded messages: spans tile, values equal the decode', () => {
    fc.assert(
      fc.property(model, (m) => checkFrame(encodeProtobufjs(m))),
      { numRuns: 150 },
    );
  });

  test('@bufbuild/protobuf-encoded messages: spans tile, values equal the decode', () => {
    fc.assert(
      fc.property(model, (m) => checkFrame(encodeBufbuild(m))),
      { numRuns: 150 },
    );
  });

  test('mutations and truncations never throw; errors carry an offset inside the frame', () => {
    const mutated = fc
      .tuple(model, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }), fc.nat())
      .map(([m, edits, cut]) => {
        const bytes = encodeProtobufjs(m).slice();
        for (const [at, b] of edits) if (bytes.length) bytes[at % bytes.length] = b;
        return bytes.subarray(0, bytes.length ? cut % (bytes.length + 1) : 0);
      });
    fc.assert(
      fc.property(mutated, (bytes) => {
        const index = new SpanIndex(bytes, walker);
        if (index.error) {
          expect(index.error.offset).toBeGreaterThanOrEqual(0);
          expect(index.error.offset).toBeLessThanOrEqual(bytes.length);
        }
        expect(() => index.value(0)).not.toThrow();
        for (let id = 0; id < index.store.size; id++) {
          expect(() => index.walker.preview!(index, id, 40)).not.toThrow();
          expect(index.store.end[id]).toBeLessThanOrEqual(bytes.length);
        }
        if (!index.error) expectTiled(index);
      }),
      { numRuns: 300 },
    );
  });

  test('packed fields are arrays whose items tile the run', () => {
    const bytes = encodeProtobufjs({ packed_ints: [1, 300, -1] });
    const index = new SpanIndex(bytes, walker);
    const packed = [...Array(index.store.size).keys()].find((id) => index.store.kind[id] === Kind.array)!;
    expect(index.value(packed)).toEqual([1, 300, -1]);
    expectTiled(index);
  });
});
