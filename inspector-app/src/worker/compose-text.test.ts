import { describe, expect, it } from 'vitest';
import { encode as cbor2Encode } from 'cbor2';
import { encode as msgpackEncode } from '@msgpack/msgpack';
import { composeOutcome, ownSource, STARTER_TEXT, switchedText, syntaxForFormat, textOfBytes } from './compose-text.js';

const hex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, '0')).join('');

describe('composeOutcome', () => {
  it('encodes EDN to the bytes an independent CBOR encoder gives for the same value', () => {
    const out = composeOutcome('edn', '{"op": "set", "n": 7}', null);
    expect(out.ok && hex(out.bytes)).toBe(
      hex(
        cbor2Encode(
          new Map<string, unknown>([
            ['op', 'set'],
            ['n', 7],
          ]),
        ),
      ),
    );
    expect(out.ok && out.change).toBeNull();
  });

  it('says what changed from the original when there is one', () => {
    const out = composeOutcome('hex', '01 02 ff', new Uint8Array([1, 2, 3]));
    expect(out.ok && out.change).toMatchObject({ identical: false, size: 3, sizeDelta: 0, firstDifference: 2 });
  });

  it('a bad text is an error at its line and column, with no bytes', () => {
    const out = composeOutcome('edn', '{"a":\n  }', null);
    expect(out.ok).toBe(false);
    expect(!out.ok && [out.error.line, out.error.column]).toEqual([2, 3]);
    expect('bytes' in out).toBe(false);
  });
});

describe('textOfBytes', () => {
  it('writes MessagePack bytes as edit text that gives them back', () => {
    const bytes = msgpackEncode({ a: 1.5, b: new Uint8Array([1]) });
    const text = textOfBytes(bytes, 'msgpack');
    expect(text).toBe(`{\n  "a": 1.5,\n  "b": h'01'\n}`); // over lines, as the EDN text is indented
    const back = composeOutcome('msgpack', text!, bytes);
    expect(back.ok && back.change?.identical).toBe(true);
  });

  it('is null for bytes that are not the format asked for', () => {
    expect(textOfBytes(new TextEncoder().encode('{"a": 1}'), 'edn')).toBeNull();
    expect(textOfBytes(new Uint8Array([0xff, 0xfe]), 'json')).toBeNull();
  });
});

describe('switchedText', () => {
  it('hex and EDN carry the same bytes across', () => {
    const edn = switchedText('hex', 'a1 61 61 01', 'edn');
    expect(edn).toBe('{"a": 1}');
    expect(switchedText('edn', edn, 'hex')).toBe('a1 61 61 01');
  });

  it('keeps a JSON text when it is valid EDN too', () => {
    expect(switchedText('json', '{"a": [1, 2]}', 'edn')).toBe('{"a": [1, 2]}');
  });

  it('never replaces what was typed with a sample: a text that does not convert is kept as written', () => {
    expect(switchedText('edn', '{"a": h\'00\'}', 'json')).toBe('{"a": h\'00\'}');
    expect(switchedText('edn', '{"when": 1(1700000000)}', 'msgpack')).toBe('{"when": 1(1700000000)}');
    expect(switchedText('edn', '{"a": ', 'json')).toBe('{"a": ');
  });

  it('an empty text or an untouched sample becomes the new syntax’s sample', () => {
    expect(switchedText('edn', '', 'json')).toBe(STARTER_TEXT.json);
    expect(switchedText('hex', '', 'edn')).toBe(STARTER_TEXT.edn);
    expect(switchedText('json', '  ', 'msgpack')).toBe(STARTER_TEXT.msgpack);
  });
});

it('a socket whose frames were CBOR composes in EDN, text frames in JSON, anything else in hex', () => {
  expect([
    syntaxForFormat('cbor'),
    syntaxForFormat('msgpack'),
    syntaxForFormat('text'),
    syntaxForFormat('protobuf'),
  ]).toEqual(['edn', 'msgpack', 'json', 'hex']);
});

it('bytes in their own encoding: CBOR as EDN, JSON text as itself, anything else as hex', () => {
  expect(ownSource(new Uint8Array([0xa1, 0x61, 0x61, 0x01]), false)).toEqual({ syntax: 'edn', text: '{"a": 1}' });
  expect(ownSource(new TextEncoder().encode('{"a": 1}'), true)).toEqual({ syntax: 'json', text: '{"a": 1}' });
  expect(ownSource(new Uint8Array([0xff, 0x00, 0xfe]), false)).toEqual({ syntax: 'hex', text: 'ff 00 fe' });
});
