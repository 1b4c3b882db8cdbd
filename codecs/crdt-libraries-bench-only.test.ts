import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './test/helpers/paths.js';
import { shippedSources } from './test/helpers/shipped-sources.js';

/** A static `from '…'`, a dynamic `import('…')` or a `require('…')` of yjs or @automerge/*. */
const crdtLibrary = /(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"](?:yjs(?:\/[^'"]*)?|@automerge\/[^'"]+)['"]/;

describe('Yjs and Automerge stay in the benchmarks and tests', () => {
  it('no shipped module of codecs/, inspector-app/ or extension/ imports yjs or @automerge', () => {
    const offenders = ['codecs', 'inspector-app/src', 'extension']
      .flatMap((dir) => shippedSources(path.join(repoRoot, dir)))
      .filter((file) => crdtLibrary.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(repoRoot, file));
    expect(offenders).toEqual([]);
  });

  it('the check sees the imports the benchmarks make', () => {
    const bench = path.join(repoRoot, 'codecs/bench');
    for (const file of ['yjs-doc-of-json.ts', 'automerge-doc-of-json.ts'])
      expect(crdtLibrary.test(readFileSync(path.join(bench, file), 'utf8'))).toBe(true);
  });
});
