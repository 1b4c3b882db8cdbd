import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../test/helpers/cbor.js';
import { deepCbor } from '../test/helpers/deep-frames.js';

const dir = mkdtempSync(path.join(tmpdir(), 'wirescope-deep-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The default tree is written out as it is made: its text never sits whole in memory. 300,000
 * nested CBOR arrays under a 128 MB heap (the whole text needed more than 160 MB).
 */
describe('the CLI default tree on very deep nesting', () => {
  it('300,000 nested CBOR arrays print under a 128 MB heap, one line per level', () => {
    const levels = 300_000;
    const file = path.join(dir, 'deep.cbor');
    writeFileSync(file, deepCbor(levels));
    const run = spawnSync(
      process.execPath,
      ['--max-old-space-size=128', path.join(repoRoot, 'bin/wirescope.js'), 'inspect', file],
      { encoding: 'utf8', maxBuffer: 1 << 30 },
    );
    expect(run.stderr).not.toMatch(/heap out of memory/);
    expect(run.status).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(/^cbor, 300,000 bytes/);
    expect(lines.filter((l) => /^ *\d+ +\d+ /.test(l)).length).toBe(levels);
  }, 120_000);
});
