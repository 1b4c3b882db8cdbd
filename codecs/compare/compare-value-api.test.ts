/**
 * The off-main-thread API (compareValue): progressive rows, progress, cancellation.
 */
import { describe, expect, it } from 'vitest';
import { CODECS, codecByName, type Codec } from './codecs.js';
import { compareValue, runComparison, type CompareProgress, type Row } from './compare.js';
import { generateDocument } from '../bench/generate.js';
import { build } from 'esbuild';

const doc = generateDocument(5_000);

describe('compareValue', () => {
  it('yields one row per codec and reports progress up to the total', async () => {
    const progress: CompareProgress[] = [];
    const rows: Row[] = [];
    for await (const row of compareValue(doc, { runs: 1, warmup: 0, onProgress: (p) => progress.push(p) }))
      rows.push(row);
    expect(rows).toHaveLength(CODECS.length);
    expect(progress.map((p) => p.done)).toEqual(CODECS.map((_, i) => i + 1));
    expect(progress.every((p) => p.total === CODECS.length)).toBe(true);
    expect(progress.at(-1)!.codec).toBe(CODECS.at(-1)!.name);
  });

  it('takes a subset of codecs by name or entry, and rejects unknown names', async () => {
    const rows = await runComparison(doc, { runs: 1, warmup: 0, codecs: ['msgpack', codecByName('json')!] });
    expect(rows.map((r) => r.codec)).toEqual(['msgpack', 'json']);
    await expect(runComparison(doc, { codecs: ['nope'] })).rejects.toThrow(/unknown codec/);
  });

  it('stops when the signal aborts between codecs', async () => {
    const ac = new AbortController();
    const rows: Row[] = [];
    for await (const row of compareValue(doc, { runs: 1, warmup: 0, signal: ac.signal })) {
      rows.push(row);
      if (rows.length === 2) ac.abort();
    }
    expect(rows.map((r) => r.codec)).toEqual(CODECS.slice(0, 2).map((c) => c.name));
  });

  it('yields nothing when aborted before it starts', async () => {
    const ac = new AbortController();
    ac.abort();
    expect(await runComparison(doc, { signal: ac.signal })).toEqual([]);
  });

  it('stops between timing runs, and the interrupted codec yields no row', async () => {
    const ac = new AbortController();
    const cbor = codecByName('cbor')!;
    let writes = 0;
    const aborting: Codec = {
      ...cbor,
      name: 'aborting',
      write: (p) => {
        if (++writes === 2) ac.abort();
        return cbor.write(p);
      },
    };
    let msgpackWrites = 0;
    const msgpack: Codec = {
      ...codecByName('msgpack')!,
      write: (p) => (msgpackWrites++, codecByName('msgpack')!.write(p)),
    };
    const rows = await runComparison(doc, {
      runs: 100,
      warmup: 0,
      signal: ac.signal,
      codecs: ['json', aborting, msgpack],
    });
    expect(rows.map((r) => r.codec)).toEqual(['json']);
    // Samples repeat a fast operation until they span MIN_SAMPLE_MS, and the signal is read
    // between samples: the batch running at the abort finishes (a few ms), nothing after it.
    expect(writes).toBeGreaterThanOrEqual(2);
    expect(msgpackWrites).toBe(0);
  });

  it('a cancel sent from another task is seen (the generator yields to the event loop)', async () => {
    const ac = new AbortController();
    const rows: Row[] = [];
    // The cancel arrives like a worker message: a macrotask queued while the comparison runs.
    setTimeout(() => ac.abort(), 0);
    for await (const row of compareValue(doc, { runs: 1, warmup: 0, signal: ac.signal })) rows.push(row);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(CODECS.length);
  });

  it('reports encoder failures as unsupported rows instead of throwing', async () => {
    const broken: Codec = {
      ...codecByName('json')!,
      name: 'broken',
      write: () => {
        throw new Error('boom');
      },
    };
    const [row] = await runComparison({ a: 1 }, { codecs: [broken] });
    expect(row.unsupported).toMatch(/boom/);
  });
});

describe('runs in a Web Worker and an MV3 extension page', () => {
  it('bundles for the browser without Node built-ins, new Function or eval', async () => {
    const out = await build({
      entryPoints: ['codecs/compare/index.ts'],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      logLevel: 'silent',
    });
    const code = out.outputFiles[0].text;
    expect(code).not.toMatch(/new Function|\beval\(/);
    expect(code).not.toMatch(/require\("node:|from "node:/);
  });
});
