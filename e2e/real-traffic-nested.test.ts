/**
 * Payloads inside payloads in Chromium, fed by the demo server's
 * `/demo/nested` stream: base64 of CBOR in a JSON string, MessagePack in a CBOR byte string,
 * gzip frames and a per-connection zlib stream. A nested child opens in the tree and an inner
 * field highlights the frame bytes that carry it (for base64: the characters that encode
 * it); a compressed frame shows its ratio and, toggled, its decompressed bytes. Needs dist/app
 * and /usr/bin/chromium; fails, never skips, without them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { DemoServer } from '../demo-server/server.js';
import { NESTED_PATH } from '../demo-server/streams/nested.js';
import { artifactPath } from './support/env.js';
import { closeDemoAndChromium, startDemoAndChromium } from './support/demo-chromium.js';
import { fieldOffsets, range, selectedHexOffsets, treeRow, treeRows, type TreeRowInfo } from './support/page.js';

let browser: Browser;
let server: DemoServer;
let page: Page;
const errors: string[] = [];

beforeAll(async () => {
  ({ browser, server } = await startDemoAndChromium({ messagesPerSecond: 20, seed: 7 }));
  page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' });
  page.on('pageerror', (e) => errors.push(e.message));
  const wsUrl = `ws://127.0.0.1:${server.port}${NESTED_PATH}`;
  await page.goto(new URL(`index.html?connect=${encodeURIComponent(wsUrl)}`, server.httpUrl).href);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=frame-row]').length >= 8, undefined, {
    timeout: 15_000,
    polling: 200,
  });
  // Pause: the rows stay put while the test clicks.
  await page.getByRole('button', { name: /pause/i }).first().click();
}, 40_000);

afterAll(async () => {
  await page?.close();
  await closeDemoAndChromium(browser, server);
  expect(errors, 'uncaught errors in the page').toEqual([]);
});

/** Each row's format and preview cells, by their column name (the list's columns may grow). */
function formatAndPreview(): Promise<{ id: number; format: string; formatTitle: string; preview: string }[]> {
  return page.locator('[data-testid=frame-row]').evaluateAll((els) =>
    els.map((e) => ({
      id: Number(e.getAttribute('data-frame-id')),
      format: e.querySelector('[data-column=format]')?.textContent ?? '',
      formatTitle: e.querySelector('[data-column=format]')?.getAttribute('title') ?? '',
      preview: e.querySelector('[data-column=preview]')?.textContent ?? '',
    })),
  );
}

/** The first frame row whose format column reads `label` (`json`, `cbor+gz`, …) and whose preview matches. */
async function frameWith(label: string, preview: RegExp): Promise<number> {
  const rows = await formatAndPreview();
  const row = rows.find((r) => r.format === label && preview.test(r.preview));
  if (!row)
    throw new Error(`no frame row "${label}" ${preview}: ${JSON.stringify(rows.map((r) => [r.format, r.preview]))}`);
  return row.id;
}

async function selectFrame(frameId: number): Promise<void> {
  await page.locator(`[data-testid=frame-row][data-frame-id="${frameId}"]`).dispatchEvent('mousedown');
  await page.locator(`[data-testid=frame-detail][data-frame-id="${frameId}"]`).waitFor();
  await page.locator('[data-testid=tree-row][aria-level="1"]').waitFor();
  await page.locator('[data-testid=hex-view] [data-offset]').first().waitFor();
}

async function rowAt(path: string): Promise<TreeRowInfo> {
  await page.locator(`[data-testid=tree-row][data-path="${path}"]`).first().waitFor({ timeout: 5000 });
  return (await treeRows(page)).find((r) => r.path === path)!;
}

async function open(row: TreeRowInfo): Promise<void> {
  await treeRow(page, row.nodeId).locator('.ws-tree-toggle').dispatchEvent('mousedown');
  await expect
    .poll(async () => (await treeRows(page)).find((r) => r.nodeId === row.nodeId)?.expanded, { timeout: 5000 })
    .toBe(true);
}

/** The frame's bytes [lo, hi) as the hex view shows them (ASCII column). */
async function hexText(lo: number, hi: number): Promise<string> {
  const cells = await page
    .locator('[data-testid=hex-view] .hex-bytes [data-offset]')
    .evaluateAll((els) =>
      els.map((e) => [Number(e.getAttribute('data-offset')), (e.textContent ?? '').trim()] as const),
    );
  const byOffset = new Map(cells);
  return String.fromCharCode(...range(lo, hi).map((o) => parseInt(byOffset.get(o) ?? 'NaN', 16)));
}

async function select(row: TreeRowInfo): Promise<number[]> {
  await treeRow(page, row.nodeId).dispatchEvent('mousedown');
  await expect.poll(() => selectedHexOffsets(page), { timeout: 5000 }).toEqual(fieldOffsets(row));
  return selectedHexOffsets(page);
}

describe('nested values and compressed frames from /demo/nested', () => {
  it('base64 CBOR in a JSON string: the nested child opens, an inner field highlights the base64 characters that encode it', async () => {
    await selectFrame(await frameWith('json', /type: "sync"/));
    const payload = await rowAt('$.payload');
    expect(payload.expanded).toBe(false);
    await open(payload);
    const nested = await rowAt('$.payload<cbor>');
    expect(await treeRow(page, nested.nodeId).locator('.ws-tree-key').textContent()).toBe(
      'decoded as cbor (from base64)',
    );
    // The nested value covers the string's characters between its quotes.
    expect([nested.start, nested.end]).toEqual([payload.start + 1, payload.end - 1]);
    await open(nested);
    const user = await rowAt('$.payload<cbor>.user');
    // Independently: decode the base64 the hex view shows, find the CBOR key "user" (64 75 73 65 72) and where its characters are.
    const b64 = await hexText(nested.start, nested.end);
    const inner = Buffer.from(b64, 'base64');
    const k = inner.indexOf(Buffer.from([0x64, 0x75, 0x73, 0x65, 0x72]));
    expect(k).toBeGreaterThan(0);
    expect(user.keyStart).toBe(nested.start + Math.ceil((4 * k) / 3));
    const highlighted = await select(user);
    expect(highlighted[0]).toBe(user.keyStart);
    expect(highlighted.every((o) => o >= nested.start && o < nested.end)).toBe(true);
    await page.screenshot({ path: artifactPath('nested-base64-cbor.png') });
    // And back: a click on a base64 character of another field selects that nested field.
    const at = await rowAt('$.payload<cbor>.at');
    await page.locator(`[data-testid=hex-view] .hex-bytes [data-offset="${at.start}"]`).click();
    await expect
      .poll(async () => (await treeRows(page)).find((r) => r.selected)?.path, { timeout: 5000 })
      .toBe('$.payload<cbor>.at');
  });

  it('MessagePack in a CBOR byte string: the inner field highlights its own bytes inside the byte string', async () => {
    await selectFrame(await frameWith('cbor', /kind: "envelope"/));
    const body = await rowAt('$.body');
    await open(body);
    const nested = await rowAt('$.body<msgpack>');
    expect(await treeRow(page, nested.nodeId).locator('.ws-tree-key').textContent()).toBe('decoded as msgpack');
    expect([nested.start, nested.end]).toEqual([body.start + body.headerLength, body.end]);
    await open(nested);
    const event = await rowAt('$.body<msgpack>.event');
    await select(event);
    // The MessagePack string "presence" is right there in the frame, after its head.
    expect(await hexText(event.start + event.headerLength, event.end)).toBe('presence');
  });

  it('a gzip frame shows "gzip → cbor" with its ratio; the decompressed bytes toggle links the hex to the tree', async () => {
    const frameId = await frameWith('cbor+gz', /type: "roster"/);
    await selectFrame(frameId);
    const banner = page.getByTestId('compression-banner');
    const summary = (await banner.locator('strong').textContent())!;
    const m = /^gzip → cbor, ([\d,]+) → ([\d,]+) bytes \((\d+(?:\.\d)?)x\)$/.exec(summary);
    expect(m, summary).not.toBeNull();
    const [compressed, decompressed] = [Number(m![1].replace(/,/g, '')), Number(m![2].replace(/,/g, ''))];
    expect(Number(m![3])).toBeCloseTo(decompressed / compressed, 0);
    const root = (await treeRows(page)).find((r) => r.level === 1)!;
    expect(await treeRow(page, root.nodeId).locator('.ws-tree-key').textContent()).toBe(summary);
    expect([root.start, root.end]).toEqual([0, decompressed]);
    // Compressed bytes by default: the gzip header, and no node highlight over them.
    expect(await page.locator('[data-testid=hex-view] .hex-bytes [data-offset="0"]').textContent()).toBe('1f');
    await page.getByTestId('hex-decompressed-toggle').click();
    await expect
      .poll(() => page.locator('[data-testid=hex-view] .hex-bytes [data-offset="0"]').textContent())
      .not.toBe('1f');
    const type = await rowAt('$.type');
    await select(type);
    expect(await hexText(type.start + type.headerLength, type.end)).toBe('roster');
    await page.screenshot({ path: artifactPath('nested-gzip-frame.png') });
  });

  it('a zlib-stream connection: every message decodes with the context of the frames before it', async () => {
    const rows = await formatAndPreview();
    // The column abbreviates the compression (`json+zlib`); its tooltip names the stream.
    const stream = rows.filter((c) => c.formatTitle.startsWith('zlib stream → json'));
    expect(stream.length).toBeGreaterThanOrEqual(2);
    expect(stream.every((c) => c.format === 'json+zlib' && /t: "MESSAGE_CREATE"/.test(c.preview))).toBe(true);
    await selectFrame(await frameWith('json+zlib', /s: 1\b/));
    expect(await page.getByTestId('compression-banner').locator('strong').textContent()).toMatch(
      /^zlib stream → json, [\d,]+ → [\d,]+ bytes/,
    );
    const s = await rowAt('$.s');
    expect(await treeRow(page, s.nodeId).locator('.ws-tree-preview').textContent()).toBe('1');
  });
});
