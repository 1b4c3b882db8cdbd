import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error plain ESM script without types (it runs before anything is built)
import { checkBrowsers, INSTALL_LINE } from '../scripts/check-browsers.mjs';

const script = join(import.meta.dirname, '..', 'scripts', 'check-browsers.mjs');

describe('npm test checks for the browsers first', () => {
  it('names each missing browser and prints the one apt line', () => {
    const present = new Set(['/usr/bin/chromium']);
    const r = checkBrowsers({}, (p: string) => present.has(p));
    expect(r.missing.map((b: { name: string }) => b.name)).toEqual(['Firefox ESR']);
    expect(r.message).toContain('Firefox ESR (/usr/bin/firefox-esr)');
    expect(r.message).toContain(INSTALL_LINE);
    expect(checkBrowsers({}, () => true).message).toBe('');
  });

  it('as a process: exits 1 within seconds when the paths do not exist, 0 when they do', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ws-browsers-'));
    const fake = join(dir, 'browser');
    writeFileSync(fake, '#!/bin/sh\n');
    chmodSync(fake, 0o755);
    const started = Date.now();
    const missing = spawnSync(process.execPath, [script], {
      env: { PATH: dir, WIRESCOPE_CHROMIUM: join(dir, 'nope'), WIRESCOPE_FIREFOX: join(dir, 'nope-either') },
      encoding: 'utf8',
    });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain(INSTALL_LINE);
    expect(Date.now() - started).toBeLessThan(10_000);
    const found = spawnSync(process.execPath, [script], {
      env: { PATH: dir, WIRESCOPE_CHROMIUM: fake, WIRESCOPE_FIREFOX: fake },
      encoding: 'utf8',
    });
    expect(found.status).toBe(0);
    expect(found.stderr).toBe('');
  });
});
