/**
 * Key overhead (codecs/compare/keys.ts) on hand-counted frames, and the output formats
 * (codecs/compare/format.ts).
 */
import { describe, expect, it } from 'vitest';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { Model } from 'json-joy/lib/json-crdt/model/Model.js';
import { decodeFrame } from '../index.js';
import { keyOverhead } from './keys.js';
import { formatJson, formatKeyOverhead, formatMarkdown, formatText } from './format.js';
import { runComparison } from './compare.js';
import { CODECS } from './codecs.js';
import { frameAttribution } from '../core/attribution.js';
import { generateDocument } from '../bench/generate.js';

const index = (bytes: Uint8Array) => decodeFrame(bytes).index!;

describe('keyOverhead', () => {
  it('CBOR: a2 61 61 01 62 62 62 81 a1 61 61 02', () => {
    const bytes = new CborEncoder().encode({ a: 1, bb: [{ a: 2 }] }).slice();
    expect([...bytes]).toEqual([0xa2, 0x61, 0x61, 0x01, 0x62, 0x62, 0x62, 0x81, 0xa1, 0x61, 0x61, 0x02]);
    const k = keyOverhead(index(bytes));
    expect(k).toMatchObject({
      frameBytes: 12,
      maps: 2,
      entries: 3,
      keyBytes: 7,
      mapOverheadBytes: 2,
      valueBytes: 3,
      distinctKeys: 2,
    });
    expect(k.topKeys).toEqual([
      { key: 'a', count: 2, bytes: 4 },
      { key: 'bb', count: 1, bytes: 3 },
    ]);
    // 12 − 7 key bytes − 2 map headers + 2 records × 1 byte
    expect(k.schema).toEqual({ bytes: 5, saved: 7, records: 2, recordTagBytes: 1 });
  });

  it('JSON: braces, colons and commas are map framing', () => {
    const text = '{"a":1,"bb":[{"a":2}]}';
    const k = keyOverhead(index(new TextEncoder().encode(text)));
    // keys "a" "bb" "a" = 3 + 4 + 3; outer framing { : , : } = 5, inner { : } = 3
    expect(k).toMatchObject({ frameBytes: 22, maps: 2, keyBytes: 10, mapOverheadBytes: 8, valueBytes: 4 });
    expect(k.schema.bytes).toBe(22 - 10 - 8 + 2);
    expect(keyOverhead(index(new TextEncoder().encode(text)), { recordTagBytes: 3 }).schema.bytes).toBe(
      22 - 10 - 8 + 6,
    );
  });

  it('agrees with frameAttribution on key bytes for a real document', () => {
    const bytes = new CborEncoder().encode(generateDocument(30_000)).slice();
    const ix = index(bytes);
    const k = keyOverhead(ix);
    expect(k.keyBytes).toBe(frameAttribution(ix).keyBytes);
    expect(k.keyBytes + k.valueBytes + k.mapOverheadBytes).toBe(bytes.length);
    expect(k.topKeys.length).toBe(10);
    expect(k.topKeys[0].bytes).toBeGreaterThanOrEqual(k.topKeys[9].bytes);
    expect(k.schema.bytes).toBeLessThan(bytes.length);
  });

  it('reads json-joy model obj keys', () => {
    const model = Model.create(undefined, 0x10001);
    model.api.root({ name: 'x', nested: { name: 'y' } });
    const k = keyOverhead(index(model.toBinary()));
    expect(k.maps).toBe(2);
    expect(k.topKeys.map((u) => [u.key, u.count])).toEqual([
      ['name', 2],
      ['nested', 1],
    ]);
  });

  it('a frame without maps has no key overhead', () => {
    const k = keyOverhead(index(Uint8Array.of(0x83, 1, 2, 3)));
    expect(k).toMatchObject({ maps: 0, keyBytes: 0, mapOverheadBytes: 0, topKeys: [] });
    expect(k.schema.bytes).toBe(4);
  });
});

describe('formats', () => {
  it('text, Markdown and JSON tables carry every row', async () => {
    const rows = await runComparison({ a: 1, b: Uint8Array.of(1, 2), c: [true, null] }, { runs: 2, warmup: 0 });
    const text = formatText(rows);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(
      /^codec\s+size\s+gzip\s+deflate\s+encode ops\/s\s+decode ops\/s\s+encode\s+decode\s+lossless$/,
    );
    for (const c of CODECS) expect(text).toContain(c.label);
    expect(text).toMatch(/as base64 it would be 4 bytes/);
    const md = formatMarkdown(rows, 'sample');
    const mdLines = md.split('\n');
    expect(mdLines[0]).toBe('### sample');
    expect(mdLines[2]).toBe('| codec | size | gzip | deflate | encode ops/s | decode ops/s | lossless |');
    expect(mdLines[3]).toBe('| --- | ---: | ---: | ---: | ---: | ---: | --- |');
    expect(mdLines).toHaveLength(4 + rows.length);
    expect(md).toMatch(/\| JSON \| 3\d \|.*\| no: bytes \|/);
    const json = JSON.parse(formatJson(rows, { input: 'x' }));
    expect(json.schema).toBe(1);
    expect(json.input).toBe('x');
    expect(json.rows).toHaveLength(rows.length);
    expect(json.rows[0].codec).toBe('json');
  });

  it('unsupported rows say why', async () => {
    const rows = await runComparison([1, 2], { runs: 1, warmup: 0, codecs: ['bson'] });
    expect(formatMarkdown(rows)).toMatch(/\| BSON \| – \| – \| – \| – \| – \| unsupported: BSON carries a document/);
  });

  it('key overhead as text', () => {
    const bytes = new CborEncoder().encode({ a: 1, bb: [{ a: 2 }] }).slice();
    const text = formatKeyOverhead(keyOverhead(index(bytes)));
    expect(text).toContain('frame 12 bytes; 2 maps, 3 entries, 2 distinct keys');
    expect(text).toMatch(/schema estimate .*: 5 bytes, 7 saved/);
    expect(text).toMatch(/"a"\s+×\s+2\s+4 bytes/);
  });
});
