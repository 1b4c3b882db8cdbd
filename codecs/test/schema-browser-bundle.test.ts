import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

/**
 * The session code bundles for the browser (no Node built-ins: avsc is not imported by it),
 * and the Avro codec does too with 'util' aliased to avsc-util-shim.ts — and then runs.
 */
const root = fileURLToPath(new URL('..', import.meta.url));

describe('schema codecs in a browser bundle', () => {
  it('session/index.ts bundles for the browser without Node modules', async () => {
    const r = await build({ entryPoints: [join(root, 'compare/session/index.ts')], bundle: true, platform: 'browser', format: 'esm', write: false, logLevel: 'silent' });
    expect(r.errors).toEqual([]);
  }, 60_000);

  it('avro-codec.ts bundles for the browser with the util shim and round-trips a frame', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wirescope-avro-'));
    const out = join(dir, 'avro.mjs');
    await build({ entryPoints: [join(root, 'compare/schema/avro-codec.ts')], bundle: true, platform: 'browser', format: 'esm', outfile: out, alias: { util: join(root, 'compare/schema/avsc-util-shim.ts') }, logLevel: 'silent' });
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    const { avroCodec } = (await import(/* @vite-ignore */ pathToFileURL(out).href)) as typeof import('../compare/schema/avro-codec.js');
    const codec = avroCodec([{ a: 1, b: 'x' }, { a: 2.5 }]);
    expect(codec.unsupported).toBeNull();
    const bytes = codec.encode({ a: 2.5, b: 'y' });
    if (!(bytes instanceof Uint8Array)) throw new Error(bytes.mismatch);
    expect(codec.decode(bytes)).toEqual({ a: 2.5, b: 'y' });
  }, 60_000);
});
