/**
 * axe-core with every rule it has (WCAG 2.x A/AA and best practices) on all three pages in
 * both themes, in Chromium: 0 violations of any impact. Views: the list, a frame's Tree with
 * a row, a search match and largest fields, Hex (raw and annotated), Text, Bytes, Compare, Diff,
 * CRDT, a malformed frame and an unknown one; the frame editor (the inspector's Compose with bytes and
 * with an error, the paste page's edit). Text contrast ≥ 4.5:1 is among the rules (the
 * states that once measured below 4.5: hex offsets and status, the active tab, muted text and
 * keys on the selected row), as is the check that a control's name contains its visible text.
 * Needs dist/app and /usr/bin/chromium.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { DemoServer } from '../demo-server/server.js';
import { artifactPath } from './support/env.js';
import { closeDemoAndChromium, startDemoAndChromium } from './support/demo-chromium.js';
import {
  emitToPanel,
  panelFrames,
  selectFrameOf,
  selectChildRow,
  selectFrame,
  waitForRows,
} from './support/tour-pages.js';
import { axeAudit } from './support/axe.js';
import { demoProtoFiles } from './support/demo-proto.js';
import { PROTOBUF_PATH } from '../demo-server/streams/protobuf-schema.js';
import { watchPage } from './support/watch-page.js';

let browser: Browser;
let server: DemoServer;

beforeAll(async () => {
  ({ browser, server } = await startDemoAndChromium({
    messagesPerSecond: 40,
    largeEvery: 0,
    seed: 5,
    malformedChance: 0,
  }));
}, 30_000);

afterAll(() => closeDemoAndChromium(browser, server));

const themes = ['light', 'dark'] as const;

async function open(path: string, theme: 'light' | 'dark'): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: theme });
  const { problems } = watchPage(page);
  await page.goto(new URL(path, server.httpUrl).href);
  return { page, problems };
}

async function expectReadable(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: artifactPath(`contrast-${name}.png`) });
  const { violations, checked } = await axeAudit(page);
  expect(checked, `${name}: elements axe checked`).toBeGreaterThan(20);
  // Soft: one run reports the findings of every view, not only the first.
  expect.soft(violations, `${name}: axe findings`).toEqual([]);
}

describe('axe-core: no violations on any view', () => {
  for (const theme of themes) {
    it(`web inspector, ${theme}: list, selected frame and row, hex range, tabs, search match`, async () => {
      const { page, problems } = await open(`index.html?connect=${encodeURIComponent(server.wsUrl)}`, theme);
      await waitForRows(page, 20);
      await page.getByTestId('pause-button').click();
      await expectReadable(page, `inspector-list-${theme}`);
      // Compose: the shared frame editor on a CBOR map written as EDN.
      await page.getByTestId('compose-toggle').click();
      await page.getByTestId('edit-format').selectOption('edn');
      await page.getByTestId('edit-text').fill('{"type": "hello", "n": [1, 2.5]}');
      await page.getByTestId('edit-bytes').waitFor();
      await expectReadable(page, `inspector-compose-${theme}`);
      await page.getByTestId('edit-text').fill('{"type": ');
      await page.getByTestId('edit-error').waitFor();
      await expectReadable(page, `inspector-compose-error-${theme}`);
      await page.getByTestId('compose-toggle').click();
      await selectFrameOf(page, 'cbor');
      await selectChildRow(page);
      const label =
        (await page.locator('[data-testid=tree-row][aria-level="2"] .ws-tree-key').first().textContent()) ?? '';
      await page.getByTestId('tree-search').fill(label.slice(0, 3));
      await page
        .getByTestId('tree-search-count')
        .filter({ hasText: /of|no match/ })
        .waitFor();
      await page.getByTestId('largest-toggle').check();
      await page.getByTestId('largest-row').first().waitFor();
      await expectReadable(page, `inspector-${theme}`);
      await page.getByTestId('tab-text').click();
      await page.getByTestId('text-view').waitFor();
      await expectReadable(page, `inspector-text-${theme}`);
      await page.getByTestId('tab-hex').click();
      await page.getByTestId('hex-view').waitFor();
      await expectReadable(page, `inspector-hex-${theme}`);
      await page.getByTestId('hex-mode-annotated').click();
      await page.getByTestId('annotated-hex').waitFor();
      await expectReadable(page, `inspector-annotated-${theme}`);
      // The other tabs: where the bytes go, a comparison run, a diff with another frame, a json-joy frame's CRDT tab.
      await page.getByTestId('tab-bytes').click();
      await page.getByTestId('bytes-tab').waitFor();
      await page.waitForFunction(
        () => !/Measuring where the bytes go/.test(document.querySelector('[role=tabpanel]')?.textContent ?? ''),
        undefined,
        { timeout: 15_000 },
      );
      await expectReadable(page, `inspector-bytes-${theme}`);
      await page.getByTestId('tab-compare').click();
      await page.locator('[data-testid=compare-tab] .ws-primary').click();
      await page.waitForFunction(
        () =>
          !document.querySelector('[data-testid=compare-progress]') &&
          !!document.querySelector('[data-testid=compare-tab] table'),
        undefined,
        { timeout: 60_000, polling: 200 },
      );
      await expectReadable(page, `inspector-compare-${theme}`);
      await page.getByTestId('tab-diff').click();
      const picker = page.locator('[data-testid=diff-tab] select');
      await picker.selectOption((await picker.locator('option').nth(1).getAttribute('value'))!);
      await page.locator('[data-testid=diff-totals], [data-testid=diff-table]').first().waitFor();
      await expectReadable(page, `inspector-diff-${theme}`);
      // The chosen tab stays while stepping through frames: back to the tree first.
      await page.getByTestId('tab-tree').click();
      await selectFrameOf(page, 'crdt-model');
      await page.getByTestId('tab-crdt').click();
      await page.getByTestId('crdt-kind').waitFor();
      await expectReadable(page, `inspector-crdt-${theme}`);
      await page.close();
      expect(problems).toEqual([]);
    }, 240_000);

    it(`web inspector, ${theme}: a Protobuf frame the loaded schema fits, then one it does not`, async () => {
      const wsUrl = server.wsUrl.replace(/\/demo$/, PROTOBUF_PATH);
      const { page, problems } = await open(`index.html?connect=${encodeURIComponent(wsUrl)}`, theme);
      await waitForRows(page, 3);
      await page.getByTestId('pause-button').click();
      await page.getByTestId('schemas-button').click();
      await page.getByTestId('schema-file-input').setInputFiles(demoProtoFiles());
      await page.getByTestId('schema-reread').waitFor();
      await page.getByTestId('schemas-button').click();
      await page.locator('[data-testid=frame-row]').first().dispatchEvent('mousedown');
      await page.locator('[data-testid=schema-reading][data-fits=true]').waitFor();
      expect(await page.locator('[data-testid=schema-reading]').getAttribute('class')).toBe('ws-banner-note');
      await expectReadable(page, `inspector-protobuf-fits-${theme}`);
      // The connection's frames read as a type that is not theirs: the reading is a warning.
      await page.getByTestId('schemas-button').click();
      await page.getByRole('combobox', { name: /^Message type for / }).selectOption('market.v1.Heartbeat');
      await page.getByTestId('schemas-button').click();
      await page.locator('[data-testid=schema-reading][data-fits=false]').waitFor();
      expect(await page.locator('[data-testid=schema-reading]').getAttribute('class')).toBe('ws-banner-warning');
      await expectReadable(page, `inspector-protobuf-misfit-${theme}`);
      await page.close();
      expect(problems).toEqual([]);
    }, 60_000);

    it(`paste page, ${theme}`, async () => {
      const { page, problems } = await open(
        `paste.html?theme=${theme}#hex=${encodeURIComponent('a2 61 61 01 61 62 82 02 03')}`,
        theme,
      );
      await page.locator('[data-testid=tree-row][aria-level="2"]').first().waitFor();
      await selectChildRow(page);
      await expectReadable(page, `paste-${theme}`);
      await page.getByRole('button', { name: 'Edit', exact: true }).click();
      await page.getByTestId('edit-change').waitFor();
      await expectReadable(page, `paste-edit-${theme}`);
      await page.close();
      expect(problems).toEqual([]);
    });

    for (const [what, hex] of [
      ['malformed', '82 01'],
      ['unknown', 'c1 00 ff fe 1c 1d 1e 1f'],
    ] as const)
      it(`paste page, ${theme}: a ${what} frame`, async () => {
        const { page, problems } = await open(`paste.html?theme=${theme}#hex=${encodeURIComponent(hex)}`, theme);
        await page.getByTestId(what === 'unknown' ? 'unknown-banner' : 'frame-detail').waitFor();
        await expectReadable(page, `paste-${what}-${theme}`);
        await page.close();
        expect(problems).toEqual([]);
      });

    it(`panel, ${theme}`, async () => {
      const { page, problems } = await open(`panel.html?theme=${theme}`, theme);
      await emitToPanel(page, panelFrames());
      await waitForRows(page, panelFrames().length);
      await selectFrame(page, 1);
      await selectChildRow(page);
      await expectReadable(page, `panel-${theme}`);
      await page.close();
      expect(problems).toEqual([]);
    });
  }
});
