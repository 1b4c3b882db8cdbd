/**
 * Comparison rows (codecs/compare/compare.ts): every size is the codec's own encoder
 * output, gzip / deflate sizes are fflate's, timings are well-formed; frames of every
 * format can be compared.
 */
import { describe, expect, it } from 'vitest';
import { deflateSync, gzipSync } from 'fflate';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { MsgPackEncoder } from '@jsonjoy.com/json-pack/lib/msgpack/MsgPackEncoder.js';
import { Model } from 'json-joy/lib/json-crdt/model/Model.js';
import { CODECS, codecByName, encodedBytes, encodedSize } from './codecs.js';
import {
  GZIP_FRAMING,
  compareFrame,
  frameValue,
  isMeasured,
  runComparison,
  type MeasuredRow,
  type Row,
} from './compare.js';
import { generateDocument } from '../bench/generate.js';
import { indexCrdtModel } from '../crdt/model-walker.js';
import { TaggedValue } from '../core/values.js';
import { decodeModel, encodeModel } from '../crdt/codecs.js';

const doc = generateDocument(20_000);
const utf8 = (s: string) => new TextEncoder().encode(s);

function checkSizes(value: unknown, rows: readonly Row[]): void {
  for (const row of rows) {
    if (!isMeasured(row)) continue;
    const codec = codecByName(row.codec)!;
    const encoded = codec.encode(value);
    const bytes = encodedBytes(encoded);
    expect(row.size, row.codec).toBe(encodedSize(encoded));
    expect(row.size, row.codec).toBe(bytes.length);
    expect(row.gzip, row.codec).toBe(gzipSync(bytes).length);
    expect(row.deflate, row.codec).toBe(deflateSync(bytes).length);
  }
}

describe('row sizes', () => {
  it('equal each encoder’s output and fflate’s compressed lengths (a 20 kB document)', async () => {
    const rows = await runComparison(doc, { runs: 1, warmup: 0 });
    expect(rows.map((r) => r.codec)).toEqual(CODECS.map((c) => c.name));
    expect(rows.every(isMeasured)).toBe(true);
    checkSizes(doc, rows);
    // Independent encoders agree.
    const by = new Map(rows.map((r) => [r.codec, r as MeasuredRow]));
    expect(by.get('json')!.size).toBe(utf8(JSON.stringify(doc)).length);
    expect(by.get('cbor')!.size).toBe(new CborEncoder().encode(doc).length);
    expect(by.get('msgpack')!.size).toBe(new MsgPackEncoder().encode(doc).length);
    const m = Model.create(undefined, 0x123456);
    m.api.root(doc);
    expect(by.get('json-joy-binary')!.size).toBe(m.toBinary().length);
    const server = Model.withServerClock();
    server.api.root(doc);
    expect(by.get('json-joy-binary-server')!.size).toBe(server.toBinary().length);
    // Everything round-trips a plain JSON document.
    for (const r of rows) expect(r.unsupported === null && r.lossless, r.codec).toBe(true);
  });

  it('equal the encoders’ output for values beyond JSON, and multi-part codecs list their parts', async () => {
    const value = {
      b: Uint8Array.of(1, 2, 3),
      big: 2n ** 80n,
      t: new TaggedValue(1, 1700000000),
      list: [1, 'x', null],
    };
    const rows = await runComparison(value, { runs: 1, warmup: 0 });
    checkSizes(value, rows);
    const plain = { s: 'text', n: [1, 2, 3], o: { k: true } };
    const plainRows = await runComparison(plain, { runs: 1, warmup: 0 });
    checkSizes(plain, plainRows);
    const sidecar = plainRows.find((r) => r.codec === 'json-joy-sidecar') as MeasuredRow;
    expect(sidecar.parts!.map((p) => p.name)).toEqual(['view', 'meta']);
    expect(sidecar.parts!.reduce((s, p) => s + p.size, 0)).toBe(sidecar.size);
    const indexed = plainRows.find((r) => r.codec === 'json-joy-indexed') as MeasuredRow;
    expect(indexed.parts!.reduce((s, p) => s + p.size, 0)).toBe(indexed.size);
  });

  it('json-joy rows match encodeModel: the same frames, or the parts its frames carry', async () => {
    const value = { title: 'x', list: [1, 2, { deep: 'y' }], blob: Uint8Array.of(1, 2) };
    const rows = await runComparison(value, {
      runs: 1,
      warmup: 0,
      codecs: [
        'json-joy-compact',
        'json-joy-compact-binary',
        'json-joy-verbose',
        'json-joy-indexed',
        'json-joy-sidecar',
      ],
    });
    const model = Model.create(undefined, 0x123456);
    model.api.root(value);
    const size = (name: string) => (rows.find((r) => r.codec === `json-joy-${name}`) as MeasuredRow).size;
    for (const codec of ['compact', 'compact-binary', 'verbose'] as const) {
      expect(size(codec), codec).toBe(encodeModel(model, codec).length);
      expect(codecByName(`json-joy-${codec}`)!.encode(value)).toEqual(encodeModel(model, codec));
    }
    // sidecar frame: 0x82, the view's CBOR verbatim, the meta as a CBOR byte string.
    const sidecar = rows.find((r) => r.codec === 'json-joy-sidecar') as MeasuredRow;
    const [view, meta] = sidecar.parts!;
    const frame = encodeModel(model, 'sidecar');
    expect(frame.length).toBe(1 + view.size + (meta.size < 24 ? 1 : meta.size < 256 ? 2 : 3) + meta.size);
    // indexed frame: the same fields as a CBOR map (keys and byte-string headers added).
    const indexedFrame = encodeModel(model, 'indexed');
    expect(indexedFrame.length).toBeGreaterThan(size('indexed'));
    const decoded = decodeModel(indexedFrame, 'indexed');
    expect(decoded.ok).toBe(true);
  });

  it('gzip is deflate plus 18 bytes of framing, as fflate writes it', () => {
    for (const n of [0, 1, 1000, 70_000]) {
      const bytes = new Uint8Array(n).map((_, i) => (i * 7919) % 251);
      expect(gzipSync(bytes).length).toBe(deflateSync(bytes).length + GZIP_FRAMING);
    }
  });

  it('timings: median within min..max, ops/s from the median, runs as asked', async () => {
    const [row] = await runComparison(doc, { runs: 5, warmup: 1, codecs: ['cbor'] });
    const r = row as MeasuredRow;
    for (const t of [r.encode, r.decode!]) {
      expect(t.runs).toBe(5);
      expect(t.minMs).toBeLessThanOrEqual(t.medianMs);
      expect(t.medianMs).toBeLessThanOrEqual(t.maxMs);
      if (t.medianMs > 0) expect(t.opsPerSec).toBeCloseTo(1000 / t.medianMs, 6);
    }
  });

  it('a time budget keeps a slow warm-up as the only sample', async () => {
    const [row] = await runComparison(doc, { runs: 5, warmup: 1, budgetMs: 0, codecs: ['json'] });
    expect((row as MeasuredRow).encode.runs).toBe(1);
  });
});

describe('frames', () => {
  const jsonFrame = utf8(JSON.stringify(doc));
  const cborFrame = new CborEncoder().encode(doc).slice();
  const msgpackFrame = new MsgPackEncoder().encode(doc).slice();
  const model = Model.create(undefined, 0x10001);
  model.api.root({ title: 'notes', tags: ['a', 'b'], count: 3, blob: Uint8Array.of(9, 8, 7) });
  const modelFrame = model.toBinary();

  it.each([
    ['json', jsonFrame],
    ['cbor', cborFrame],
    ['msgpack', msgpackFrame],
  ] as const)('a %s frame is compared by its value, every codec lossless', async (format, frame) => {
    const fv = frameValue(frame);
    expect(fv.format).toBe(format);
    expect(fv.value).toEqual(doc);
    const rows: Row[] = [];
    for await (const row of compareFrame(frame, { runs: 1, warmup: 0 })) rows.push(row);
    expect(rows).toHaveLength(CODECS.length);
    for (const r of rows) expect(r.unsupported === null && r.lossless, `${format} → ${r.codec}`).toBe(true);
    const self = rows.find((r) => r.codec === format) as MeasuredRow;
    // Re-encoding the decoded value with the frame's own codec gives the frame's size back.
    expect(self.size).toBe(frame.length);
  });

  it('a json-joy model frame is compared by its document (indexCrdtModel value)', async () => {
    const fv = frameValue(modelFrame);
    expect(fv.format).toBe('crdt-model');
    const index = indexCrdtModel(modelFrame);
    expect(fv.value).toEqual(index.value(index.root));
    expect(fv.value).toEqual(model.view());
    const rows = await runComparison(fv.value, { runs: 1, warmup: 0 });
    const crdt = rows.filter((r) => r.family === 'json-joy');
    expect(crdt.map((r) => r.codec)).toEqual(CODECS.filter((c) => c.family === 'json-joy').map((c) => c.name));
    for (const r of crdt) expect(r.unsupported === null && r.lossless, r.codec).toBe(true);
    // JSON carries the blob only as base64.
    const json = rows.find((r) => r.codec === 'json') as MeasuredRow;
    expect(json.lost).toEqual(['bytes']);
  });

  it('a frame that does not decode is refused', () => {
    expect(() => frameValue(Uint8Array.of(0x83, 0x01))).toThrow(RangeError);
  });
});
