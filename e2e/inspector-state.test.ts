/**
 * The Text tab mounted again in Chromium (Monaco's editor created a second
 * time) on all three pages with no console error and no failed request. Needs dist/app and
 * /usr/bin/chromium; fails, never skips, without them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { DemoServer } from '../demo-server/server.js';
import { artifactPath } from './support/env.js';
import { closeDemoAndChromium, startDemoAndChromium } from './support/demo-chromium.js';

let browser: Browser;
let server: DemoServer;

beforeAll(async () => {
  ({ browser, server } = await startDemoAndChromium({ messagesPerSecond: 20, largeEvery: 0, seed: 5 }));
}, 30_000);

afterAll(() => closeDemoAndChromium(browser, server));

interface Watched {
  readonly page: Page;
  /** Console errors, uncaught exceptions and failed requests, as they happen. */
  readonly problems: string[];
}

async function open(path: string, theme: 'light' | 'dark' = 'light'): Promise<Watched> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: theme });
  const problems: string[] = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
  page.on('response', (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.url()}`));
  await page.goto(new URL(path, server.httpUrl).href);
  return { page, problems };
}

const monacoShown = (page: Page) =>
  page.locator('[data-testid=text-view][data-editor=monaco] .monaco-editor').waitFor({ timeout: 20_000 });
const tab = (page: Page, name: string) => page.getByTestId(`tab-${name}`).click();
async function selectFrame(page: Page, frameId: string): Promise<void> {
  await page.locator(`[data-testid=frame-row][data-frame-id="${frameId}"]`).dispatchEvent('mousedown');
  await page.locator(`[data-testid=frame-detail][data-frame-id="${frameId}"]`).waitFor();
}

/** Text, Tree, the next frame (arrow key; none on the paste page), Text again: Monaco's editor is created twice. */
async function remountText(page: Page, firstFrame: string | null): Promise<void> {
  if (firstFrame) await selectFrame(page, firstFrame);
  await tab(page, 'text');
  await monacoShown(page);
  await tab(page, 'tree');
  if (firstFrame) {
    await page.getByTestId('frame-list').press('ArrowDown');
    await page.locator(`[data-testid=frame-detail][data-frame-id="${Number(firstFrame) + 1}"]`).waitFor();
  }
  await tab(page, 'text');
  await monacoShown(page);
  // Errors from the editor's start-up arrive a moment later.
  await page.waitForTimeout(500);
}

describe('the Text tab mounted again', () => {
  it('the web inspector: no console error, no failed request', async () => {
    const { page, problems } = await open(`index.html?connect=${encodeURIComponent(server.wsUrl)}`);
    await page.locator('[data-testid=frame-row][data-frame-id="3"]').waitFor({ timeout: 15_000 });
    // Pause so the list stops following the tail: the first row stays in view.
    await page.getByTestId('pause-button').click();
    await page.getByTestId('frame-list').press('Home');
    await remountText(page, '1');
    await page.screenshot({ path: artifactPath('state-inspector-text-remount.png') });
    await page.close();
    expect(problems).toEqual([]);
  });

  it('the paste page: no console error, no failed request', async () => {
    const { page, problems } = await open('paste.html#hex=a2616101616282 0203'.replace(' ', ''));
    await page.locator('[data-testid=frame-detail]').waitFor();
    await remountText(page, null);
    await page.close();
    expect(problems).toEqual([]);
  });

  it('the panel: no console error, no failed request', async () => {
    const { page, problems } = await open('panel.html');
    await page.evaluate(() => {
      const host = (window as unknown as { wirescopeTestHost: { emit(m: unknown): void } }).wirescopeTestHost;
      const frame = (bytes: number[]) => ({
        connectionId: 'p1',
        direction: 'received',
        time: Date.now(),
        opcode: 'binary',
        data: new Uint8Array(bytes),
      });
      host.emit({
        type: 'connection-opened',
        connectionId: 'p1',
        url: 'ws://page.test/',
        protocol: '',
        extensions: '',
        time: Date.now(),
      });
      host.emit({ type: 'frames', frames: [frame([0xa1, 0x61, 0x61, 0x01]), frame([0x82, 0x01, 0x02])] });
    });
    await page.locator('[data-testid=frame-row][data-frame-id="2"]').waitFor();
    await remountText(page, '1');
    await page.close();
    expect(problems).toEqual([]);
  });
});
