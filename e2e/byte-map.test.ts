/**
 * The Bytes tab's treemap in Chromium, on a users.page frame from the demo server: clicking
 * the largest rectangle selects that node in the tree and its bytes in the hex; the picture
 * by field lists `users[*].avatarHash` among its three heaviest fields; the heaviest fields
 * show without scrolling at 1440×900 and 900×700, light and dark (screenshots in
 * e2e/artifacts/bytes-map-*.png). The same component on the paste page. Needs dist/app and
 * /usr/bin/chromium; fails, never skips, without them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import type { DemoServer } from '../demo-server/server.js';
import { artifactPath } from './support/env.js';
import { closeDemoAndChromium, startDemoAndChromium } from './support/demo-chromium.js';
import { fieldOffsets, selectedHexOffsets, treeRows } from './support/page.js';

let browser: Browser;
let server: DemoServer;

beforeAll(async () => {
  ({ browser, server } = await startDemoAndChromium({
    messagesPerSecond: 20,
    largeEvery: 0,
    seed: 7,
    malformedChance: 0,
  }));
}, 30_000);

afterAll(() => closeDemoAndChromium(browser, server));

interface MapRect {
  index: number;
  role: string;
  nodeId: number;
  path: string;
  bytes: number;
  parentOk: boolean;
}

/** The drawn rectangles with their figures, and whether each lies inside the SVG. */
function mapRects(page: Page, by: 'node' | 'field'): Promise<MapRect[]> {
  return page.locator(`[data-testid=bytes-map-${by}] [data-testid=bytes-map-rect]`).evaluateAll((els) => {
    const svg = els[0]?.closest('svg')?.getBoundingClientRect();
    return els.map((e) => {
      const r = e.getBoundingClientRect();
      return {
        index: Number(e.getAttribute('data-index')),
        role: e.getAttribute('data-role') ?? '',
        nodeId: Number(e.getAttribute('data-node-id')),
        path: e.getAttribute('data-path') ?? '',
        bytes: Number(e.getAttribute('data-bytes')),
        parentOk:
          !!svg &&
          r.left >= svg.left - 0.5 &&
          r.top >= svg.top - 0.5 &&
          r.right <= svg.right + 0.5 &&
          r.bottom <= svg.bottom + 0.5,
      };
    });
  });
}

/** The inspector on the demo, paused, filtered to users.page frames; the first one opened. */
async function openUsersPage(viewport: { width: number; height: number }, theme: 'light' | 'dark'): Promise<Page> {
  const page = await browser.newPage({ viewport, colorScheme: theme });
  page.on('pageerror', (e) => {
    throw e;
  });
  await page.goto(new URL(`index.html?connect=${encodeURIComponent(server.wsUrl)}`, server.httpUrl).href);
  await page.getByTestId('filter-input').fill('users.page');
  // The filter applies in the worker: wait for a row it kept, not any first row.
  const row = page.locator('[data-testid=frame-row]', { hasText: 'users.page' }).first();
  await row.waitFor({ timeout: 30_000 });
  await page.getByTestId('pause-button').click();
  await row.dispatchEvent('mousedown');
  await page.locator('[data-testid=tree-row][aria-level="1"]').waitFor();
  await page.getByTestId('tab-bytes').click();
  await page.locator('[data-testid=bytes-map-node] [data-testid=bytes-map-rect]').first().waitFor();
  return page;
}

describe('the Bytes tab treemap', () => {
  it('selects the largest rectangle in the tree and its bytes in the hex; by field, avatarHash is in the top three', async () => {
    const page = await openUsersPage({ width: 1440, height: 900 }, 'light');
    const rects = await mapRects(page, 'node');
    expect(rects.length).toBeGreaterThan(3);
    expect(rects.every((r) => r.parentOk)).toBe(true);
    // The largest rectangle below the root: the users array (its key included).
    const largest = rects
      .filter((r) => r.index > 0 && r.nodeId >= 0 && r.role !== 'own')
      .sort((a, b) => b.bytes - a.bytes)[0];
    expect(largest.path).toBe('$.users');
    // The list's filter ("users.page") seeds the tree search, whose first match is `$.type`: the pick wins.
    // Click it where no child covers it: its top-left corner (border and label strip).
    await page.locator(`[data-testid=bytes-map-rect][data-index="${largest.index}"]`).click({
      position: { x: 3, y: 6 },
    });
    await expect.poll(() => page.getByTestId('tab-tree').getAttribute('aria-selected')).toBe('true');
    const selected = page.locator(`[data-testid=tree-row][data-node-id="${largest.nodeId}"]`);
    await expect.poll(() => selected.getAttribute('aria-selected')).toBe('true');
    const row = (await treeRows(page)).find((r) => r.nodeId === largest.nodeId)!;
    expect(row.path).toBe('$.users');
    // Its key and value bytes in the hex (the hex renders the rows near its viewport).
    const wanted = new Set(fieldOffsets(row));
    await expect
      .poll(async () => {
        const marked = await selectedHexOffsets(page);
        return marked.length > 0 && marked.every((o) => wanted.has(o));
      })
      .toBe(true);
    // From the key's first byte on.
    expect((await selectedHexOffsets(page))[0]).toBe(row.keyStart);

    // The same picture by field across array elements.
    await page.getByTestId('tab-bytes').click();
    await page.getByTestId('bytes-map-by-field').check();
    await page.locator('[data-testid=bytes-map-field] [data-testid=bytes-map-rect]').first().waitFor();
    const fields = (await mapRects(page, 'field'))
      .filter((r) => r.role === 'leaf')
      .sort((a, b) => b.bytes - a.bytes)
      .map((r) => r.path);
    expect(fields.slice(0, 3)).toContain('$.users[*].avatarHash');
    // Numbers on hover, in the status line.
    const hash = page.locator(
      '[data-testid=bytes-map-field] [data-testid=bytes-map-rect][data-path="$.users[*].avatarHash"]',
    );
    await hash.hover();
    await expect
      .poll(() => page.getByTestId('bytes-map-status').textContent())
      .toMatch(/avatarHash \(×[\d,]+\): [\d,]+ B — key [\d,]+ B, head [\d,]+ B, value [\d,]+ B; \d+% of the frame/);
    // From the keyboard: Enter on the focused rectangle opens the tree with the keyboard in it.
    await hash.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('tab-tree').getAttribute('aria-selected')).toBe('true');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null))
      .toBe('tree-view');
    await page.close();
  });

  for (const theme of ['light', 'dark'] as const)
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 900, height: 700 },
    ])
      it(`shows the heaviest fields without scrolling at ${viewport.width}×${viewport.height} (${theme})`, async () => {
        const page = await openUsersPage(viewport, theme);
        const heaviest = page.getByTestId('bytes-heaviest-row');
        await heaviest.first().waitFor();
        const rows = await heaviest.evaluateAll((els) =>
          els
            .slice(0, 3)
            .map((e) => ({ bottom: e.getBoundingClientRect().bottom, pattern: e.getAttribute('data-pattern') })),
        );
        expect(rows).toHaveLength(3);
        for (const r of rows) expect(r.bottom).toBeLessThanOrEqual(viewport.height);
        expect(rows.map((r) => r.pattern)).toContain('$.users[*].avatarHash');
        // Every field's name reads whole (it wraps rather than being cut).
        const cut = await page
          .locator('[data-testid=bytes-heaviest-row] .ws-bytes-heaviest-path')
          .evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth).map((e) => e.textContent));
        expect(cut).toEqual([]);
        // The picture fits its box: no sideways scrolling.
        const fit = await page.getByTestId('bytes-tab').evaluate((el) => el.scrollWidth <= el.clientWidth);
        expect(fit).toBe(true);
        await page.screenshot({ path: artifactPath(`bytes-map-${viewport.width}x${viewport.height}-${theme}.png`) });
        await page.getByTestId('bytes-map-by-field').check();
        await page.locator('[data-testid=bytes-map-field] [data-testid=bytes-map-rect]').first().waitFor();
        await page.screenshot({
          path: artifactPath(`bytes-map-field-${viewport.width}x${viewport.height}-${theme}.png`),
        });
        await page.close();
      });

  it('draws the same picture on the paste page, and copies it as SVG', async () => {
    const users = Array.from({ length: 40 }, (_, i) => ({
      id: i,
      email: `u${i}@example.com`,
      avatarHash: 'ab'.repeat(16),
    }));
    const data = new CborEncoder().encode({ type: 'users.page', users });
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.httpUrl });
    await page.goto(new URL(`paste.html#b64=${Buffer.from(data).toString('base64url')}`, server.httpUrl).href);
    await page.locator('[data-testid=tree-row][aria-level="1"]').waitFor();
    await page.getByTestId('tab-bytes').click();
    await page.locator('[data-testid=bytes-map-node] [data-testid=bytes-map-rect]').first().waitFor();
    const rects = await mapRects(page, 'node');
    expect(rects.find((r) => r.path === '$.users[0].avatarHash')).toBeDefined();
    await page.getByTestId('bytes-map-copy').click();
    const svg = await page.evaluate(() => navigator.clipboard.readText());
    expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg).toContain('avatarHash');
    // Colours resolved from the page's variables: the copy stands alone.
    expect(svg).not.toContain('var(--');
    expect(svg).toMatch(/fill="rgb\(/);
    await page.close();
  });
});
