/**
 * Firefox for the extension tests: puppeteer-core over WebDriver BiDi with the system
 * Firefox ESR, the test build installed as a temporary add-on, and the panel tab found by
 * what its document says (`location.href`): Puppeteer lists a tab the extension opened on
 * a moz-extension:// URL with the URL `about:blank`, but it can run scripts in it.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { FIREFOX, REPO, requireBrowser } from './ext-env.js';

export async function launchFirefox(options: { extension?: string } = {}): Promise<Browser> {
  requireBrowser('firefox');
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    defaultViewport: { width: 1400, height: 900 },
  });
  if (options.extension) {
    try {
      await browser.installExtension(options.extension);
    } catch (e) {
      await browser.close();
      throw new Error(`e2e: Firefox refused to install ${options.extension} as a temporary add-on: ${String(e)}`);
    }
  }
  return browser;
}

export interface PanelTabOpened {
  readonly wirescopeTest: 'panel-tab-opened';
  readonly url: string;
  readonly tabId: number;
  readonly panelTabId: number;
}

/**
 * The test build's hook: the page posts `{ wirescopeTest: 'open-panel-tab' }`, test-content.js
 * asks the background, which opens panel.html?tabId=<this tab> and answers through the page.
 */
export const OPEN_PANEL_TAB = `new Promise((resolve) => {
  const done = (v) => { removeEventListener('message', on); resolve(v); };
  function on(e) {
    const d = e.data;
    if (e.source === window && d && (d.wirescopeTest === 'panel-tab-opened' || d.wirescopeTest === 'panel-tab-failed')) done(d);
  }
  addEventListener('message', on);
  postMessage({ wirescopeTest: 'open-panel-tab' }, '*');
  setTimeout(() => done({ wirescopeTest: 'no answer within 10 s (is this a test build?)' }), 10000);
})`;

/** Asks the test build's hook (OPEN_PANEL_TAB) to open `page`'s panel in a tab; throws with its answer when it did not. */
async function askForPanelTab(page: Page): Promise<PanelTabOpened> {
  const opened = (await page.evaluate(OPEN_PANEL_TAB)) as PanelTabOpened;
  if (opened.wirescopeTest !== 'panel-tab-opened')
    throw new Error(`e2e: the panel tab did not open: ${JSON.stringify(opened)}`);
  return opened;
}

/** Opens `page`'s panel tab through the test build's hook; returns it with the hook's answer (its URL and tab ids). */
export async function openPanelTabWithAnswer(
  browser: Browser,
  page: Page,
): Promise<{ panel: Page; opened: PanelTabOpened }> {
  const opened = await askForPanelTab(page);
  return { panel: await findPageByLocation(browser, opened.url), opened };
}

/** Opens `page`'s panel tab through the test build's hook and returns it. */
export async function openPanelTab(browser: Browser, page: Page): Promise<Page> {
  return (await openPanelTabWithAnswer(browser, page)).panel;
}

/** The open tab whose document is at `url` (Puppeteer's own `page.url()` may say about:blank). */
export async function findPageByLocation(browser: Browser, url: string, timeoutMs = 10_000): Promise<Page> {
  const deadline = Date.now() + timeoutMs;
  const seen = new Set<string>();
  for (;;) {
    for (const page of await browser.pages()) {
      const href = await page
        .evaluate('location.href')
        .catch((e: unknown) => `(cannot evaluate: ${String(e).slice(0, 80)})`);
      seen.add(`${page.url()} → ${String(href)}`);
      if (href === url) return page;
    }
    if (Date.now() > deadline)
      throw new Error(`e2e: no tab shows ${url}; tabs (puppeteer url → location.href): ${[...seen].join('; ')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface LintReport {
  readonly count: number;
  readonly summary: { errors: number; notices: number; warnings: number };
  readonly errors: LintMessage[];
  readonly warnings: LintMessage[];
  readonly notices: LintMessage[];
}

export interface LintMessage {
  readonly code: string;
  readonly message: string;
  readonly file?: string;
  readonly line?: number;
}

/** `web-ext lint --source-dir <dir> --output json` (the project's own web-ext); resolves with its report. */
export function webExtLint(dir: string): Promise<{ report: LintReport; ms: number }> {
  const bin = path.join(REPO, 'node_modules/.bin/web-ext');
  if (!existsSync(bin))
    return Promise.reject(new Error(`e2e: ${bin} is missing: run npm ci (web-ext is a devDependency)`));
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['lint', '--source-dir', dir, '--output', 'json', '--no-input'], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      const start = out.indexOf('{');
      try {
        resolve({ report: JSON.parse(out.slice(start)) as LintReport, ms: Date.now() - t0 });
      } catch {
        reject(
          new Error(
            `e2e: web-ext lint exited ${code} without a JSON report:\n${out.slice(0, 2000)}\n${err.slice(0, 2000)}`,
          ),
        );
      }
    });
  });
}

/**
 * Opens the panel tab for `page` through the test build's hook (OPEN_PANEL_TAB) and reloads
 * it with `&theme=`: the hook opens it without a theme, and BiDi may not navigate to
 * moz-extension:, so the panel page navigates itself.
 */
export async function openThemedPanel(browser: Browser, page: Page, theme: 'light' | 'dark'): Promise<Page> {
  const opened = await askForPanelTab(page);
  const url = `${opened.url}&theme=${theme}`;
  await (await findPageByLocation(browser, opened.url))
    .evaluate((u) => location.replace(u), url)
    .catch(() => undefined);
  return findPageByLocation(browser, url);
}

/**
 * Opens `url` in a new tab, waits (up to 15 s) for its page to set `window.__received` (its
 * frames are in), then opens that tab's panel in `theme` (openThemedPanel).
 */
export async function openPageThenThemedPanel(
  browser: Browser,
  url: string,
  theme: 'light' | 'dark',
): Promise<{ page: Page; panel: Page }> {
  const page = await browser.newPage();
  await page.goto(url);
  await page.waitForFunction(() => (window as unknown as { __received?: boolean }).__received === true, {
    timeout: 15_000,
  });
  return { page, panel: await openThemedPanel(browser, page, theme) };
}
