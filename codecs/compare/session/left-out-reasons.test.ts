/**
 * Reasons for left-out messages in the user's terms. A frame with a key
 * twice reached the schema codecs as the reader's internal class, which they described by
 * its constructor name ("EntriesMap" in Node, "pe" once minified); Protobuf said "object
 * where the schema has message Frame".
 */
import { describe, expect, it } from 'vitest';
import { runSessionComparison, type SessionMessage, type SessionRow } from './session.js';
import { duplicateKeyReason, schemaValue } from './schema-value.js';
import { EntriesMap } from '../../core/values.js';

const utf8 = new TextEncoder();
const json = (text: string): SessionMessage => ({
  connectionId: 'c',
  direction: 'server-to-client',
  opcode: 1,
  data: utf8.encode(text),
});
// MessagePack {"id": 1, "id": 2}: a map of two entries with the same key.
const msgpackTwice = (): SessionMessage => ({
  connectionId: 'c',
  direction: 'server-to-client',
  opcode: 2,
  data: Uint8Array.of(0x82, 0xa2, 0x69, 0x64, 0x01, 0xa2, 0x69, 0x64, 0x02),
});

const total = (rows: SessionRow[], codec: string): SessionRow =>
  rows.find((r) => r.codec === codec && r.connectionId === null)!;

describe('left-out reasons in user terms', () => {
  it('a frame with a key twice: Avro and Protobuf say which key repeats, never a class name', async () => {
    const messages = [
      json('{"id":1,"name":"a"}'),
      json('{"id":2,"name":"b"}'),
      json('{"customer":{"id":3,"id":4},"name":"c"}'),
      msgpackTwice(),
    ];
    const rows = await runSessionComparison(messages, { snappy: false });
    for (const codec of ['avro', 'protobuf']) {
      const t = total(rows, codec);
      expect(t.left, codec).toBe(2);
      const reasons = (t.mismatches ?? []).map((m) => m.reason);
      expect(reasons[0], codec).toMatch(/^customer: the key "id" appears twice/);
      expect(reasons[1], codec).toMatch(/^the frame: the key "id" appears twice/);
      for (const r of reasons) expect(r, codec).not.toMatch(/EntriesMap|constructor|not a plain object|\bobject where/);
    }
  });

  it('duplicateKeyReason walks lists and nested maps in document order', () => {
    const v = {
      a: [
        1,
        {
          b: new EntriesMap([
            ['x', 1],
            ['y', 2],
            ['x', 3],
          ]),
        },
      ],
    };
    expect(duplicateKeyReason(v)).toMatch(/^a\[1\]\.b: the key "x" appears twice/);
    expect(duplicateKeyReason({ a: 1 })).toBeNull();
    expect(schemaValue({ a: new Map([['k', 1]]) })).toEqual({ plain: { a: { k: 1 } } });
  });

  it('a frame that is not an object: Protobuf says what it is and what a message needs', async () => {
    const rows = await runSessionComparison([json('{"id":1}'), json('{"id":2}'), json('[1,2]')], {
      snappy: false,
      codecs: ['protobuf'],
    });
    const reason = total(rows, 'protobuf').mismatches![0].reason;
    expect(reason).toMatch(/^the frame: a list/);
    expect(reason).toMatch(/object with named fields/);
  });

  it('an object where a list was: "an object", not JS\'s typeof', async () => {
    const rows = await runSessionComparison([json('{"id":[1]}'), json('{"id":[2]}'), json('{"id":{"a":1}}')], {
      snappy: false,
      codecs: ['protobuf'],
    });
    expect(total(rows, 'protobuf').mismatches![0].reason).toBe(
      'id: an object where the schema has a repeated field (a list)',
    );
  });
});
