import { describe, expect, it } from 'vitest';
import { brotliCompressSync, constants } from 'node:zlib';
import snappy from 'snappyjs';
import { runSessionComparison, type SessionMessage, type SessionRow } from './session.js';
import { nodeBrotli } from './brotli-node.js';
import { BROTLI_NOT_IN_BROWSER } from './message-compressors.js';
import { avroCodec } from '../schema/avro-codec.js';

const utf8 = new TextEncoder();
const msg = (connectionId: string, direction: SessionMessage['direction'], value: unknown): SessionMessage => ({
  connectionId,
  direction,
  opcode: 1,
  data: utf8.encode(JSON.stringify(value)),
});

/** Trades with keys coming and going, one frame Protobuf cannot hold (a string where numbers were), one with null in a list. */
function session(): SessionMessage[] {
  const out: SessionMessage[] = [];
  for (let i = 0; i < 30; i++) {
    const trade: Record<string, unknown> = {
      type: 'trade',
      id: i,
      price: 100 + i / 8,
      side: i % 2 ? 'buy' : 'sell',
      tags: ['a', 'b'].slice(0, i % 3),
    };
    if (i % 4 === 0) trade.note = `n${i}`;
    out.push(msg(i % 2 ? 'a' : 'b', i % 3 ? 'server-to-client' : 'client-to-server', trade));
  }
  out.push(msg('a', 'server-to-client', { type: 'trade', id: 'x-31', price: 1 }));
  out.push(msg('b', 'server-to-client', { type: 'trade', id: 32, price: 1, tags: ['a', null] }));
  return out;
}

const rowsOf = (rows: SessionRow[], codec: string) => rows.filter((r) => r.codec === codec && r.connectionId !== null);
const totalOf = (rows: SessionRow[], codec: string) => rows.find((r) => r.codec === codec && r.connectionId === null)!;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('schema codecs, snappy and brotli in compareSession', () => {
  it('Avro and Protobuf rows per connection and direction; totals are the sums; the schema size is apart and amortized', async () => {
    const messages = session();
    const rows = await runSessionComparison(messages, { brotli: nodeBrotli(), avro: avroCodec });
    for (const codec of ['avro', 'protobuf']) {
      const parts = rowsOf(rows, codec);
      const total = totalOf(rows, codec);
      expect(parts.length).toBe(4);
      for (const field of ['messages', 'size', 'gzip', 'deflate', 'left', 'snappy', 'brotli'] as const)
        expect(total[field], `${codec} ${field}`).toBe(sum(parts.map((r) => r[field] as number)));
      expect(total.messages + total.left).toBe(messages.length);
      expect(total.schema!.bytes).toBeGreaterThan(20);
      // Spread over the messages the schema encoded, not the ones left out.
      expect(total.schema!.messages).toBe(total.messages);
      expect(total.schema!.perMessage).toBeCloseTo(total.schema!.bytes / total.messages);
      expect(total.size).toBeLessThan(totalOf(rows, 'json').size);
    }
    expect(totalOf(rows, 'protobuf').schema!.text).toMatch(/message Frame \{/);
    expect(JSON.parse(totalOf(rows, 'avro').schema!.text).type).toBe('record');
  });

  it('lists the frames a schema cannot hold, per frame, with the reason (none dropped silently)', async () => {
    const rows = await runSessionComparison(session(), { codecs: ['protobuf', 'avro'], avro: avroCodec });
    const proto = totalOf(rows, 'protobuf');
    expect(proto.left).toBe(2);
    expect(proto.mismatches).toEqual([
      { message: 31, reason: 'id: string where the schema has int32' },
      { message: 32, reason: 'tags[1]: null inside a list (a repeated field has no null)' },
    ]);
    // Avro holds both (a union of int and string; a list of string or null).
    expect(totalOf(rows, 'avro').left).toBe(0);
    // Without a codec passed in (the browser's worker) Avro is wirescope's own: the same row.
    const bare = totalOf(await runSessionComparison(session(), { codecs: ['avro'] }), 'avro');
    const passed = totalOf(await runSessionComparison(session(), { codecs: ['avro'], avro: avroCodec }), 'avro');
    expect(bare.messages).toBe(session().length);
    expect(bare.left).toBe(0);
    expect(bare.size).toBe(passed.size);
    expect(bare.schema).toEqual(passed.schema);
  });

  it('snappy and brotli are per-message sums of the real compressors; without a brotli compressor the rows say why', async () => {
    const messages = session();
    const rows = await runSessionComparison(messages, { codecs: ['captured'], brotli: nodeBrotli(11) });
    const captured = totalOf(rows, 'captured');
    expect(captured.snappy).toBe(sum(messages.map((m) => snappy.compress(m.data).length)));
    expect(captured.brotli).toBe(
      sum(
        messages.map(
          (m) => brotliCompressSync(m.data, { params: { [constants.BROTLI_PARAM_SIZE_HINT]: m.data.length } }).length,
        ),
      ),
    );
    const browser = await runSessionComparison(messages, { codecs: ['captured'] });
    expect(totalOf(browser, 'captured').brotli).toEqual({ unsupported: BROTLI_NOT_IN_BROWSER });
  });

  it('a loaded .proto adds a row against the real schema; a broken one says why on every row', async () => {
    const proto =
      'syntax = "proto3"; message Trade { string type = 1; int64 id = 2; double price = 3; string side = 4; repeated string tags = 5; optional string note = 6; }';
    const rows = await runSessionComparison(session(), { codecs: ['protobuf', 'protobuf-loaded'], protoText: proto });
    const loaded = totalOf(rows, 'protobuf-loaded');
    expect(loaded.label).toBe('Protobuf (.proto)');
    expect(loaded.left).toBe(2);
    expect(loaded.schema!.text).toBe(proto);
    // Same fields, same wire: the real schema and the inferred one cost the same bytes here.
    expect(loaded.size).toBe(totalOf(rows, 'protobuf').size);
    const broken = await runSessionComparison(session(), { codecs: ['protobuf-loaded'], protoText: 'message {' });
    expect(totalOf(broken, 'protobuf-loaded').leftReason).toMatch(/the .proto does not parse/);
    expect(totalOf(broken, 'protobuf-loaded').messages).toBe(0);
  });
});

describe('key overhead: real schema codecs next to the estimate', () => {
  it('a frame encoded with its own inferred schemas, sizes beside keys.ts estimate; a frame that does not fit says why', async () => {
    const { schemaActuals } = await import('../schema/actuals.js');
    const { keyOverhead } = await import('../keys.js');
    const { formatKeyOverhead } = await import('../format.js');
    const { decodeFrame } = await import('../../index.js');
    const value = {
      items: Array.from({ length: 20 }, (_, i) => ({ id: i, name: `item-${i}`, price: i * 1.25, active: i % 2 === 0 })),
    };
    const frame = utf8.encode(JSON.stringify(value));
    const actuals = schemaActuals(value);
    expect(actuals.map((a) => a.codec)).toEqual(['avro', 'protobuf']);
    for (const a of actuals) {
      expect(a.bytes).toBeGreaterThan(0);
      expect(a.bytes!).toBeLessThan(frame.length / 2);
      expect(a.schemaBytes).toBeGreaterThan(0);
    }
    const text = formatKeyOverhead(keyOverhead(decodeFrame(frame, { format: 'json' }).index!), actuals);
    expect(text).toMatch(/schema estimate .*\n(.|\n)*Avro \(inferred\), real: \d+ bytes/);
    expect(text).toMatch(/Protobuf \(inferred\), real: \d+ bytes/);
    const misfit = schemaActuals([[1, 2], [3]]);
    expect(misfit.find((a) => a.codec === 'protobuf')!.why).toBe(
      'the frame: a list, where the schema has a message (Frame): an object with named fields',
    );
  });
});
