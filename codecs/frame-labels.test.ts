import { describe, expect, it } from 'vitest';
import protobuf from 'protobufjs';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { MsgPackEncoder } from '@jsonjoy.com/json-pack/lib/msgpack/MsgPackEncoder.js';
import { decodeFrame } from './index.js';
import { makeRng } from './crdt/corpus.js';
import { hex } from './test/helpers/hex.js';

/**
 * Every frame labelled honestly. A text frame is text; foreign binary is
 * "unknown", not "malformed CBOR"; tiny frames follow their connection; an empty frame is
 * empty; newline-batched JSON is a sequence of values.
 */
const utf8 = (s: string) => new TextEncoder().encode(s);

describe('text frames are read as text', () => {
  it('plain text is text, never a binary reading of its bytes', () => {
    // 0x76 is a CBOR text string of 22 bytes: the rest of this sentence.
    const via = decodeFrame(utf8('via prototype.send.call'), { isText: true });
    expect(via).toMatchObject({ format: 'text', verdict: 'decoded', error: null });
    expect(via.index!.value(0)).toBe('via prototype.send.call');
    // 0x61 is MessagePack's positive fixint 97.
    expect(decodeFrame(utf8('a'), { isText: true })).toMatchObject({ format: 'text', verdict: 'decoded' });
    // socket.io's framing: the number 451 and then trailing bytes as JSON; as a frame, a Socket.IO packet.
    expect(decodeFrame(utf8('451-["ev",{"_placeholder":true,"num":0}]'), { isText: true }).format).toBe('socketio');
  });

  it('JSON text stays JSON; a broken JSON object is malformed JSON with its offset', () => {
    expect(decodeFrame(utf8('{"a":[1,2]}'), { isText: true })).toMatchObject({ format: 'json', verdict: 'decoded' });
    const broken = decodeFrame(utf8('{"a":[1,2}'), { isText: true });
    expect(broken).toMatchObject({ format: 'json', verdict: 'malformed' });
    expect(broken.error!.offset).toBe(9);
  });

  it('binary readings of a text frame stay available when forced', () => {
    expect(decodeFrame(utf8('a'), { isText: true, format: 'msgpack' })).toMatchObject({
      format: 'msgpack',
      verdict: 'decoded',
    });
  });
});

describe('newline-delimited JSON', () => {
  it('is a sequence of values, each with its own span', () => {
    const bytes = utf8('{"a":1}\n{"b":[1,2]}\n');
    const frame = decodeFrame(bytes, { isText: true });
    expect(frame).toMatchObject({ format: 'ndjson', verdict: 'decoded', error: null });
    const index = frame.index!;
    const values = index.children(index.root);
    expect(values.map((id) => [index.store.start[id], index.store.end[id]])).toEqual([
      [0, 7],
      [8, 19],
    ]);
    expect(index.value(index.root)).toEqual([{ a: 1 }, { b: [1, 2] }]);
  });

  it('keeps the values before a broken one and points at the broken byte', () => {
    const bytes = utf8('{"a":1}\n{"b":[1,}\n{"c":3}');
    const frame = decodeFrame(bytes, { isText: true });
    expect(frame).toMatchObject({ format: 'ndjson', verdict: 'malformed' });
    expect(frame.error!.offset).toBe(16);
    expect(frame.error!.message).toContain('value 2');
    const index = frame.index!;
    expect(index.value(index.children(index.root)[0])).toEqual({ a: 1 });
  });

  it('pretty-printed JSON and one value with a trailing newline are plain JSON', () => {
    expect(decodeFrame(utf8(JSON.stringify({ a: [1, 2], b: 'x' }, null, 2)), { isText: true }).format).toBe('json');
    expect(decodeFrame(utf8('{"a":1}\n'), { isText: true }).format).toBe('json');
  });

  it('RFC 7464 record separators work too', () => {
    const frame = decodeFrame(utf8('\x1e{"a":1}\n\x1e[2]\n'), { isText: true });
    expect(frame.format).toBe('ndjson');
    expect(frame.index!.value(0)).toEqual([{ a: 1 }, [2]]);
  });
});

describe('foreign binary is unknown, not a broken known format', () => {
  it('a valid Protobuf message is Protobuf (nothing self-describing reads it), not "malformed crdt-patch"', () => {
    const root = protobuf.Root.fromJSON({
      nested: {
        Push: {
          fields: {
            channel: { type: 'string', id: 1 },
            offset: { type: 'uint64', id: 2 },
            data: { type: 'bytes', id: 4 },
            tags: { rule: 'repeated', type: 'int32', id: 5 },
          },
        },
      },
    });
    const Push = root.lookupType('Push');
    const bytes = Push.encode(
      Push.create({ channel: 'news:sport', offset: 1234567, data: utf8('{"score":"2-1"}'), tags: [1, 2, 300] }),
    ).finish();
    const frame = decodeFrame(bytes);
    expect(frame).toMatchObject({ format: 'protobuf', verdict: 'decoded', error: null });
  });

  it('unknown frames name the readings that came nearest', () => {
    const frame = decodeFrame(hex('00 00 c1 ff 00 12'));
    expect(frame).toMatchObject({ format: null, verdict: 'unknown', index: null });
    expect(frame.error!.code).toBe('unsupported-format');
    expect(frame.error!.message).toMatch(/no format reads the whole frame/);
    expect(frame.detection!.rejected.length).toBeGreaterThan(0);
  });

  it('a Phoenix binary push is read as Phoenix, with its payload as bytes', () => {
    // kind 0 (push), join_ref size, topic size, event size, then the strings and the payload.
    const joinRef = utf8('12');
    const topic = utf8('room:lobby');
    const event = utf8('new_msg');
    const payload = utf8('\x00\x01binary payload\xff');
    const bytes = new Uint8Array([
      0,
      joinRef.length,
      topic.length,
      event.length,
      ...joinRef,
      ...topic,
      ...event,
      ...payload,
    ]);
    expect(decodeFrame(bytes)).toMatchObject({ format: 'phoenix', verdict: 'decoded' });
    // The same envelope with a kind no Phoenix frame has stays foreign.
    expect(decodeFrame(new Uint8Array([7, ...bytes.subarray(1)])).verdict).toBe('unknown');
  });

  it('random filler is unknown (almost always), never an exception', () => {
    const rng = makeRng(7);
    let unknown = 0;
    const runs = 300;
    for (let i = 0; i < runs; i++) {
      const bytes = new Uint8Array(16 + Math.floor(rng() * 2000));
      for (let j = 0; j < bytes.length; j++) bytes[j] = Math.floor(rng() * 256);
      const frame = decodeFrame(bytes);
      if (frame.verdict === 'unknown') unknown++;
    }
    expect(unknown / runs).toBeGreaterThanOrEqual(0.97);
  });

  it('real frames that broke are still "malformed X" with their partial tree', () => {
    const cbor = new CborEncoder();
    const msgpack = new MsgPackEncoder();
    const order = cbor.encode({
      type: 'order.updated',
      orderId: 'ORD-123456',
      status: 'shipped',
      note: 'left at the front desk',
    });
    for (const cut of [3, 7, 12]) {
      const frame = decodeFrame(order.subarray(0, order.length - cut));
      expect(frame).toMatchObject({ format: 'cbor', verdict: 'malformed' });
      expect(frame.index!.store.size).toBeGreaterThan(3);
    }
    const stock = cbor.encode({ type: 'stock.level', sku: 'KB-104', warehouse: 3, qty: 0 }).slice();
    stock[stock.length - 1] = 0x1c;
    expect(decodeFrame(stock)).toMatchObject({ format: 'cbor', verdict: 'malformed' });
    const upload = msgpack.encode({ type: 'upload', name: 'avatar.png', blob: new Uint8Array(40).fill(7) }).slice();
    upload[upload.length - 41] = 200; // the bin8's length byte
    expect(decodeFrame(upload)).toMatchObject({ format: 'msgpack', verdict: 'malformed' });
    expect(decodeFrame(hex('83 01 02'))).toMatchObject({ format: 'cbor', verdict: 'malformed' });
  });
});

describe('tiny and empty frames', () => {
  it('the connection breaks ties', () => {
    expect(decodeFrame(hex('2a')).format).toBe('cbor');
    const mp = decodeFrame(hex('2a'), { preferFormat: 'msgpack' });
    expect(mp.format).toBe('msgpack');
    expect(mp.index!.value(0)).toBe(42);
    const empty = decodeFrame(hex('80'), { preferFormat: 'msgpack' });
    expect(empty.format).toBe('msgpack');
    expect(empty.index!.value(0)).toEqual({});
    expect(decodeFrame(hex('80'), { preferFormat: 'cbor' }).format).toBe('cbor');
  });

  it('an empty frame is empty, not an error', () => {
    expect(decodeFrame(new Uint8Array(0))).toMatchObject({ verdict: 'empty', error: null, format: null });
    expect(decodeFrame(new Uint8Array(0), { isText: true })).toMatchObject({ verdict: 'empty', error: null });
  });
});

describe('a failed Protobuf reading is never the nearest', () => {
  it('f8 18 (simple 24 in two bytes) stays a CBOR error in its two bytes', () => {
    const frame = decodeFrame(hex('f8 18'));
    expect(frame.format).toBe('cbor');
    expect([0, 1]).toContain(frame.error!.offset);
    expect(frame.detection!.rejected.map((r) => r.format)).not.toContain('protobuf');
  });
});

describe('tiny frames that no format reads', () => {
  it('show the nearest reading and its error (f8 18 is malformed CBOR, not MessagePack -8 and a stray byte), not "unknown"', () => {
    expect(decodeFrame(hex('f8 18'))).toMatchObject({
      format: 'cbor',
      verdict: 'malformed',
      error: { code: 'invalid-simple' },
    });
  });
});
