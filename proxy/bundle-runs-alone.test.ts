import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isDirectRun } from './direct-run.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = (script: string, args: string[], input?: string) =>
  spawnSync(process.execPath, [path.join(repo, script), ...args], { encoding: 'utf8', input, cwd: repo });

/** The CLI bundle (`npm run build:cli`) run by itself behaves as bin/wirescope.js, which imports it. */
describe('node dist/cli/wirescope.js', () => {
  it('inspects a file, prints help and the version, with the exit codes of bin/wirescope.js', () => {
    for (const args of [['inspect', 'samples/order.cbor', '--json'], ['--help'], ['--version'], ['inspect', '-']]) {
      const input = args[1] === '-' ? '83 01 02' : undefined;
      const direct = run('dist/cli/wirescope.js', args, input);
      const viaBin = run('bin/wirescope.js', args, input);
      expect(direct.stdout, args.join(' ')).not.toBe('');
      expect(direct.stdout, args.join(' ')).toBe(viaBin.stdout);
      expect(direct.stderr, args.join(' ')).toBe(viaBin.stderr);
      expect(direct.status, args.join(' ')).toBe(viaBin.status);
    }
    expect(JSON.parse(run('dist/cli/wirescope.js', ['inspect', 'samples/order.cbor', '--json']).stdout)).toMatchObject({
      format: 'cbor',
      error: null,
    });
  });

  it('runs only as the script node started, not when imported', () => {
    const bundle = path.join(repo, 'dist/cli/wirescope.js');
    expect(isDirectRun(`file://${bundle}`, bundle)).toBe(true);
    expect(isDirectRun(`file://${bundle}`, path.join(repo, 'bin/wirescope.js'))).toBe(false);
    expect(isDirectRun(`file://${bundle}`, undefined)).toBe(false);
  });
});
