/**
 * The tree's key column in Chromium: at 1440×900 with the default splitter, a nested
 * node expanded and in-frame search on, the tree's key column shrank to one or two letters
 * (`n…`, `e…`): the indentation ate it. Nested keys must stay readable. Needs dist/app and
 * /usr/bin/chromium; fails, never skips, without them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { DemoServer } from '../demo-server/server.js';
import { artifactPath } from './support/env.js';
import { closeDemoAndChromium, startDemoAndChromium } from './support/demo-chromium.js';

let browser: Browser;
let server: DemoServer;

beforeAll(async () => {
  ({ browser, server } = await startDemoAndChromium({ messagesPerSecond: 20, seed: 5 }));
}, 30_000);

afterAll(() => closeDemoAndChromium(browser, server));

describe('the tree key column with nested rows and in-frame search (1440×900)', () => {
  it('keys of depth-3 rows (users[0].email) are shown whole', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(new URL(`index.html?connect=${encodeURIComponent(server.wsUrl)}`, server.httpUrl).href);
    const row = page.locator('[data-testid=frame-row]', { hasText: 'users.page' }).first();
    await row.waitFor({ timeout: 20_000 });
    await page.getByTestId('pause-button').click();
    const id = await row.getAttribute('data-frame-id');
    await row.dispatchEvent('mousedown');
    await page.locator(`[data-testid=frame-detail][data-frame-id="${id}"]`).waitFor();
    await page.getByTestId('tree-search').fill('email');
    await page.getByTestId('tree-search').press('Enter');
    await page.locator('[data-testid=tree-row][aria-level="4"]').first().waitFor();
    await page.waitForTimeout(300);
    const keys = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('[data-testid=tree-row][aria-level="4"]')].map((el) => {
        const main = el.querySelector('.ws-tree-main')!.getBoundingClientRect();
        const key = el.querySelector('.ws-tree-key')!;
        return {
          key: key.textContent!,
          shown: Math.round(main.right - key.getBoundingClientRect().left),
          needed: Math.round(key.getBoundingClientRect().width),
        };
      }),
    );
    // ...and not by pushing the last columns out of the pane.
    const overflow = await page.evaluate(() => {
      const tree = document.querySelector<HTMLElement>('[data-testid=tree-view]')!;
      const last = document.querySelector('[data-testid=tree-header] > span:last-child')!.getBoundingClientRect();
      return {
        scrolls: tree.scrollWidth > tree.clientWidth,
        lastRight: Math.round(last.right),
        treeRight: Math.round(tree.getBoundingClientRect().left + tree.clientWidth),
      };
    });
    await page.screenshot({ path: artifactPath('tree-key-column.png') });
    await page.close();
    expect(keys.map((k) => k.key)).toContain('email');
    // Keys up to ten letters (`avatarHash`) fit whole; longer ones may end in an ellipsis.
    const cut = keys.filter((k) => k.key.length <= 10 && k.shown < k.needed);
    expect(cut).toEqual([]);
    expect(overflow.scrolls).toBe(false);
    expect(overflow.lastRight).toBeLessThanOrEqual(overflow.treeRight);
  }, 60_000);
});
