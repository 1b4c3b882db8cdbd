import { describe, expect, it } from 'vitest';
import { build } from 'esbuild';

/**
 * codecs/ runs in Web Workers and extension pages: its public API must bundle for the
 * browser with no Node built-ins, and without `new Function` / `eval` (MV3's CSP forbids
 * them; json-pack's codegen-based readers use them).
 */
describe('codecs/ in the browser', () => {
  it('bundles codecs/index.ts for the browser without Node built-ins, new Function or eval', async () => {
    const out = await build({
      entryPoints: ['codecs/index.ts'],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      logLevel: 'silent',
    });
    const text = out.outputFiles[0].text;
    expect(text).not.toMatch(/new Function\s*\(/);
    expect(text).not.toMatch(/\beval\s*\(/);
    expect(text).not.toMatch(/from\s*["']node:/);
    expect(text).not.toMatch(/require\(["'](fs|path|os|node:[a-z]+)["']\)/);
  });
});
