import { describe, expect, test } from 'vitest';
import { forbidFunctionPerTest } from '../../test/helpers/forbid-function.js';
import { loadSchema, lookupMessage, rankTypes, schemaWalker } from './index.js';
import { SpanIndex } from '../../core/span-index.js';
import { protobufjsRoot, TEST_PROTO_FILE } from '../../test/helpers/protobuf-schema.js';

/**
 * MV3's CSP forbids generating code, and protobufjs generates its encoders and decoders with
 * `Function`: the schema side (loading, walking, ranking, values, views) must only use its
 * parser and reflection. Any call of the global `Function` here fails the test.
 */
const { forbid } = forbidFunctionPerTest();

describe('the schema side generates no code', () => {
  test('load, walk, rank, value and previews run with Function forbidden', () => {
    const Everything = protobufjsRoot().lookupType('wtest.Everything'); // the reference encoder may codegen: before the ban
    const bytes = Everything.encode(
      Everything.fromObject({
        color: 2,
        name: 'x',
        counts: { a: 1 },
        at: { seconds: 5, nanos: 0 },
        meta: { fields: { k: { string_value: 'v' } } },
      }),
    ).finish();
    const calls = forbid();
    const loaded = loadSchema([TEST_PROTO_FILE]);
    if (!loaded.ok) throw new Error(loaded.error);
    const index = new SpanIndex(bytes, schemaWalker(lookupMessage(loaded.schema, 'wtest.Everything')!));
    expect(index.error).toBeNull();
    index.value(0);
    for (let id = 0; id < index.store.size; id++) index.walker.preview!(index, id, 80);
    expect(rankTypes(loaded.schema, bytes)[0].type).toBe('wtest.Everything');
    expect(calls).toEqual([]);
  });
});
