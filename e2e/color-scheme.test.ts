/**
 * The theme sets the CSS `color-scheme`, so the browser's own parts — scrollbars, checkboxes,
 * radios, select arrows — follow it. The pages' meta says "light dark", which follows the OS,
 * not `?theme=`: in Firefox with ?theme=dark the frame list's and the detail pane's scrollbars
 * were bright white (computed color-scheme 'normal'); the dark theme also colours them, since
 * headless Firefox keeps white tracks under color-scheme: dark. Checked in Chromium and Firefox ESR on
 * index.html and panel.html, light and dark, on the app and on the frame list (a scroller).
 * Needs dist/app, /usr/bin/chromium and /usr/bin/firefox-esr; fails (never skips) without them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser as ChromiumBrowser } from 'playwright-core';
import type { Browser as FirefoxBrowser } from 'puppeteer-core';
import { startDemoServer, type DemoServer } from '../demo-server/server.js';
import { APP_DIR, checkPrerequisites, launchChromium } from './support/env.js';
import { requireBrowser } from './support/ext-env.js';
import { launchFirefox } from './support/ext-firefox.js';

let chromium: ChromiumBrowser;
let firefox: FirefoxBrowser;
let server: DemoServer;

beforeAll(async () => {
  checkPrerequisites();
  requireBrowser('firefox');
  // One browser at a time is enough here; Firefox starts after Chromium's tests (below).
  [chromium, server] = await Promise.all([
    launchChromium(),
    startDemoServer({ port: 0, staticDir: APP_DIR, messagesPerSecond: 5, largeEvery: 0, seed: 3, malformedChance: 0 }),
  ]);
}, 60_000);

afterAll(async () => {
  await chromium?.close();
  await firefox?.close();
  await server?.close();
});

const READ_SCHEMES = `(() => ({
  app: getComputedStyle(document.querySelector('[data-testid=app]')).colorScheme,
  list: getComputedStyle(document.querySelector('[data-testid=frame-list]')).colorScheme,
  scrollbars: getComputedStyle(document.querySelector('[data-testid=frame-list]')).scrollbarColor,
}))()`;
// Dark: the theme's thumb on its track (Firefox's headless look ignores color-scheme for them);
// light: the browser's own.
const SCROLLBARS = { light: 'auto', dark: 'rgb(95, 99, 104) rgb(41, 42, 45)' };
const READY = `!!document.querySelector('[data-testid=app]') && !!document.querySelector('[data-testid=frame-list]')`;

const cases = [
  { page: 'index.html', theme: 'light' },
  { page: 'index.html', theme: 'dark' },
  { page: 'panel.html', theme: 'light' },
  { page: 'panel.html', theme: 'dark' },
] as const;

describe('the theme sets color-scheme in Chromium', () => {
  for (const { page: name, theme } of cases) {
    it(`${name}?theme=${theme}: color-scheme ${theme} on the app and the frame list, and its scrollbar colours`, async () => {
      // The OS preference is the opposite of the theme, so the meta's "light dark" cannot pass for it.
      const page = await chromium.newPage({
        viewport: { width: 900, height: 700 },
        colorScheme: theme === 'dark' ? 'light' : 'dark',
      });
      await page.goto(new URL(`${name}?theme=${theme}`, server.httpUrl).href);
      await page.waitForFunction(READY);
      expect(await page.evaluate(READ_SCHEMES)).toEqual({ app: theme, list: theme, scrollbars: SCROLLBARS[theme] });
      await page.close();
    });
  }
});

describe('the theme sets color-scheme in Firefox', () => {
  beforeAll(async () => {
    await chromium.close();
    firefox = await launchFirefox();
  }, 60_000);

  for (const { page: name, theme } of cases) {
    it(`${name}?theme=${theme}: color-scheme ${theme} on the app and the frame list, and its scrollbar colours`, async () => {
      const page = await firefox.newPage();
      await page.goto(new URL(`${name}?theme=${theme}`, server.httpUrl).href);
      await page.waitForFunction(READY, { timeout: 15_000 });
      expect(await page.evaluate(READ_SCHEMES)).toEqual({ app: theme, list: theme, scrollbars: SCROLLBARS[theme] });
      await page.close();
    });
  }
});
