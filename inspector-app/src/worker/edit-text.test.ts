/**
 * What a frame is edited as, and its edits' bytes: CBOR as EDN, MessagePack as its edit text,
 * JSON as its text, each only when the unchanged text gives back the very bytes; hex
 * otherwise. A bad edit says where (line, column) and gives no bytes.
 */
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { MsgPackEncoder } from '@jsonjoy.com/json-pack/lib/msgpack/MsgPackEncoder.js';
import { expect, it } from 'vitest';
import { Model } from 'json-joy/lib/json-crdt/model/Model.js';
import { indexCbor } from '../../../codecs/cbor/index.js';
import { indexMsgpack } from '../../../codecs/msgpack/index.js';
import { decodeFrame } from '../../../codecs/index.js';
import { bytesFromHex, editOutcome, editSource } from './edit-text.js';

const cbor = (v: unknown) => new CborEncoder().encode(v);

it('a CBOR frame is edited as EDN, a MessagePack frame as its edit text, a JSON frame as its text; unchanged, each gives back its bytes', () => {
  const c = cbor({ a: 1, b: 'x', f: 1.5 });
  const s = editSource(c, indexCbor(c), true);
  expect(s).toEqual({ syntax: 'edn', text: '{"a": 1, "b": "x", "f": 1.5_2}' /* json-pack writes 1.5 as a float32 */ });
  expect(editOutcome(c, s.syntax, s.text)).toMatchObject({ ok: true, change: { identical: true } });

  const m = new MsgPackEncoder().encode({ a: [1, 2] });
  const ms = editSource(m, indexMsgpack(m), true);
  expect(ms.syntax).toBe('msgpack');
  // Over lines, indented as the EDN text is.
  expect(ms.text).toBe('{\n  "a": [\n    1,\n    2\n  ]\n}');
  expect(editOutcome(m, ms.syntax, ms.text)).toMatchObject({ ok: true, change: { identical: true } });

  const j = new TextEncoder().encode('{ "k" : [1, 2.50] }');
  const js = editSource(j, decodeFrame(j).index, true);
  expect(js).toEqual({ syntax: 'json', text: '{ "k" : [1, 2.50] }' });
});

it('malformed, compressed-reading or unknown frames are edited as hex', () => {
  const c = cbor({ a: 1 });
  expect(editSource(c, indexCbor(c), false).syntax).toBe('hex');
  const cut = c.subarray(0, c.length - 1);
  expect(editSource(cut, indexCbor(cut), true)).toEqual({ syntax: 'hex', text: 'a1 61 61' });
  const text = new TextEncoder().encode('hello');
  expect(editSource(text, null, true)).toEqual({ syntax: 'hex', text: '68 65 6c 6c 6f' });
});

it("an edit's bytes and what changed; a bad edit gives its line and column and no bytes", () => {
  const c = cbor({ a: 1, b: 'x' });
  const edited = editOutcome(c, 'edn', '{"a": 2, "b": "x"}');
  expect(edited.ok && [...edited.bytes]).toEqual([...cbor({ a: 2, b: 'x' })]);
  expect(edited.ok && edited.change).toMatchObject({
    identical: false,
    sizeDelta: 0,
    firstDifference: 3,
    changedBytes: 1,
  });
  const bad = editOutcome(c, 'edn', '{"a": 2,\n  "b": }');
  expect(bad).toMatchObject({ ok: false, error: { line: 2 } });
  expect(bad.ok).toBe(false);
  expect(bytesFromHex('a1 61\n61 0x')).toMatchObject({ ok: false, error: { line: 2, column: 5 } });
  expect(bytesFromHex('a1 6')).toMatchObject({
    ok: false,
    error: { line: 1, column: 4, message: 'odd number of hex digits' },
  });
  expect(bytesFromHex(' A1\t61 ')).toEqual({ ok: true, bytes: Uint8Array.from([0xa1, 0x61]) });
});

it('a framed frame is edited as its framing: the fields and the inner value, the framing rebuilt around an edit', () => {
  const io = new TextEncoder().encode('42/chat,7["say",{"n":1}]');
  const read = decodeFrame(io, { isText: true });
  expect(read.format).toBe('socketio');
  const s = editSource(io, read.index, true, { format: read.format });
  expect(s.syntax).toBe('socketio');
  expect(s.text).toContain('namespace: "/chat"\nack id: 7\n--- data as JSON\n["say",{"n":1}]');
  expect(editOutcome(io, s.syntax, s.text)).toMatchObject({ ok: true, change: { identical: true } });
  const edited = editOutcome(io, s.syntax, s.text.replace('{"n":1}', '{"n":12345}'));
  expect(edited.ok && new TextDecoder().decode(edited.bytes)).toBe('42/chat,7["say",{"n":12345}]');
  expect(edited.ok && edited.change).toMatchObject({ sizeDelta: 4 });

  // WAMP is known by the connection's subprotocol: recognition passes it on.
  const wamp = new TextEncoder().encode('[16,1,{},"com.topic",["hi"]]');
  const w = editSource(wamp, decodeFrame(wamp).index, true, { format: 'json', protocol: 'wamp' });
  expect(w.syntax).toBe('wamp');
  expect(editSource(wamp, decodeFrame(wamp).index, true).syntax).toBe('json');

  const bad = editOutcome(io, 'socketio', s.text.replace('{"n":1}', '{"n":}'));
  expect(bad).toMatchObject({ ok: false, error: { line: s.text.split('\n').length } });
});

it('a json-joy CRDT frame is view only: the editor says so and offers its bytes as hex', () => {
  const model = Model.create();
  model.api.set({ title: 'doc', n: 1 });
  const bytes = model.toBinary();
  const read = decodeFrame(bytes);
  expect(read.format).toBe('crdt-model');
  const s = editSource(bytes, read.index, true, { format: read.format });
  expect(s.syntax).toBe('hex');
  expect(s.note).toMatch(/^a json-joy CRDT frame is view only/);
  expect(editOutcome(bytes, s.syntax, s.text)).toMatchObject({ ok: true, change: { identical: true } });
});

it('a framed frame whose fields do not fit one line each is edited in its own encoding (JSON) instead', () => {
  const bytes = new TextEncoder().encode('{"id":"1","type":"next","extensions":{\n  "a": 1\n},"payload":{"data":{}}}');
  const read = decodeFrame(bytes, { isText: true });
  const s = editSource(bytes, read.index, true, { format: read.format, protocol: 'graphql-ws' });
  expect(s.syntax).toBe('json');
  const flat = new TextEncoder().encode('{"id":"1","type":"next","payload":{"data":{}}}');
  expect(editSource(flat, decodeFrame(flat).index, true, { format: 'json', protocol: 'graphql-ws' }).syntax).toBe(
    'graphql-ws',
  );
});

it('a text frame edited into bytes that are not UTF-8 is an error with the byte, and gives no bytes to send', () => {
  const text = new TextEncoder().encode('hi');
  const bad = editOutcome(text, 'hex', '68 c3 28', true);
  expect(bad.ok).toBe(false);
  if (!bad.ok) expect(bad.error.message).toMatch(/^byte 1 \(0xc3\) is not UTF-8: a text frame must be valid UTF-8/);
  expect(editOutcome(text, 'hex', '68 c3 a9', true)).toMatchObject({ ok: true });
  // A binary frame may hold any bytes.
  expect(editOutcome(text, 'hex', '68 c3 28')).toMatchObject({ ok: true });
});
