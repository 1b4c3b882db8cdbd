/**
 * The json-joy indexed row times json-joy's own encoder and decoder. The
 * encoder returns one record with a field per node (146,067 on the ~1 MB document); the
 * row listed it as entries (`Object.entries`) inside the timed encode and rebuilt the record
 * (`Object.fromEntries`) inside the timed decode, which made the encode read ~1.5x slower
 * than json-joy's and cost ~130 ms of CPU per comparison. The record is now kept as the
 * encoder wrote it and listed once, untimed, for the sizes.
 */
import { describe, expect, it } from 'vitest';
import { Model } from 'json-joy/lib/json-crdt/model/Model.js';
import {
  Encoder as IndexedEncoder,
  Decoder as IndexedDecoder,
} from 'json-joy/lib/json-crdt/codec/indexed/binary/index.js';
import { generateDocument } from '../bench/generate.js';
import { codecByName, CRDT_SID, encodedBytes, encodedSize, type EncodedParts } from './codecs.js';
import { isMeasured, runComparison, type MeasuredRow } from './compare.js';
import { IndexedFields } from './jsonjoy-indexed-fields.js';

const codec = codecByName('json-joy-indexed')!;

describe('json-joy indexed row', () => {
  const modelOf = (value: unknown): Model => {
    const m = Model.create(undefined, CRDT_SID);
    m.api.root(value);
    return m;
  };

  it("the timed encode is json-joy's alone: the field record is listed on first use of parts, after the timing", () => {
    // Listing 146,067 fields inside the timed call made the row's encode read 1.45–2.17x
    // IndexedEncoder.encode's CPU time (fastest of 7, interleaved; 0.95–1.23x after, load 15):
    // too noisy a margin for a test on this machine, so the test checks that nothing is listed.
    const model = modelOf(generateDocument(16 << 10));
    const encoded = codec.write(model);
    expect(encoded).toBeInstanceOf(IndexedFields);
    const fields = encoded as IndexedFields;
    expect(fields.listedYet).toBe(false);
    codec.read(fields);
    expect(fields.listedYet).toBe(false);
    expect(fields.parts.length).toBe(Object.keys(fields.fields).length);
    expect(fields.listedYet).toBe(true);
  });

  it('decodes the encoded record as written, and the parts, size and bytes are the fields in order', () => {
    const doc = generateDocument(16 << 10);
    const model = modelOf(doc);
    const fields = new IndexedEncoder().encode(model) as unknown as Record<string, Uint8Array>;
    const encoded = codec.write(model) as EncodedParts;
    expect(encoded.parts.map(([name, bytes]) => [name, [...bytes]])).toEqual(
      Object.entries(fields).map(([name, bytes]) => [name, [...bytes]]),
    );
    expect(encodedSize(encoded)).toBe(Object.values(fields).reduce((n, b) => n + b.length, 0));
    const concatenated = Buffer.concat(Object.values(fields));
    expect(Buffer.from(encodedBytes(encoded)).equals(concatenated)).toBe(true);
    const decoded = codec.read(encoded) as Model;
    expect(decoded.view()).toEqual(new IndexedDecoder().decode(fields as never).view());
    expect(decoded.view()).toEqual(doc);
    // Parts made by hand (not by the encoder) still decode.
    expect((codec.read({ parts: Object.entries(fields) }) as Model).view()).toEqual(doc);
  });

  it('the row keeps its size, parts and round trip', async () => {
    const [row] = await runComparison(
      { a: [1, 'two', { b: true }], c: Uint8Array.of(1, 2) },
      { runs: 1, warmup: 0, codecs: ['json-joy-indexed'] },
    );
    expect(isMeasured(row)).toBe(true);
    const measured = row as MeasuredRow;
    expect(measured.parts!.reduce((n, p) => n + p.size, 0)).toBe(measured.size);
    expect(measured.lossless).toBe(true);
  });
});
