/**
 * The production bundles carry no test hook; test builds do. Bundles in memory with the
 * build's own esbuild options (no dist needed); checks dist/chrome and dist/firefox too when
 * `npm run build:ext` has run.
 */
import { build } from 'esbuild';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleOptions, ENTRIES, injectPanelHost, ROOT, type BundleName } from './build-ext.js';

const TEST_MARKERS = ['wirescope-test', 'open-panel-tab', 'panel-tab-opened'];
/** The bundles this part of the extension owns (hook and relay are built the same way). */
const OWN: BundleName[] = ['background', 'devtools', 'panel-host', 'options'];

async function bundle(name: BundleName, target: 'chrome' | 'firefox', testHooks: boolean): Promise<string> {
  const result = await build({ ...bundleOptions(name, target, testHooks), write: false, logLevel: 'silent' });
  return result.outputFiles[0]!.text;
}

describe('extension bundles', () => {
  for (const target of ['chrome', 'firefox'] as const) {
    it(`${target}: production bundles contain no test hook`, async () => {
      for (const name of OWN) {
        const code = await bundle(name, target, false);
        for (const marker of TEST_MARKERS) expect(code, `${name}.js contains ${marker}`).not.toContain(marker);
      }
    });
  }

  it('test builds do contain the hook (so the check above means something)', async () => {
    expect(await bundle('background', 'firefox', true)).toContain('wirescope-test/open-panel-tab');
    expect(await bundle('test-content', 'firefox', true)).toContain('panel-tab-opened');
  });

  it('panel-host.js is a classic script: no import or export at the top level', async () => {
    const code = await bundle('panel-host', 'chrome', false);
    expect(code).not.toMatch(/^\s*(import|export)\b/m);
    expect(code.trimStart().startsWith('"use strict";\n(() => {') || code.trimStart().startsWith('(() => {')).toBe(
      true,
    );
  });

  it('injects panel-host.js before the app module script', () => {
    const html =
      '<head>\n    <title>x</title>\n    <script type="module" crossorigin src="./assets/panel.js"></script>\n</head>';
    const out = injectPanelHost(html);
    expect(out.indexOf('<script src="./panel-host.js"></script>')).toBeLessThan(out.indexOf('type="module"'));
    expect(() => injectPanelHost('<html></html>')).toThrow(/module script/);
  });

  it('names entries that exist for the parts this helper owns', () => {
    for (const name of [...OWN, 'test-content'] as const) expect(existsSync(join(ROOT, ENTRIES[name]))).toBe(true);
  });

  for (const target of ['chrome', 'firefox'] as const) {
    const dir = join(ROOT, 'dist', target);
    it.skipIf(!existsSync(join(dir, 'manifest.json')))(`dist/${target} (if built) has no test hook anywhere`, () => {
      const files = readdirSync(dir).filter((f) => f.endsWith('.js') || f.endsWith('.json') || f.endsWith('.html'));
      expect(files).toContain('background.js');
      expect(files).not.toContain('test-content.js');
      for (const f of files) {
        const text = readFileSync(join(dir, f), 'utf8');
        for (const marker of TEST_MARKERS) expect(text, `${f} contains ${marker}`).not.toContain(marker);
      }
    });
  }
});
