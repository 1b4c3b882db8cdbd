/**
 * The Schemas dialog in a real layout (Chromium): it floats below its button instead of
 * growing the toolbar, stays inside the window at 900×700 and 1440×900, and its paste field
 * is a column (name, then the source, then Add). Escape closes it. A broken .proto pasted
 * after the demo's two good ones is left out: new frames keep being read with the good ones.
 * Needs dist/app (npm run build:app) and /usr/bin/chromium; fails, never skips, without them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { DemoServer } from '../demo-server/server.js';
import { PROTOBUF_PATH } from '../demo-server/streams/protobuf-schema.js';
import { artifactPath } from './support/env.js';
import { closeDemoAndChromium, startDemoAndChromium } from './support/demo-chromium.js';
import { demoProtoFiles } from './support/demo-proto.js';

let browser: Browser;
let server: DemoServer;

beforeAll(async () => {
  ({ browser, server } = await startDemoAndChromium({ messagesPerSecond: 20, largeEvery: 0, seed: 5 }));
}, 30_000);

afterAll(() => closeDemoAndChromium(browser, server));

describe('the Schemas dialog', () => {
  for (const [width, height, theme] of [
    [900, 700, 'dark'],
    [1440, 900, 'light'],
  ] as const) {
    it(`at ${width}×${height} it does not reflow the toolbar and stays in the window`, async () => {
      const page = await browser.newPage({ viewport: { width, height }, colorScheme: theme });
      const wsUrl = server.wsUrl.replace(/\/demo$/, PROTOBUF_PATH);
      await page.goto(new URL(`index.html?connect=${encodeURIComponent(wsUrl)}`, server.httpUrl).href);
      await page.locator('[data-testid=frame-row]').first().waitFor({ timeout: 10_000 });
      const toolbar = page.locator('.ws-toolbar').filter({ has: page.getByTestId('schemas-button') });
      const before = (await toolbar.boundingBox())!;
      const exportBefore = (await page.getByTestId('export-capture').boundingBox())!;

      await page.getByTestId('schemas-button').click();
      const dialog = page.getByRole('dialog', { name: 'Protobuf schemas' });
      await dialog.waitFor();
      const after = (await toolbar.boundingBox())!;
      expect(after.height).toBe(before.height);
      expect((await page.getByTestId('export-capture').boundingBox())!.y).toBe(exportBefore.y);
      const box = (await dialog.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      const button = (await page.getByTestId('schemas-button').boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(button.y + button.height); // below its button, over the list
      expect(box.y + box.height).toBeLessThanOrEqual(height);
      expect(await dialog.getByRole('heading', { name: 'Protobuf schemas' }).isVisible()).toBe(true);
      expect(await dialog.getByRole('button', { name: 'Close' }).isVisible()).toBe(true);

      // Paste: the name field, then the source below it, then Add below that.
      const name = (await page.getByLabel('File name').boundingBox())!;
      const source = (await page.getByLabel('Proto source').boundingBox())!;
      const add = (await dialog.getByRole('button', { name: 'Add' }).boundingBox())!;
      expect(source.y).toBeGreaterThanOrEqual(name.y + name.height);
      expect(add.y).toBeGreaterThanOrEqual(source.y + source.height);
      expect(Math.abs(source.x - name.x)).toBeLessThan(2);
      await page.screenshot({ path: artifactPath(`schemas-dialog-${width}-${theme}.png`) });

      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.count()).toBe(0);
      await page.close();
    }, 30_000);
  }

  it('a broken .proto added to the good ones is marked and left out; new rows keep their field names', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' });
    const wsUrl = server.wsUrl.replace(/\/demo$/, PROTOBUF_PATH);
    await page.goto(new URL(`index.html?connect=${encodeURIComponent(wsUrl)}`, server.httpUrl).href);
    await page.locator('[data-testid=frame-row]').first().waitFor({ timeout: 10_000 });
    await page.getByTestId('schemas-button').click();
    const files = demoProtoFiles();
    await page.getByTestId('schema-file-input').setInputFiles(files);
    await page
      .getByLabel(/Message type for/)
      .first()
      .waitFor();
    await page.getByLabel('File name').fill('bad.proto');
    await page.getByLabel('Proto source').fill('syntax = "proto3";\nmessage Foo { int32 a = 1 }');
    await page.getByRole('button', { name: 'Add' }).click();
    await expect
      .poll(() => page.getByTestId('schema-error').textContent(), { timeout: 5000 })
      .toMatch(/^1 of 3 files left out .*bad\.proto: illegal token '\}', ';' expected \(line 2\)/);
    expect(await page.getByTestId('schemas-button').textContent()).toBe('Schemas (3, 1 not loaded)');
    expect(await page.getByLabel(/Message type for/).count()).toBeGreaterThan(0);
    await page.screenshot({ path: artifactPath('schemas-good-plus-bad-1440-light.png') });
    // Frames arriving now are still read with envelope.proto + trade.proto.
    const count = await page.locator('[data-testid=frame-row]').count();
    await expect
      .poll(() => page.locator('[data-testid=frame-row]').count(), { timeout: 10_000 })
      .toBeGreaterThan(count + 3);
    const last = (await page.locator('[data-testid=frame-row]').last().textContent()) ?? '';
    expect(last).toMatch(/\{seq: \d+, sent_at: /);
    await page.close();
  }, 30_000);
});
