import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { repoPath } from '../../test/helpers/paths.js';

/**
 * The session code bundles for the browser (no Node built-ins), and the Avro codec (ours,
 * no avsc) bundles with no alias, holds no code generation (extension pages forbid it),
 * and runs.
 */
const root = repoPath('codecs');

describe('schema codecs in a browser bundle', () => {
  it('session/index.ts bundles for the browser without Node modules', async () => {
    const r = await build({
      entryPoints: [join(root, 'compare/session/index.ts')],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    expect(r.errors).toEqual([]);
  }, 60_000);

  it('avro-codec.ts bundles for the browser with no Node shim and no code generation, and round-trips a frame', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wirescope-avro-'));
    const out = join(dir, 'avro.mjs');
    await build({
      entryPoints: [join(root, 'compare/schema/avro-codec.ts')],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      outfile: out,
      logLevel: 'silent',
    });
    const text = readFileSync(out, 'utf8');
    expect(text).not.toMatch(/new Function|\bFunction\(|\beval\(/);
    expect(text).not.toMatch(/avsc/);
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    const { avroCodec } = (await import(
      /* @vite-ignore */ pathToFileURL(out).href
    )) as typeof import('./avro-codec.js');
    const codec = avroCodec([{ a: 1, b: 'x' }, { a: 2.5 }]);
    expect(codec.unsupported).toBeNull();
    const bytes = codec.encode({ a: 2.5, b: 'y' });
    if (!(bytes instanceof Uint8Array)) throw new Error(bytes.mismatch);
    expect(codec.decode(bytes)).toEqual({ a: 2.5, b: 'y' });
  }, 60_000);
});
