import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repoRoot } from '../test/helpers/cbor.js';
import { deepCbor } from '../test/helpers/deep-frames.js';

/** Runs the built CLI, reads `keep` bytes of its stdout, then closes the pipe (like `| head -c 100`). */
function runAndClose(
  args: string[],
  keep: number,
): Promise<{ code: number | null; signal: string | null; stderr: string; got: number }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(repoRoot, 'bin/wirescope.js'), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let got = 0;
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.on('data', (d: Buffer) => {
      got += d.length;
      if (got >= keep) child.stdout.destroy();
    });
    child.on('close', (code, signal) => resolve({ code, signal, stderr, got }));
  });
}

describe('the CLI on a closed pipe', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'wirescope-pipe-'));
  // 200,000 numbers: megabytes of tree, far more than a pipe buffer holds.
  const big = path.join(dir, 'big.cbor');
  writeFileSync(
    big,
    Uint8Array.from([0x9a, 0x00, 0x03, 0x0d, 0x40, ...new Array(200_000).fill(0x18).flatMap((b, i) => [b, i & 0xff])]),
  );
  const deep = path.join(dir, 'deep.cbor');
  writeFileSync(deep, deepCbor(100_000));

  it.each([
    ['default tree', [big]],
    ['--json', [big, '--json']],
    ['--hex', [big, '--hex']],
    ['100,000 nested arrays', [deep]],
  ])('%s | head -c 100 ends quietly (exit 0 or 141, nothing on stderr)', async (_name, args) => {
    const r = await runAndClose(['inspect', ...args], 100);
    expect(r.got).toBeGreaterThanOrEqual(100);
    expect(r.stderr).toBe('');
    expect(r.signal === 'SIGPIPE' || r.code === 0 || r.code === 141, `code ${r.code} signal ${r.signal}`).toBe(true);
  });
});
