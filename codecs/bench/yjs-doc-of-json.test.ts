import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { seedPayloads } from '../crdt/corpus.js';
import { rootRecordOf } from './crdt-root-record.js';
import { YJS_ROOT_NAME, yjsDocOfJson } from './yjs-doc-of-json.js';

describe('yjsDocOfJson', () => {
  for (const { name, data } of seedPayloads()) {
    it(`holds the seed payload "${name}" and its updates v1 and v2 carry it`, () => {
      const doc = yjsDocOfJson(data);
      expect(doc.toJSON()).toStrictEqual({ [YJS_ROOT_NAME]: rootRecordOf(data) });
      for (const [encode, apply] of [
        [Y.encodeStateAsUpdate, Y.applyUpdate],
        [Y.encodeStateAsUpdateV2, Y.applyUpdateV2],
      ] as const) {
        const copy = new Y.Doc();
        apply(copy, encode(doc));
        expect(copy.getMap(YJS_ROOT_NAME).toJSON()).toStrictEqual(rootRecordOf(data));
      }
    });
  }

  it('puts an object payload’s members at the root and an array under "value"', () => {
    expect(
      yjsDocOfJson({ a: [1, { b: 'x' }], c: null })
        .getMap(YJS_ROOT_NAME)
        .toJSON(),
    ).toStrictEqual({
      a: [1, { b: 'x' }],
      c: null,
    });
    const root = yjsDocOfJson([{ a: 1 }, [2, 'y'], true]).getMap(YJS_ROOT_NAME);
    expect(root.get('value')).toBeInstanceOf(Y.Array);
    const array = root.get('value') as Y.Array<unknown>;
    expect(array.get(0)).toBeInstanceOf(Y.Map);
    expect(array.get(1)).toBeInstanceOf(Y.Array);
    expect(array.get(2)).toBe(true);
  });

  it('encodes the same bytes on every build', () => {
    const data = { list: [1, 2.5, 'three', { four: [4] }] };
    expect(Y.encodeStateAsUpdate(yjsDocOfJson(data))).toStrictEqual(Y.encodeStateAsUpdate(yjsDocOfJson(data)));
  });
});
