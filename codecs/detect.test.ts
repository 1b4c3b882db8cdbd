import { describe, expect, it } from 'vitest';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { MsgPackEncoder } from '@jsonjoy.com/json-pack/lib/msgpack/MsgPackEncoder.js';
import { decodeFrame, detectFormat } from './index.js';
import { hex } from './test/helpers/hex.js';

const doc = { user: { id: 7, name: 'Ada', tags: ['a', 'b'] }, items: [1, 2.5, -3], ok: true };

describe('format detection', () => {
  it('recognizes CBOR, MessagePack and JSON encodings of the same document', () => {
    const cbor = new CborEncoder().encode(doc);
    const msgpack = new MsgPackEncoder().encode(doc);
    const json = new TextEncoder().encode(JSON.stringify(doc));
    expect(detectFormat(cbor).candidates[0].format).toBe('cbor');
    expect(detectFormat(msgpack).candidates[0].format).toBe('msgpack');
    expect(detectFormat(json).candidates[0].format).toBe('json');
    expect(detectFormat(json, { isText: true }).candidates[0]).toMatchObject({ format: 'json', confidence: 0.99 });
  });

  it('accepts only candidates that decode the whole buffer', () => {
    const d = detectFormat(hex('a2 61 61 01 61 62 02'));
    expect(d.candidates.map((c) => c.format)).toEqual(['cbor']);
    // As MessagePack, 0xa2 is a 2-byte string and the rest is trailing garbage.
    expect(d.rejected.find((r) => r.format === 'msgpack')?.error.code).toBe('trailing-bytes');
  });

  it('treats the self-describe tag 55799 as strong evidence', () => {
    const plain = detectFormat(hex('83 01 02 03')).candidates.find((c) => c.format === 'cbor')!;
    const tagged = detectFormat(hex('d9 d9 f7 83 01 02 03')).candidates[0];
    expect(tagged.format).toBe('cbor');
    expect(tagged.reason).toContain('55799');
    expect(tagged.confidence).toBeGreaterThan(plain.confidence);
  });

  it('ranks every format that reads the whole buffer, most plausible first', () => {
    // 0x91 0x01: CBOR reads an unsigned 17 followed by trailing bytes; MessagePack an array [1].
    const d = detectFormat(hex('91 01'));
    expect(d.candidates[0].format).toBe('msgpack');
    // "1" is JSON 1, CBOR -18 and MessagePack 49: as a binary frame all three are candidates;
    // a text frame is read only as text (JSON first).
    const bytes = new TextEncoder().encode('1');
    expect(
      detectFormat(bytes)
        .candidates.map((c) => c.format)
        .sort(),
    ).toEqual(['cbor', 'json', 'msgpack', 'text']);
    const one = detectFormat(bytes, { isText: true });
    // (`1` is also Engine.IO's close packet, ranked below JSON without evidence from the connection.)
    expect(one.candidates.map((c) => c.format)).toEqual(['json', 'socketio', 'text']);
  });

  it('a malformed frame is shown in the format that read furthest, with its error and partial tree', () => {
    const cbor = new CborEncoder().encode(doc);
    const truncated = cbor.subarray(0, cbor.length - 3);
    const frame = decodeFrame(truncated);
    expect(frame.format).toBe('cbor');
    // The cut lands inside a string: its declared length exceeds what remains.
    expect(frame.error).toMatchObject({ code: 'length-exceeds-input' });
    expect(frame.error!.offset).toBeLessThan(truncated.length);
    expect(frame.index!.store.size).toBeGreaterThan(5);
  });

  it('forced formats skip detection; empty and unknown input never throw', () => {
    expect(decodeFrame(hex('a0'), { format: 'msgpack' })).toMatchObject({
      format: 'msgpack',
      error: null,
      detection: null,
    });
    expect(decodeFrame(new Uint8Array(0))).toMatchObject({ verdict: 'empty', error: null, format: null });
    const garbage = decodeFrame(hex('c1 c1 c1'));
    expect(garbage.error).not.toBeNull();
    expect(decodeFrame(hex('a0'), { format: 'xml' as 'cbor' }).error?.code).toBe('unsupported-format');
  });

  it('decodeFrame records the requested depth', () => {
    const bytes = new CborEncoder().encode({ a: { b: { c: 1 } } });
    const shallow = decodeFrame(bytes, { depth: 1 }).index!;
    expect(shallow.store.size).toBe(3); // root, key "a", value {b: ...}
    const full = decodeFrame(bytes).index!;
    expect(full.value(full.root)).toEqual({ a: { b: { c: 1 } } });
  });
});
