/**
 * `npm run dev`: the inspector served from source by Vite's dev server (React in development,
 * under StrictMode), fed by the demo server through the dev server's /demo proxy. Frames must
 * arrive in the list and open in the detail, with no uncaught error in the page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import { startDemoServer, type DemoServer } from '../demo-server/server.js';
import { CHROMIUM, CHROMIUM_ARGS, REPO, artifactPath } from './support/env.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

let browser: Browser;
let demo: DemoServer;
let dev: ViteDevServer;
/** Vite's dependency cache for this run (not node_modules/.vite, which other checkouts may share). */
const cacheDir = mkdtempSync(path.join(tmpdir(), 'wirescope-vite-dev-'));

beforeAll(async () => {
  [browser, demo] = await Promise.all([
    // No built app needed: the dev server serves the source.
    chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS }),
    startDemoServer({ port: 0, messagesPerSecond: 30, largeEvery: 0, seed: 11 }),
  ]);
  process.env.DEMO_PORT = String(demo.port);
  dev = await createServer({
    configFile: path.join(REPO, 'inspector-app/vite.config.ts'),
    cacheDir,
    server: { port: 0, host: '127.0.0.1' },
    logLevel: 'error',
  });
  await dev.listen();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await dev?.close();
  await demo?.close();
  rmSync(cacheDir, { recursive: true, force: true });
});

describe('the dev server (npm run dev)', () => {
  it('serves the inspector from source; frames from the demo server arrive through its /demo proxy', async () => {
    const address = dev.httpServer?.address();
    if (!address || typeof address === 'string') throw new Error('the dev server has no port');
    const origin = `http://localhost:${address.port}`;
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const proxied = `ws://localhost:${address.port}/demo`;
    // A cold dev server transforms every module on this first load: generous, on a busy machine.
    await page.goto(`${origin}/index.html?connect=${encodeURIComponent(proxied)}`, { timeout: 180_000 });
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="frame-row"]').length >= 5, undefined, {
      timeout: 60_000,
    });
    // One socket for the ?connect= URL, though StrictMode ran the app's effects twice.
    expect(await page.getByRole('button', { name: /^Close localhost/ }).count()).toBe(1);
    // React in development (the dev server's build): StrictMode mounts effects twice there.
    expect(await page.evaluate(() => document.querySelector('script[src*="@vite/client"]') !== null)).toBe(true);
    await page.getByTestId('frame-row').first().dispatchEvent('mousedown');
    await page.getByTestId('frame-detail').waitFor({ timeout: 30_000 });
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="tree-row"]').length >= 1, undefined, {
      timeout: 30_000,
    });
    await page.screenshot({ path: artifactPath('dev-server-1440x900.png') });
    await page.close();
    expect(errors, 'uncaught errors in the page').toEqual([]);
  }, 360_000);
});
