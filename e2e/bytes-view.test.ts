/**
 * The Bytes view in Chromium: a users page pasted as CBOR (a link with the frame in its
 * hash), the Bytes tab's breakdown, keys, schema estimate and cost by field, the tree's
 * share columns; screenshots in e2e/artifacts/ (light and dark). Needs dist/app and
 * /usr/bin/chromium; fails, never skips, without them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import type { DemoServer } from '../demo-server/server.js';
import { JsonPackExtension } from '@jsonjoy.com/json-pack/lib/JsonPackExtension.js';
import { artifactPath } from './support/env.js';
import { closeDemoAndChromium, startDemoAndChromium } from './support/demo-chromium.js';
import { range, selectedHexOffsets, treeRows } from './support/page.js';

let browser: Browser;
let server: DemoServer;

beforeAll(async () => {
  ({ browser, server } = await startDemoAndChromium({ messagesPerSecond: 1, largeEvery: 0, seed: 5 }));
}, 30_000);

afterAll(() => closeDemoAndChromium(browser, server));

/** 200 users: the avatar hashes are most of the frame, the keys a good part of the rest. */
function usersPage(): Uint8Array {
  const hex = (i: number) => ((i * 2654435761) >>> 0).toString(16).padStart(8, '0');
  const users = Array.from({ length: 200 }, (_, i) => ({
    id: i + 1,
    name: `user ${i + 1}`,
    active: i % 3 !== 0,
    avatarHash: hex(i).repeat(5),
  }));
  return new CborEncoder().encode({ type: 'users.page', page: 1, users });
}

describe('Bytes view', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`shows where the bytes go and the cost by field (${theme})`, async () => {
      const data = usersPage();
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: theme });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      await page.goto(
        new URL(`paste.html?theme=${theme}#b64=${Buffer.from(data).toString('base64url')}`, server.httpUrl).href,
      );
      await page.locator('[data-testid=tree-row][aria-level="1"]').waitFor();

      // The tree: % of parent and % of frame are text in every row, no hover needed.
      const usersRow = page.locator('[data-testid=tree-row][data-path="$.users"]');
      await expect.poll(async () => usersRow.locator('[data-testid=share-frame]').textContent()).toMatch(/^\d+%$/);

      // Open users[0]: its fields' bars are relative to the record, not empty.
      await usersRow.locator('.ws-tree-toggle').dispatchEvent('mousedown');
      const first = page.locator('[data-testid=tree-row][data-path="$.users[0]"]');
      await first.waitFor();
      await first.locator('.ws-tree-toggle').dispatchEvent('mousedown');
      const hashRow = page.locator('[data-testid=tree-row][data-path="$.users[0].avatarHash"]');
      await hashRow.waitFor();
      expect(
        Number((await hashRow.locator('[data-testid=share-parent]').textContent())!.replace('%', '')),
      ).toBeGreaterThan(50);
      expect(await hashRow.locator('[data-testid=share-frame]').textContent()).toMatch(/^0\.\d+%$/);
      await page.screenshot({ path: artifactPath(`bytes-tree-shares-${theme}.png`) });

      await page.getByTestId('tab-bytes').click();
      const fields = page.getByTestId('bytes-fields');
      await fields.waitFor({ timeout: 10_000 });

      // The breakdown's parts add up to the frame.
      const parts = await page
        .getByTestId('bytes-breakdown-row')
        .evaluateAll((rows) =>
          rows.map((r) => Number(r.querySelectorAll('td')[1]!.textContent!.replace(/[^\d]/g, ''))),
        );
      expect(parts.reduce((a, b) => a + b, 0)).toBe(data.length);
      expect(await page.getByTestId('bytes-schema').textContent()).toMatch(/saves [\d,]+ B/);

      // Cost by field: avatarHash across all 200 users, the heaviest leaf field.
      const hash = page.locator('[data-testid=bytes-field-row][data-pattern="$.users[*].avatarHash"]');
      const cells = await hash.locator('td').allTextContents();
      expect(cells[1]).toBe('200');
      expect(Number(cells[6]!.replace('%', ''))).toBeGreaterThan(40);
      await page.getByTestId('bytes-fields-containers').uncheck();
      expect(await page.getByTestId('bytes-field-row').first().getAttribute('data-pattern')).toBe(
        '$.users[*].avatarHash',
      );
      await page.getByTestId('bytes-sort-count').click();
      expect(await page.getByTestId('bytes-field-row').first().locator('td').nth(1).textContent()).toBe('200');

      await page.screenshot({ path: artifactPath(`bytes-view-${theme}.png`), fullPage: false });
      await page.close();
      expect(errors, 'errors in the page').toEqual([]);
    });
  }

  it('reads known CBOR tags in the tree, and opens tag 24 into a nested tree linked to the hex', async () => {
    const enc = new CborEncoder();
    const data = enc.encode(
      new JsonPackExtension(55799, {
        memo: undefined,
        postedAt: new JsonPackExtension(1, 1_767_225_600),
        account: new JsonPackExtension(37, new Uint8Array(16).fill(0xab)),
        wrapped: new JsonPackExtension(24, enc.encode({ a: [1, 'xy'] })),
      }),
    );
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(new URL(`paste.html#b64=${Buffer.from(data).toString('base64url')}`, server.httpUrl).href);
    await page.locator('[data-testid=tree-row][aria-level="1"]').waitFor();
    // Key, head and value are columns of their own: the whole row's text.
    const text = (path: string) => page.locator(`[data-testid=tree-row][data-path="${path}"]`).textContent();
    const open = async (path: string) => {
      const row = page.locator(`[data-testid=tree-row][data-path="${path}"]`);
      await row.waitFor();
      await row.locator('.ws-tree-toggle').dispatchEvent('mousedown');
    };
    await open('$<tag 55799>');
    await page.locator('[data-testid=tree-row][data-path="$<tag 55799>.memo"]').waitFor();
    expect(await text('$<tag 55799>.memo')).not.toMatch(/undefined\s*undefined/);
    expect(await text('$<tag 55799>.postedAt')).toContain('date 2026-01-01T00:00:00Z');
    expect(await text('$<tag 55799>.account')).toContain('UUID abababab-abab-abab-abab-abababababab');
    await open('$<tag 55799>.wrapped');
    await open('$<tag 55799>.wrapped<tag 24>');
    await open('$<tag 55799>.wrapped<tag 24><embedded>');
    await open('$<tag 55799>.wrapped<tag 24><embedded>.a');
    const xy = page.locator('[data-testid=tree-row][data-path="$<tag 55799>.wrapped<tag 24><embedded>.a[1]"]');
    await xy.waitFor();
    expect(await xy.textContent()).toContain('"xy"');
    // Selecting the embedded string highlights exactly its bytes in the frame.
    await xy.dispatchEvent('mousedown');
    const row = (await treeRows(page)).find((r) => r.path === '$<tag 55799>.wrapped<tag 24><embedded>.a[1]')!;
    expect(Buffer.from(data.subarray(row.start, row.end)).toString('hex')).toBe('627879');
    await expect.poll(() => selectedHexOffsets(page)).toEqual(range(row.start, row.end));
    await page.screenshot({ path: artifactPath('bytes-known-tags.png') });
    await page.close();
    expect(errors, 'errors in the page').toEqual([]);
  });
});
