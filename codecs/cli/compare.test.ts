import { describe, expect, it } from 'vitest';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { MsgPackEncoder } from '@jsonjoy.com/json-pack/lib/msgpack/MsgPackEncoder.js';
import { Model } from 'json-joy/lib/json-crdt/model/Model.js';
import { runCliOn } from '../test/helpers/cli.js';

const run = runCliOn;

const value = { id: 7, name: 'Ada', tags: ['x', 'y'], score: 1.5 };

describe('wirescope compare', () => {
  it('compares CBOR, MessagePack, JSON and json-joy model frames; sizes are the encoders’ own', async () => {
    const model = Model.create();
    model.api.root(value);
    const frames: [string, Uint8Array][] = [
      ['cbor', new CborEncoder().encode(value)],
      ['msgpack', new MsgPackEncoder().encode(value)],
      ['json', new TextEncoder().encode(JSON.stringify(value))],
      ['crdt-model', model.toBinary()],
    ];
    for (const [format, bytes] of frames) {
      const r = await run(['compare', 'f', '--json', '--runs', '1', '--codecs', 'json,cbor,msgpack'], bytes);
      expect(r.code, format).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out.frame.format).toBe(format);
      const size = (label: string) => out.rows.find((row: { label: string }) => row.label === label).size;
      expect(size('JSON')).toBe(JSON.stringify(value).length);
      expect(size('CBOR')).toBe(new CborEncoder().encode(value).length);
      expect(size('MessagePack')).toBe(new MsgPackEncoder().encode(value).length);
    }
  });

  it('prints a Markdown table and rejects unknown codecs, bad runs and malformed frames', async () => {
    const md = await run(
      ['compare', 'f', '--markdown', '--runs', '1', '--codecs', 'json,cbor'],
      new CborEncoder().encode(value),
    );
    expect(md.stdout).toMatch(/^### cbor frame/);
    expect(md.stdout).toContain('| JSON |');
    expect((await run(['compare', 'f', '--codecs', 'nope'], new Uint8Array([0xa0]))).code).toBe(2);
    expect((await run(['compare', 'f', '--runs', '0'], new Uint8Array([0xa0]))).code).toBe(2);
    expect((await run(['compare', 'f'], new Uint8Array([0x83, 0x01]))).code).toBe(1);
  });
});
