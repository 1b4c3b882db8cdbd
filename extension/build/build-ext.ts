/**
 * `npm run build:ext` (after `npm run build:app`): builds the extension for Chrome and Firefox
 * into dist/chrome and dist/firefox and zips them (dist/wirescope-<target>.zip).
 * `--test-build` builds dist/chrome-test and dist/firefox-test instead: the same, plus the
 * test hook that lets a test open the panel in a tab (background/test-hooks.ts); no zips.
 * `--entry name=path` replaces one bundle's entry (e.g. a stub while a part is unwritten).
 *
 * Each target gets: hook.js (MAIN world) and relay.js (content scripts, iife),
 * background.js, devtools.html + devtools.js, panel.html from dist/app with panel-host.js
 * injected before the app's module script, the app's assets/, icons/ and manifest.json.
 */
import { build, type BuildOptions } from 'esbuild';
import { randomBytes } from 'node:crypto';
import { zipSync } from 'fflate';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drawIcon, ICON_SIZES } from './icons.js';
import { manifestFor, type Manifest, type Target } from './manifest.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const TARGETS: readonly Target[] = ['chrome', 'firefox'];

export type BundleName = 'hook' | 'relay' | 'background' | 'devtools' | 'panel-host' | 'options' | 'test-content';

export const ENTRIES: Readonly<Record<BundleName, string>> = {
  hook: 'extension/hook/main.ts',
  relay: 'extension/relay/main.ts',
  background: 'extension/background/main.ts',
  devtools: 'extension/devtools/devtools.ts',
  'panel-host': 'extension/panel/panel-host.ts',
  options: 'extension/options/options.ts',
  'test-content': 'extension/background/test-content.ts',
};

/**
 * A fresh secret for one build (hook.js and relay.js must share it): it names the events of
 * the hook's private-channel handshake (shared/channel.ts), so a page cannot guess them.
 */
export const newChannelSecret = (): string => randomBytes(12).toString('hex');

/** esbuild options of one bundle; `write: false` bundles in memory (the unit test does). */
export function bundleOptions(
  name: BundleName,
  target: Target,
  testHooks: boolean,
  entry = join(ROOT, ENTRIES[name]),
  channelSecret = newChannelSecret(),
): BuildOptions {
  return {
    entryPoints: [entry],
    bundle: true,
    // Content scripts and pages load classic scripts; Chrome's service worker is a module.
    format: name === 'background' && target === 'chrome' ? 'esm' : 'iife',
    target: target === 'chrome' ? 'chrome111' : 'firefox140',
    platform: 'browser',
    define: {
      __TARGET__: JSON.stringify(target),
      __TEST_HOOKS__: String(testHooks),
      __CHANNEL_SECRET__: JSON.stringify(channelSecret),
    },
    // Folds `if (__TEST_HOOKS__)` away, so production bundles carry no test code.
    minifySyntax: true,
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'warning',
  };
}

export function injectPanelHost(html: string): string {
  const at = html.search(/<script\b[^>]*type="module"/);
  if (at < 0) throw new Error('dist/app/panel.html has no module script to run panel-host.js before');
  return `${html.slice(0, at)}<script src="./panel-host.js"></script>\n    ${html.slice(at)}`;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((p) => statSync(join(dir, p)).isFile())
    .map((p) => p.split('\\').join('/'))
    .sort();
}

/** Zips a folder with fixed timestamps, so the same input gives the same zip. */
export function zipFolder(dir: string): Uint8Array {
  const files: Record<string, [Uint8Array, { mtime: Date }]> = {};
  for (const p of filesUnder(dir)) files[p] = [readFileSync(join(dir, p)), { mtime: new Date('2024-01-01T00:00:00Z') }];
  return zipSync(files, { level: 9 });
}

export async function buildTarget(
  target: Target,
  options: { testHooks: boolean; outDir: string; entries?: Partial<Record<BundleName, string>> },
): Promise<void> {
  const { testHooks, outDir } = options;
  const app = join(ROOT, 'dist/app');
  if (!existsSync(join(app, 'panel.html')))
    throw new Error('dist/app/panel.html is missing: run `npm run build:app` first');
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });

  const names: BundleName[] = ['hook', 'relay', 'background', 'devtools', 'panel-host', 'options'];
  if (testHooks) names.push('test-content');
  const channelSecret = newChannelSecret();
  await Promise.all(
    names.map((name) => {
      const entry = options.entries?.[name] ?? join(ROOT, ENTRIES[name]);
      if (!existsSync(entry)) throw new Error(`${relative(ROOT, entry)} is missing (bundle ${name}.js)`);
      return build({
        ...bundleOptions(name, target, testHooks, entry, channelSecret),
        outfile: join(outDir, `${name}.js`),
      });
    }),
  );

  writeFileSync(join(outDir, 'panel.html'), injectPanelHost(readFileSync(join(app, 'panel.html'), 'utf8')));
  cpSync(join(app, 'assets'), join(outDir, 'assets'), { recursive: true });
  cpSync(join(ROOT, 'extension/devtools/devtools.html'), join(outDir, 'devtools.html'));
  cpSync(join(ROOT, 'extension/options/options.html'), join(outDir, 'options.html'));
  mkdirSync(join(outDir, 'icons'));
  for (const size of ICON_SIZES) writeFileSync(join(outDir, `icons/icon${size}.png`), drawIcon(size));

  const base = JSON.parse(readFileSync(join(ROOT, 'manifest.json'), 'utf8')) as Manifest;
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  writeFileSync(
    join(outDir, 'manifest.json'),
    `${JSON.stringify(manifestFor(target, base, version, { testHooks }), null, 2)}\n`,
  );
}

async function main(argv: readonly string[]): Promise<void> {
  const testHooks = argv.includes('--test-build');
  const entries: Partial<Record<BundleName, string>> = {};
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] !== '--entry') continue;
    const [name, path] = (argv[++i] ?? '').split('=');
    if (!name || !path || !(name in ENTRIES))
      throw new Error(`--entry expects name=path with name in ${Object.keys(ENTRIES).join(', ')}`);
    entries[name as BundleName] = resolve(path);
  }
  for (const target of TARGETS) {
    const outDir = join(ROOT, 'dist', testHooks ? `${target}-test` : target);
    await buildTarget(target, { testHooks, outDir, entries });
    if (!testHooks) writeFileSync(join(ROOT, `dist/wirescope-${target}.zip`), zipFolder(outDir));
    console.log(`wirescope: built ${relative(ROOT, outDir)}${testHooks ? '' : ` and dist/wirescope-${target}.zip`}`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
