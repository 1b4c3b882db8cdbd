import { describe, expect, it } from 'vitest';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { JsonPackExtension } from '@jsonjoy.com/json-pack/lib/JsonPackExtension.js';
import { MsgPackEncoder } from '@jsonjoy.com/json-pack/lib/msgpack/MsgPackEncoder.js';
import { decodeFrame } from '../../../codecs/index.js';
import { jsonText, nodeJsonText } from './json-text.js';

const read = (bytes: Uint8Array, options: Parameters<typeof decodeFrame>[1] = {}) => decodeFrame(bytes, options).index!;
const utf8 = (s: string) => new TextEncoder().encode(s);

describe('the JSON text of a node', () => {
  it('keeps integer keys of a CBOR map in wire order', () => {
    const index = read(
      new CborEncoder().encode({
        byCurrency: new Map([
          [978, 1],
          [840, 2],
        ]),
      }),
    );
    const text = nodeJsonText(index, index.root).text;
    expect(text.indexOf('"978"')).toBeLessThan(text.indexOf('"840"'));
    expect(JSON.parse(text)).toEqual({ byCurrency: { 978: 1, 840: 2 } });
  });

  it('keeps integer-like string keys of a JSON object in wire order', () => {
    const index = read(utf8('{"978": 1, "840": {"b": [1, 2], "a": null}}'), { isText: true });
    expect(nodeJsonText(index, index.root).text).toBe(
      '{\n  "978": 1,\n  "840": {\n    "b": [\n      1,\n      2\n    ],\n    "a": null\n  }\n}',
    );
  });

  it('writes what jsonText writes for a value without integer-like keys', () => {
    const value = new JsonPackExtension(55799, {
      type: 'x',
      big: 2n ** 70n,
      balance: new JsonPackExtension(2, Uint8Array.of(1, 0)),
      bytes: Uint8Array.of(1, 2),
      empty: {},
      list: [],
      nested: [{ a: [1, { b: undefined }] }],
      url: new JsonPackExtension(32, 'https://example.com'),
    });
    const index = read(new CborEncoder().encode(value));
    expect(nodeJsonText(index, index.root).text).toBe(jsonText(index.value(index.root)).text);
    const mp = read(new MsgPackEncoder().encode({ z: 1, a: [true, 'x'] }), { format: 'msgpack' });
    expect(nodeJsonText(mp, mp.root).text).toBe(jsonText(mp.value(mp.root)).text);
  });

  it('cuts at the given length and says so', () => {
    const index = read(new CborEncoder().encode({ list: Array.from({ length: 1000 }, (_, i) => i) }));
    const cut = nodeJsonText(index, index.root, 100);
    expect(cut).toMatchObject({ truncated: true });
    expect(cut.text).toHaveLength(100);
  });
});
