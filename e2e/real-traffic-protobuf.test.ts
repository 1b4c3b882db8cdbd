/**
 * Protobuf with and without a schema, in Chromium: the demo server's `/demo/protobuf` stream
 * (market.v1.Envelope frames, demo-server/protobuf/*.proto). Without the schema a frame shows
 * the raw wire tree (fields by number) and a field reads as bytes in one click ("read as");
 * after loading both .proto files through the Schemas
 * dialog it shows field names (in the open frame, and in the preview of rows listed before the
 * schema came), and a named field highlights exactly its bytes in the hex view.
 * Needs dist/app (npm run build:app) and /usr/bin/chromium; fails, never skips, without them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { DemoServer } from '../demo-server/server.js';
import { PROTOBUF_PATH } from '../demo-server/streams/protobuf-schema.js';
import { artifactPath } from './support/env.js';
import { closeDemoAndChromium, startDemoAndChromium } from './support/demo-chromium.js';
import { demoProtoFiles } from './support/demo-proto.js';
import { fieldOffsets, pageProblems, selectedHexOffsets, treeRow, treeRows } from './support/page.js';

let browser: Browser;
let server: DemoServer;

beforeAll(async () => {
  ({ browser, server } = await startDemoAndChromium({ messagesPerSecond: 20, largeEvery: 0, seed: 5 }));
}, 30_000);

afterAll(() => closeDemoAndChromium(browser, server));

async function selectFirstFrame(page: Page): Promise<void> {
  const first = page.locator('[data-testid=frame-row]').first();
  await first.dispatchEvent('mousedown');
  await page.locator('[data-testid=tree-row][aria-level="1"]').waitFor();
  await page.locator('[data-testid=hex-view] [data-offset]').first().waitFor();
}

describe('Protobuf frames from the demo server', () => {
  it('raw without the schema; field names after loading it in the Schemas dialog; a field highlights its bytes', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 860 }, colorScheme: 'light' });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const wsUrl = server.wsUrl.replace(/\/demo$/, PROTOBUF_PATH);
    await page.goto(new URL(`index.html?connect=${encodeURIComponent(wsUrl)}`, server.httpUrl).href);
    const arrived = await page
      .waitForFunction(() => document.querySelectorAll('[data-testid=frame-row]').length >= 3, undefined, {
        timeout: 10_000,
        polling: 200,
      })
      .then(
        () => true,
        () => false,
      );
    if (!arrived) throw new Error(`fewer than 3 frame rows after 10 s; notices: ${await pageProblems(page)}`);
    await page.getByTestId('pause-button').click();

    // Without a schema: the raw walker, fields by number.
    await selectFirstFrame(page);
    await expect
      .poll(async () => (await treeRows(page)).filter((r) => r.level === 2).map((r) => r.path), { timeout: 5000 })
      .toContain('${2}');
    expect((await treeRows(page)).some((r) => r.path === '$.sent_at')).toBe(false);
    await page.screenshot({ path: artifactPath('protobuf-raw.png') });

    // "Read as": the raw field 2 (a Timestamp) is read as a message; bytes is one click away.
    const raw2 = (await treeRows(page)).find((r) => r.path === '${2}')!;
    expect(raw2.expanded).not.toBeNull(); // a container: the message reading
    await treeRow(page, raw2.nodeId).dispatchEvent('mousedown');
    expect(await page.getByTestId('read-as-message').getAttribute('aria-pressed')).toBe('true');
    await page.getByTestId('read-as-bytes').click();
    await expect
      .poll(async () => (await treeRows(page)).find((r) => r.path === '${2}')?.head ?? '', { timeout: 5000 })
      .toMatch(/^bytes\(/);
    const asBytes = (await treeRows(page)).find((r) => r.path === '${2}')!;
    expect([asBytes.start, asBytes.end, asBytes.expanded]).toEqual([raw2.start, raw2.end, null]); // same span, now a leaf

    // A row listed before the schema, never opened: its preview has fields by number.
    const listed = page.locator('[data-testid=frame-row]').nth(1);
    const listedId = await listed.getAttribute('data-frame-id');
    const listedPreview = () =>
      page.locator(`[data-testid=frame-row][data-frame-id="${listedId}"] [data-column=preview]`).textContent();
    expect(await listedPreview()).toMatch(/^\{1: \d+ .*2: \{/);

    // Load envelope.proto and trade.proto (it imports trade.proto) through the file picker.
    await page.getByTestId('schemas-button').click();
    await page.getByTestId('schema-file-input').setInputFiles(demoProtoFiles());
    await expect
      .poll(() => page.getByRole('list', { name: 'Loaded .proto files' }).textContent(), { timeout: 5000 })
      .toContain('trade.proto');
    expect(await page.getByTestId('schema-error').count()).toBe(0);
    // The rows already listed are read again in the worker: the dialog says how far, the row has field names.
    await expect
      .poll(() => page.getByTestId('schema-reread').textContent(), { timeout: 10_000 })
      .toMatch(/^Listed binary frames read again: \d+\.$/);
    await expect.poll(listedPreview, { timeout: 10_000 }).toMatch(/^\{seq: \d+, sent_at: /);
    await page.getByTestId('schemas-button').click();

    // The open frame reads again with the schema: field names.
    await expect
      .poll(async () => (await treeRows(page)).map((r) => r.path), { timeout: 10_000 })
      .toContain('$.sent_at');
    const rows = await treeRows(page);
    expect(rows.some((r) => r.path === '$.trade' || r.path === '$.quote' || r.path === '$.heartbeat')).toBe(true);

    // Clicking a named field highlights exactly its bytes (key and value) in the hex view.
    const sentAt = rows.find((r) => r.path === '$.sent_at')!;
    await treeRow(page, sentAt.nodeId).dispatchEvent('mousedown');
    await expect.poll(async () => (await treeRows(page)).find((r) => r.selected)?.nodeId).toBe(sentAt.nodeId);
    await expect.poll(() => selectedHexOffsets(page), { timeout: 5000 }).toEqual(fieldOffsets(sentAt));
    expect(await page.locator('[data-testid=tree-row][aria-selected=true]').textContent()).toMatch(/\d{4}-\d\d-\d\dT/);
    await page.screenshot({ path: artifactPath('protobuf-schema.png') });

    // The schema is kept in the browser: a reload reads the frames with it again.
    await page.reload();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=frame-row]').length >= 1, undefined, {
      timeout: 10_000,
      polling: 200,
    });
    await page.getByTestId('pause-button').click();
    await selectFirstFrame(page);
    await expect
      .poll(async () => (await treeRows(page)).map((r) => r.path), { timeout: 10_000 })
      .toContain('$.sent_at');
    await page.close();
    expect(errors, 'uncaught errors in the page').toEqual([]);
  }, 60_000);
});
