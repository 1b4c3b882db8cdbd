/**
 * For benchmarks run from source (tsx): the Node lane bundled once, before anything is
 * timed, as the CLI's build (`npm run build:cli` → dist/cli/compare-lane.js) and the app's
 * (Vite) bundle it. A lane loaded through tsx instead compiles every module of the codecs
 * on start (~800 ms of CPU per lane here against ~115 ms bundled), which no user's
 * comparison pays.
 */
import { buildSync } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export function bundleLaneScript(): URL {
  const dir = mkdtempSync(join(tmpdir(), 'wirescope-lane-'));
  const out = join(dir, 'compare-lane.js');
  // The workers have loaded it long before the process ends.
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  buildSync({
    entryPoints: [fileURLToPath(new URL('../node-lane-worker.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: out,
    logLevel: 'warning',
  });
  return pathToFileURL(out);
}
