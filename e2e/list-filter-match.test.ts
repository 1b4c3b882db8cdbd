/**
 * A frame opened from a filtered list, in Chromium (demo traffic, orders filtered by `ORD-`):
 * the tree opens on the filter's match and marks it, in view, but the frame stays selected, so
 * Compare compares the whole frame and Expand all opens all of it; clearing the list filter
 * clears the frame search and its mark. (The match was selected: Compare offered
 * "Run comparison of $.orderId", a 12-byte string, and Expand all did nothing on that leaf.)
 * 1440×900 and 900×700, light and dark. Needs dist/app and /usr/bin/chromium; fails, never skips.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { DemoServer } from '../demo-server/server.js';
import { artifactPath } from './support/env.js';
import { closeDemoAndChromium, startDemoAndChromium } from './support/demo-chromium.js';

let browser: Browser;
let server: DemoServer;

beforeAll(async () => {
  ({ browser, server } = await startDemoAndChromium({
    messagesPerSecond: 30,
    largeEvery: 0,
    malformedChance: 0,
    seed: 5,
  }));
}, 30_000);

afterAll(() => closeDemoAndChromium(browser, server));

const CASES = [
  { width: 1440, height: 900, theme: 'light' },
  { width: 1440, height: 900, theme: 'dark' },
  { width: 900, height: 700, theme: 'light' },
  { width: 900, height: 700, theme: 'dark' },
] as const;

interface Opened {
  readonly searchText: string;
  readonly selected: (string | null)[];
  readonly marked: { path: string | null; value: string; inView: boolean }[];
}

/** The tree's selected rows, and the marked match with whether it is inside the tree's visible box. */
function readTree(page: Page): Promise<Opened> {
  return page.evaluate(`(() => {
    const tree = document.querySelector('[data-testid=tree-view]');
    const box = tree.getBoundingClientRect();
    const rows = [...document.querySelectorAll('[data-testid=tree-row]')];
    return {
      searchText: document.querySelector('[data-testid=tree-search]').value,
      selected: rows.filter((r) => r.getAttribute('aria-selected') === 'true').map((r) => r.getAttribute('data-path')),
      marked: rows.filter((r) => r.hasAttribute('data-match')).map((r) => {
        const b = r.getBoundingClientRect();
        return {
          path: r.getAttribute('data-path'),
          value: r.querySelector('.ws-tree-value').textContent,
          inView: b.top >= box.top && b.bottom <= box.top + tree.clientHeight + 1,
        };
      }),
    };
  })()`);
}

describe('a frame opened from a filtered list', () => {
  for (const at of CASES) {
    it(`${at.width}×${at.height} ${at.theme}: the match is shown and marked, the frame's actions act on the frame, a cleared filter clears the search`, async () => {
      const page = await browser.newPage({ viewport: { width: at.width, height: at.height }, colorScheme: at.theme });
      const label = `list-filter-match-${at.width}x${at.height}-${at.theme}`;
      await page.goto(new URL(`index.html?connect=${encodeURIComponent(server.wsUrl)}`, server.httpUrl).href);
      await page.getByTestId('filter-input').fill('ORD-');
      // The filter applies in the worker: wait for a row it kept.
      const row = page.locator('[data-testid=frame-row]', { hasText: 'order.created' }).first();
      await row.waitFor({ timeout: 30_000 });
      await page.getByTestId('pause-button').click();
      await row.dispatchEvent('mousedown');
      await page.locator('[data-testid=tree-row][aria-level="1"]').first().waitFor();
      await page.getByTestId('tree-search-count').filter({ hasText: / of / }).waitFor();
      await page.waitForTimeout(300);
      const opened = await readTree(page);
      await page.screenshot({ path: artifactPath(`${label}-opened.png`) });

      await page.getByTestId('filter-input').fill('');
      // The count empties with the box (an empty span: waited for by its text, not its visibility).
      await expect.poll(() => page.getByTestId('tree-search-count').textContent()).toBe('');
      await page.waitForTimeout(300);
      const cleared = await readTree(page);
      await page.screenshot({ path: artifactPath(`${label}-cleared.png`) });

      const rowsBefore = await page.getByTestId('tree-row').count();
      await page.getByTestId('expand-all').click();
      await page.locator('[data-testid=tree-row][data-path="$.items[0].sku"]').waitFor({ timeout: 5000 });
      const rowsAfter = await page.getByTestId('tree-row').count();
      await page.getByTestId('tab-compare').click();
      const run = page.getByRole('button', { name: /^Run comparison/ });
      await run.waitFor();
      const runLabel = await run.textContent();
      await page.screenshot({ path: artifactPath(`${label}-compare.png`) });
      await page.close();

      expect(opened.searchText).toBe('ORD-');
      expect(opened.selected, 'the frame stays selected').toEqual(['$']);
      expect(opened.marked).toHaveLength(1);
      expect(opened.marked[0]!.value, 'the marked row holds the match').toMatch(/ORD-\d+/);
      expect(opened.marked[0]!.inView, 'the marked row is in view').toBe(true);
      expect(cleared).toEqual({ searchText: '', selected: ['$'], marked: [] });
      expect(rowsAfter, 'Expand all opened the frame').toBeGreaterThan(rowsBefore);
      expect(runLabel).toBe('Run comparison of the whole frame');
    }, 60_000);
  }
});
