import { describe, expect, it } from 'vitest';
import protobuf from 'protobufjs';
import { numberedFrames } from './test/numbered-frames.js';
import { handlersHolding } from './test/ingest-frames.js';

/** The worker reads Protobuf frames with loaded schemas, per connection, and re-reads raw fields "as". */
const PROTO =
  'syntax = "proto3"; package demo; enum Side { BUY = 0; SELL = 1; } message Trade { string symbol = 1; Side side = 2; double price = 3; uint32 qty = 4; }';
const root = protobuf.parse(PROTO, new protobuf.Root(), { keepCase: true }).root;
const Trade = root.lookupType('demo.Trade');
const trade = Trade.encode(Trade.fromObject({ symbol: 'ACME', side: 1, price: 12.5, qty: 300 })).finish();

const frame = numberedFrames();

const handlers = handlersHolding;

describe('Protobuf schemas in the worker', () => {
  it('without a schema the frame is raw Protobuf; with one its fields have names', () => {
    const f = frame(trade);
    const h = handlers(f);
    const raw = h.methods.decode({ frameId: f.frameId, format: 'auto' })!;
    expect(raw.format).toBe('protobuf');
    const rawLabels = h.methods
      .children({ frameId: f.frameId, format: 'auto', nodeId: raw.root!.id })
      .nodes.map((n) => n.label);
    expect(rawLabels).toEqual(['1', '2', '3', '4']);

    const state = h.methods.setSchema({ files: [{ name: 'demo.proto', source: PROTO }] });
    expect(state).toMatchObject({ files: ['demo.proto'], types: ['demo.Trade'], error: null });
    const named = h.methods.decode({ frameId: f.frameId, format: 'auto' })!;
    expect(named.schemaReading?.note).toMatch(/read as demo\.Trade, the best fit/);
    const nodes = h.methods.children({ frameId: f.frameId, format: 'auto', nodeId: named.root!.id }).nodes;
    expect(nodes.map((n) => [n.label, n.preview])).toEqual([
      ['symbol', '"ACME"'],
      ['side', 'SELL (1)'],
      ['price', '12.5'],
      ['qty', '300'],
    ]);
    // Spans drive the hex highlight: the `side` value is the byte after its tag.
    expect(nodes[1].end - nodes[1].start).toBe(1);
  });

  it("under auto, a connection's next frame that fits the last type perfectly is not ranked again; one that does not is", () => {
    const PROTO2 = PROTO + ' message Ping { uint64 at = 1; } message Pong { string symbol = 1; fixed64 at = 7; }';
    const h = handlers();
    h.methods.setSchema({ files: [{ name: 'demo.proto', source: PROTO2 }] });
    const a = frame(trade);
    const b = frame(trade);
    const c = frame(new Uint8Array([0x0a, 0x01, 0x41, 0x39, 1, 0, 0, 0, 0, 0, 0, 0])); // symbol "A", field 7 fixed64: only Pong fits
    for (const f of [a, b, c]) h.store.add(f);
    expect(h.methods.decode({ frameId: a.frameId, format: 'auto' })!.schemaReading?.note).toMatch(
      /read as demo\.Trade, the best fit of 3 types/,
    );
    expect(h.methods.decode({ frameId: b.frameId, format: 'auto' })!.schemaReading?.note).toMatch(
      /read as demo\.Trade, the type of this connection's previous frame/,
    );
    expect(h.methods.decode({ frameId: c.frameId, format: 'auto' })!.schemaReading?.note).toMatch(
      /read as demo\.Pong, the best fit of 3 types/,
    );
  });

  it('a type that fits the frame perfectly is no warning; a reading with unknown fields is, and says so', () => {
    const h = handlers();
    h.methods.setSchema({ files: [{ name: 'demo.proto', source: PROTO }] });
    const fits = frame(trade);
    // The trade with a field 9 (varint 1) the schema does not know.
    const extra = frame(Uint8Array.of(...trade, 0x48, 0x01));
    for (const f of [fits, extra]) h.store.add(f);
    const good = h.methods.decode({ frameId: fits.frameId, format: 'auto' })!;
    expect(good.schemaReading).toEqual({
      note: 'read as demo.Trade, the best fit of 1 types (demo.Trade: reads whole, 4 known fields)',
      fits: true,
    });
    expect(good.warnings).toEqual([]);
    const poor = h.methods.decode({ frameId: extra.frameId, format: 'auto' })!;
    expect(poor.schemaReading).toEqual({
      note: 'read as demo.Trade, the best fit of 1 types (demo.Trade: reads whole, 4 known fields, 1 unknown)',
      fits: false,
    });

    // A type chosen for the connection that reads the frame poorly says how.
    const mine = frame(trade);
    const h2 = handlers(mine);
    h2.methods.setSchema({ files: [{ name: 'demo.proto', source: `${PROTO} message Pong { fixed64 at = 7; }` }] });
    h2.methods.setSchemaType({ connectionId: 'c1', choice: 'demo.Pong' });
    const chosen = h2.methods.decode({ frameId: mine.frameId, format: 'auto' });
    expect(chosen?.schemaReading?.fits).toBe(false);
    expect(chosen?.schemaReading?.note).toMatch(/^read as demo\.Pong \(chosen for this connection\): demo\.Pong: /);
  });

  it('the list row of a new frame uses the schema', () => {
    const h = handlers();
    h.methods.setSchema({ files: [{ name: 'demo.proto', source: PROTO }] });
    const f = frame(trade);
    h.store.add(f);
    expect(h.summarize(f).preview).toBe('{symbol: "ACME", side: SELL (1), price: 12.5, qty: 300}');
  });

  it("a connection set to 'raw' keeps the raw tree; a named type is used even for a poor fit", () => {
    const f = frame(trade);
    const h = handlers(f);
    h.methods.setSchema({ files: [{ name: 'demo.proto', source: PROTO }] });
    h.methods.setSchemaType({ connectionId: 'c1', choice: 'raw' });
    const raw = h.methods.decode({ frameId: f.frameId, format: 'auto' })!;
    expect(h.methods.children({ frameId: f.frameId, format: 'auto', nodeId: raw.root!.id }).nodes[0].label).toBe('1');
    const state = h.methods.setSchemaType({ connectionId: 'c1', choice: 'demo.Trade' });
    expect(state.choices).toEqual({ c1: 'demo.Trade' });
    const typed = h.methods.decode({ frameId: f.frameId, format: 'auto' })!;
    expect(typed.schemaReading?.note).toMatch(/chosen for this connection/);
  });

  it('a schema that does not load says why, and frames stay raw', () => {
    const f = frame(trade);
    const h = handlers(f);
    const state = h.methods.setSchema({
      files: [{ name: 'a.proto', source: 'syntax = "proto3"; import "b.proto"; message A { B b = 1; }' }],
    });
    expect(state.error).toMatch(/a\.proto: import "b\.proto"/);
    expect(h.methods.decode({ frameId: f.frameId, format: 'auto' })!.warnings).toEqual([]);
  });

  it('a broken file among good ones is left out and said so; the good ones keep reading frames', () => {
    const f = frame(trade);
    const h = handlers(f);
    const BAD = 'syntax = "proto3";\nmessage Foo { int32 a = 1 }';
    const USES_BAD = 'syntax = "proto3"; import "bad.proto"; message Bar { Foo foo = 1; }';
    const state = h.methods.setSchema({
      files: [
        { name: 'demo.proto', source: PROTO },
        { name: 'bad.proto', source: BAD },
        { name: 'uses-bad.proto', source: USES_BAD },
      ],
    });
    expect(state.files).toEqual(['demo.proto', 'bad.proto', 'uses-bad.proto']);
    expect(state.types).toEqual(['demo.Trade']);
    expect(state.skipped).toEqual([
      { name: 'bad.proto', error: "bad.proto: illegal token '}', ';' expected (line 2)" },
      { name: 'uses-bad.proto', error: 'uses-bad.proto: imports "bad.proto", which did not load' },
    ]);
    expect(state.error).toMatch(/^2 of 3 files left out \(the other file is in use\): bad\.proto: illegal token/);
    const named = h.methods.decode({ frameId: f.frameId, format: 'auto' })!;
    expect(named.schemaReading?.note).toMatch(/read as demo\.Trade/);
    expect(h.methods.children({ frameId: f.frameId, format: 'auto', nodeId: named.root!.id }).nodes[0].label).toBe(
      'symbol',
    );
  });

  it('a type that does not resolve leaves out the file that names it', () => {
    const state = handlers().methods.setSchema({
      files: [
        { name: 'demo.proto', source: PROTO },
        { name: 'a.proto', source: 'syntax = "proto3"; message A { Missing m = 1; }' },
      ],
    });
    expect(state.types).toEqual(['demo.Trade']);
    expect(state.skipped.map((s) => s.name)).toEqual(['a.proto']);
    expect(state.skipped[0].error).toMatch(/^a\.proto: .*Missing/);
  });

  it('raw length-delimited nodes offer their readings; a read-as format re-reads the field', () => {
    // field 1 LEN 08 01: a message {1: 1}, packed [8, 1], text or bytes.
    const f = frame(new Uint8Array([0x0a, 0x02, 0x08, 0x01, 0x10, 0x05]));
    const h = handlers(f);
    const root = h.methods.decode({ frameId: f.frameId, format: 'protobuf' })!.root!;
    const field = h.methods.children({ frameId: f.frameId, format: 'protobuf', nodeId: root.id }).nodes[0];
    expect(field.readings).toEqual(['message', 'packed', 'text', 'bytes']);
    const format = `protobuf:${field.start}=packed` as const;
    const reread = h.methods.decode({ frameId: f.frameId, format })!;
    const packed = h.methods.children({ frameId: f.frameId, format, nodeId: reread.root!.id }).nodes[0];
    expect(packed.kind).toBe('array');
    expect(packed.readings).toEqual(['packed', 'message', 'text', 'bytes']);
    expect(
      h.methods
        .children({ frameId: f.frameId, format, nodeId: packed.id })
        .nodes.map((n) => [n.preview, n.start, n.end]),
    ).toEqual([
      ['8 (sint 4)', 2, 3],
      ['1 (sint -1)', 3, 4],
    ]);
  });
  it("the list's text and path filters search a frame as its row reads it: with the schema, by field names", () => {
    const f = frame(trade);
    const other = frame(new Uint8Array([0x08, 0x01]), { connectionId: 'c2' });
    const h = handlers(f, other);
    expect(h.methods.setFilter({ text: 'symbol', path: '' })).toEqual([]);
    h.methods.setSchema({ files: [{ name: 'demo.proto', source: PROTO }] });
    expect(h.methods.setFilter({ text: 'symbol', path: '' })).toEqual([f.frameId]);
    expect(h.methods.setFilter({ text: 'sell', path: '' })).toEqual([f.frameId]);
    expect(h.methods.setFilter({ text: '', path: 'qty' })).toEqual([f.frameId]);
    expect(h.methods.setFilter({ text: '300', path: '$.qty' })).toEqual([f.frameId]);
    // A connection set to raw is searched raw.
    h.methods.setSchemaType({ connectionId: 'c1', choice: 'raw' });
    expect(h.methods.setFilter({ text: 'symbol', path: '' })).toEqual([]);
  });
});
