import { describe, expect, it } from 'vitest';
import { runComparison, type Row } from './compare.js';
import { formatMarkdown, formatText } from './format.js';

/** Every row that shows "–" says why, in the text and the Markdown output. */
describe('rows with "–" carry a reason', () => {
  it('unsupported codecs, compression off, a decoder that threw and an aborted timing are explained', async () => {
    const rows: Row[] = await runComparison([1n << 70n, { a: 1 }], {
      codecs: ['json', 'bson', 'ion'],
      compress: false,
      runs: 1,
    });
    const broken: Row = {
      ...rows.find((r) => r.codec === 'json')!,
      label: 'Broken',
      decode: null,
      decodeError: 'bad byte at offset 3',
      lossless: false,
      lost: ['decode'],
    } as Row;
    const all = [...rows, broken];
    for (const text of [formatText(all), formatMarkdown(all)]) {
      expect(text).toMatch(/BSON: –: BSON carries a document/);
      expect(text).toMatch(/Ion: –: .*bigint/);
      expect(text).toMatch(/JSON: –: gzip and deflate not measured \(compression off\)/);
      expect(text).toMatch(/Broken: –: decode: the decoder failed: bad byte at offset 3/);
    }
  });
});
