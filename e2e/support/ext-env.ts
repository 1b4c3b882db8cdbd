/**
 * What the extension's browser tests and `bench:ext` need: the browsers, the extension
 * builds (built here when missing or older than their sources, one builder at a time), a
 * Chromium with the unpacked extension loaded, and its service worker.
 * Missing prerequisites fail loudly with what to do (never a silent skip).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core';
import { buildTarget, zipFolder } from '../../extension/build/build-ext.js';
import { CHROMIUM, CHROMIUM_ARGS, REPO } from './env.js';

export { ARTIFACTS, artifactPath, CHROMIUM, CHROMIUM_ARGS, REPO } from './env.js';
export const FIREFOX = process.env.WIRESCOPE_FIREFOX ?? '/usr/bin/firefox-esr';
/** Where the extension builds live: dist/ (or `WIRESCOPE_EXT_DIST`, e.g. a private folder while others rebuild dist/). */
export const EXT_DIST = path.resolve(REPO, process.env.WIRESCOPE_EXT_DIST ?? 'dist');
const APP_DIR = path.join(REPO, 'dist/app'); // build-ext.ts always reads this one

export type ExtBuild = 'chrome' | 'firefox' | 'chrome-test' | 'firefox-test';
export const extDir = (build: ExtBuild): string => path.join(EXT_DIST, build);

/** Throws with what to install when a browser binary is missing. */
export function requireBrowser(which: 'chromium' | 'firefox'): string {
  const [bin, env, pkg] =
    which === 'chromium' ? [CHROMIUM, 'WIRESCOPE_CHROMIUM', 'chromium'] : [FIREFOX, 'WIRESCOPE_FIREFOX', 'firefox-esr'];
  if (!existsSync(bin)) {
    throw new Error(
      `e2e: no ${which} at ${bin}. Install it (Debian: apt-get install ${pkg}) or set ${env} to its path; the extension tests drive a system browser, never a downloaded one.`,
    );
  }
  return bin;
}

/** Newest modification time (ms) of the files under `dir` that `keep` accepts. */
function newest(dir: string, keep: (rel: string) => boolean = () => true): number {
  if (!existsSync(dir)) return 0;
  let t = 0;
  for (const rel of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (!keep(rel.split(path.sep).join('/'))) continue;
    const s = statSync(path.join(dir, rel), { throwIfNoEntry: false });
    if (s?.isFile()) t = Math.max(t, s.mtimeMs);
  }
  return t;
}

/** What an extension build is made of: its sources (tests and docs excluded), the manifest, package.json (version) and the app build. */
function sourcesTime(): number {
  const source = (rel: string) => !rel.endsWith('.test.ts') && !rel.endsWith('.md') && !/(^|\/)test\//.test(rel);
  return Math.max(
    newest(path.join(REPO, 'extension'), source),
    statSync(path.join(REPO, 'manifest.json')).mtimeMs,
    statSync(path.join(REPO, 'package.json')).mtimeMs,
    newest(APP_DIR),
  );
}

/** A build is fresh when its manifest.json (written last) is newer than everything it is made of. */
function isFresh(build: ExtBuild): boolean {
  const manifest = statSync(path.join(extDir(build), 'manifest.json'), { throwIfNoEntry: false });
  return manifest !== undefined && manifest.mtimeMs >= sourcesTime();
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One builder at a time across processes (Vitest runs test files in parallel forks): a lock directory. */
async function withBuildLock<T>(fn: () => Promise<T>): Promise<T> {
  mkdirSync(EXT_DIST, { recursive: true });
  const lock = path.join(EXT_DIST, '.ext-build.lock');
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(path.join(lock, 'owner'), `${process.pid}\n`);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 60_000)
        rmSync(lock, { recursive: true, force: true }); // a builder that died
      else if (Date.now() > deadline)
        throw new Error(`e2e: ${lock} has been held for 2 minutes; remove it if no build is running`);
      else await sleep(100);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Makes sure `dist/<build>` exists and is not older than its sources: otherwise builds it
 * (with `build-ext.ts`'s own `buildTarget`, into a fresh folder that then replaces the old one,
 * so a reader never sees a half-written build; production builds also refresh their zip, as
 * `npm run build:ext` does). Returns the build's absolute path.
 * `npm test` should build the extension before Vitest (see extension/README.md); this is the
 * fallback, so a test never runs a stale extension.
 */
export async function ensureExtensionBuild(build: ExtBuild): Promise<string> {
  const out = extDir(build);
  if (!existsSync(path.join(APP_DIR, 'panel.html'))) {
    if (existsSync(path.join(out, 'manifest.json'))) return out; // cannot rebuild; use what is there
    throw new Error(
      `e2e: ${APP_DIR}/panel.html is missing, so ${out} cannot be built. Run: npm run build:ext${build.endsWith('-test') ? ':test' : ''} (it builds the app first).`,
    );
  }
  if (isFresh(build)) return out;
  await withBuildLock(async () => {
    if (isFresh(build)) return; // another process built it meanwhile
    const target = build.startsWith('chrome') ? 'chrome' : 'firefox';
    const testHooks = build.endsWith('-test');
    const staging = mkdtempSync(path.join(EXT_DIST, `.${build}-`));
    try {
      await buildTarget(target, { testHooks, outDir: staging });
      const old = `${out}.old-${process.pid}`;
      if (existsSync(out)) renameSync(out, old);
      renameSync(staging, out);
      rmSync(old, { recursive: true, force: true });
      if (!testHooks) writeFileSync(path.join(EXT_DIST, `wirescope-${target}.zip`), zipFolder(out));
    } catch (e) {
      rmSync(staging, { recursive: true, force: true });
      throw new Error(`e2e: building ${out} failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  });
  return out;
}

export interface ChromiumWithExtension {
  readonly context: BrowserContext;
  readonly worker: Worker;
  readonly extensionId: string;
  close(): Promise<void>;
}

/**
 * Chromium (headless, persistent profile in a temp folder) with the unpacked extension at
 * `dir`; the extension id comes from its service worker's URL.
 */
export async function launchChromiumWithExtension(
  dir: string,
  options: { viewport?: { width: number; height: number } } = {},
): Promise<ChromiumWithExtension> {
  requireBrowser('chromium');
  if (!existsSync(path.join(dir, 'manifest.json')))
    throw new Error(`e2e: no extension build at ${dir} (run npm run build:ext)`);
  const profile = mkdtempSync(path.join(os.tmpdir(), 'wirescope-ext-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: options.viewport ?? { width: 1400, height: 900 },
    args: [...CHROMIUM_ARGS, `--disable-extensions-except=${dir}`, `--load-extension=${dir}`],
  });
  try {
    const worker =
      context.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://')) ??
      (await context.waitForEvent('serviceworker', { timeout: 15_000 }));
    const extensionId = new URL(worker.url()).host;
    return {
      context,
      worker,
      extensionId,
      close: async () => {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (e) {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
    throw new Error(`e2e: the extension at ${dir} started no service worker within 15 s (${String(e)})`);
  }
}

/**
 * Tab ids as the extension sees them (`chrome.tabs.query` in its service worker; the
 * extension has no `tabs` permission, so ids only, no URLs).
 */
export function tabIds(worker: Worker): Promise<number[]> {
  return worker.evaluate(async () => {
    const c = (globalThis as unknown as { chrome: { tabs: { query(q: object): Promise<{ id?: number }[]> } } }).chrome;
    return (await c.tabs.query({})).map((t) => t.id ?? -1);
  });
}

/**
 * Opens a new page and returns it with its tab id: the one id that `chrome.tabs.query`
 * lists after the page opened and did not before.
 */
export async function newPageWithTabId<P>(worker: Worker, open: () => Promise<P>): Promise<{ page: P; tabId: number }> {
  const before = new Set(await tabIds(worker));
  const page = await open();
  const deadline = Date.now() + 5000;
  for (;;) {
    const fresh = (await tabIds(worker)).filter((id) => !before.has(id));
    if (fresh.length === 1) return { page, tabId: fresh[0]! };
    if (fresh.length > 1)
      throw new Error(`e2e: more than one new tab appeared (${fresh.join(', ')}); cannot tell which is the page`);
    if (Date.now() > deadline) throw new Error('e2e: the new page never appeared in chrome.tabs.query');
    await sleep(50);
  }
}

export interface OpenOptions {
  /** Run on the new page before it loads: listeners that must hear it from the start (uncaught errors, console), init scripts; a promise it returns is awaited. */
  readonly beforeLoad?: (page: Page) => unknown;
}

/** Opens `url` in a new tab of `ext`'s browser; returns the page with its tab id. */
export function openTabAt(
  ext: ChromiumWithExtension,
  url: string,
  options: OpenOptions = {},
): Promise<{ page: Page; tabId: number }> {
  return newPageWithTabId(ext.worker, async () => {
    const page = await ext.context.newPage();
    await options.beforeLoad?.(page);
    await page.goto(url);
    return page;
  });
}

export interface PanelOptions extends OpenOptions {
  /** The panel page's size, set before it loads. */
  readonly viewport?: { width: number; height: number };
  /** Resolve only once the status bar's frame count is drawn (within 10 s). */
  readonly waitForFrameCount?: boolean;
}

/** The panel of tab `tabId` (panel.html?tabId=N) in a new page. */
export async function openPanelOf(
  ext: ChromiumWithExtension,
  tabId: number,
  options: PanelOptions = {},
): Promise<Page> {
  const panel = await ext.context.newPage();
  if (options.viewport) await panel.setViewportSize(options.viewport);
  await options.beforeLoad?.(panel);
  await panel.goto(`chrome-extension://${ext.extensionId}/panel.html?tabId=${tabId}`);
  if (options.waitForFrameCount) await panel.getByTestId('frame-count').waitFor({ timeout: 10_000 });
  return panel;
}
