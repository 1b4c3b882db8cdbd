/**
 * In Chromium: the framing protocols in the web inspector fed by the demo server.
 * The list's protocol and event / topic columns (and the preview still in view at the default
 * list width), the protocol filter, a Socket.IO event whose attachment placeholder is replaced
 * and linked to its binary frame, and an MQTT PUBLISH with its topic and decoded payload whose
 * spans highlight in the hex view. Needs dist/app and /usr/bin/chromium; fails, never skips.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { DemoServer } from '../demo-server/server.js';
import { MQTT_CHANNEL_PATH } from '../demo-server/streams/mqtt.js';
import { STOMP_CHANNEL_PATH } from '../demo-server/streams/stomp.js';
import { artifactPath } from './support/env.js';
import { closeDemoAndChromium, startDemoAndChromium } from './support/demo-chromium.js';
import { fieldOffsets, selectedHexOffsets, treeRow, treeRows, type TreeRowInfo } from './support/page.js';

let browser: Browser;
let server: DemoServer;
const pageErrors = new Map<Page, string[]>();

beforeAll(async () => {
  ({ browser, server } = await startDemoAndChromium({
    messagesPerSecond: 80,
    largeEvery: 0,
    malformedChance: 0,
    seed: 21,
  }));
}, 30_000);

afterAll(() => closeDemoAndChromium(browser, server));

async function open(wsUrl: string, viewport = { width: 1440, height: 900 }): Promise<Page> {
  const page = await browser.newPage({ viewport, colorScheme: 'light' });
  const errors: string[] = [];
  pageErrors.set(page, errors);
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(new URL(`index.html?connect=${encodeURIComponent(wsUrl)}`, server.httpUrl).href);
  return page;
}

async function close(page: Page): Promise<void> {
  const errors = pageErrors.get(page) ?? [];
  await page.close();
  expect(errors, 'uncaught errors in the page').toEqual([]);
}

const mqttUrl = () => server.wsUrl.replace(/\/demo$/, MQTT_CHANNEL_PATH);

async function selectFrame(page: Page, frameId: number | string): Promise<void> {
  await page.locator(`[data-testid=frame-row][data-frame-id="${frameId}"]`).dispatchEvent('mousedown');
  await page.locator(`[data-testid=frame-detail][data-frame-id="${frameId}"]`).waitFor();
  await page.locator('[data-testid=tree-row][aria-level="1"]').waitFor();
}

/**
 * The first drawn row's frame id once the list is still: frames that arrived before a pause
 * are drawn by the next redraw, which follows the tail and may take the row read before it
 * out of view (CI read frame 7, then waited 30 s for a row no longer drawn).
 */
async function stillFirstRow(page: Page): Promise<string> {
  const firstId = () => page.locator('[data-testid=frame-row]').first().getAttribute('data-frame-id');
  let seen = await firstId();
  await expect
    .poll(
      async () => {
        await page.waitForTimeout(600); // longer than the list's redraw interval under a flood (500 ms)
        const now = await firstId();
        const still = now === seen;
        seen = now;
        return still;
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  return seen!;
}

/** Opens the row at `path` (its toggle) and waits for a child of it. */
async function expandPath(page: Page, path: string): Promise<void> {
  const row = (await treeRows(page)).find((r) => r.path === path);
  if (!row) throw new Error(`no tree row ${path}; rows: ${(await treeRows(page)).map((r) => r.path).join(' ')}`);
  if (row.expanded) return;
  await treeRow(page, row.nodeId).locator('.ws-tree-toggle').dispatchEvent('mousedown');
  await expect
    .poll(
      async () =>
        (await treeRows(page)).some((r) => r.level === row.level + 1 && r.start >= row.start && r.end <= row.end),
      { timeout: 5000 },
    )
    .toBe(true);
}

/** Cell text of a column in a row. */
const cellText = (page: Page, frameId: string | number, column: string) =>
  page.locator(`[data-testid=frame-row][data-frame-id="${frameId}"] [data-column="${column}"]`).textContent();

describe('framing protocols in the web inspector', () => {
  it('the list has protocol and event / topic columns; with the detail open the preview stays in view (1440×900, 900×700)', async () => {
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 900, height: 700 },
    ]) {
      const page = await open(server.wsUrl, viewport);
      await page.waitForFunction(
        () =>
          [...document.querySelectorAll('[data-testid=frame-row] [data-column=protocol]')].some(
            (c) => c.textContent === 'socket.io',
          ),
        undefined,
        { timeout: 15_000, polling: 200 },
      );
      await page.getByTestId('pause-button').click();
      const first = await stillFirstRow(page);
      await selectFrame(page, first);
      const box = async (sel: string) => page.locator(sel).first().boundingBox();
      const pane = (await box('[data-testid=list-pane]'))!;
      for (const column of ['protocol', 'event', 'preview']) {
        const header = (await box(`[data-testid=frame-list-header] [data-column=${column}]`))!;
        expect(header.width, `${column} header width at ${viewport.width}`).toBeGreaterThan(20);
        expect(
          header.x + Math.min(header.width, 40),
          `${column} header in view at ${viewport.width}`,
        ).toBeLessThanOrEqual(pane.x + pane.width);
      }
      const preview = (await box('[data-testid=frame-row] [data-column=preview]'))!;
      expect(preview.x + preview.width, 'the preview ends inside the list pane').toBeLessThanOrEqual(
        pane.x + pane.width + 1,
      );
      expect(preview.width, 'the preview has room').toBeGreaterThanOrEqual(60);
      expect(await page.locator('[data-testid=frame-list-header] [data-column=event]').getAttribute('title')).toContain(
        'Event name',
      );
      await page.screenshot({ path: artifactPath(`framing-columns-${viewport.width}.png`) });
      await close(page);
    }
  }, 60_000);

  it('the protocol filter keeps only that protocol, and "no protocol" only frames without one', async () => {
    const page = await open(server.wsUrl);
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('[data-testid=frame-row] [data-column=protocol]')].filter(
          (c) => c.textContent === 'socket.io',
        ).length >= 3,
      undefined,
      { timeout: 15_000, polling: 200 },
    );
    await page.getByTestId('pause-button').click();
    await page.getByTestId('protocol-filter').selectOption('socket.io');
    await expect
      .poll(
        async () => new Set(await page.locator('[data-testid=frame-row] [data-column=protocol]').allTextContents()),
        { timeout: 5000 },
      )
      .toEqual(new Set(['socket.io']));
    expect(await page.locator('[data-testid=frame-row] [data-column=event]').allTextContents()).toContain(
      'chat message',
    );
    await page.getByTestId('protocol-filter').selectOption('none');
    await expect
      .poll(
        async () => new Set(await page.locator('[data-testid=frame-row] [data-column=protocol]').allTextContents()),
        { timeout: 5000 },
      )
      .toEqual(new Set(['']));
    await close(page);
  }, 30_000);

  it('a Socket.IO binary event shows its attachment placeholder replaced and linked to the attachment frame', async () => {
    const page = await open(server.wsUrl);
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('[data-testid=frame-row] [data-column=preview]')].some((c) =>
          /^attachment 0 of frame \d+/.test(c.textContent ?? ''),
        ),
      undefined,
      { timeout: 30_000, polling: 200 },
    );
    await page.getByTestId('pause-button').click();
    const attachmentRow = page
      .locator('[data-testid=frame-row]', {
        has: page.locator('[data-column=preview]', { hasText: /^attachment 0 of frame \d+ \(upload\)/ }),
      })
      .first();
    const attachmentId = Number(await attachmentRow.getAttribute('data-frame-id'));
    const eventId = Number(
      /of frame (\d+)/.exec((await attachmentRow.locator('[data-column=preview]').textContent())!)![1],
    );
    expect(await cellText(page, eventId, 'event')).toBe('upload');
    expect(await cellText(page, attachmentId, 'protocol')).toBe('socket.io');
    await selectFrame(page, eventId);
    await expect
      .poll(async () => page.getByTestId('protocol-links').textContent())
      .toContain(`#0 frame ${attachmentId}`);
    await expandPath(page, '$.data');
    await expandPath(page, '$.data[1]');
    const placeholder = (await treeRows(page)).find((r) => r.path === '$.data[1].data')!;
    expect(placeholder.head).toBe('attachment #0');
    const link = treeRow(page, placeholder.nodeId).getByTestId('tree-frame-link');
    expect(await link.getAttribute('data-link-frame')).toBe(String(attachmentId));
    await page.screenshot({ path: artifactPath('framing-socketio-attachment.png') });
    // The value column clips the button at this width: the click is what it does.
    await link.dispatchEvent('click');
    await page.locator(`[data-testid=frame-detail][data-frame-id="${attachmentId}"]`).waitFor();
    expect(await page.getByTestId('protocol-links').textContent()).toContain(
      `attachment 0 of 1 of frame ${eventId} (upload)`,
    );
    await page.getByTestId('tab-hex').click();
    await page.locator('[data-testid=hex-view] [data-offset]').first().waitFor();
    await close(page);
  }, 60_000);

  it('an MQTT PUBLISH shows its topic and decoded JSON payload; a payload field highlights its bytes in the hex', async () => {
    const page = await open(mqttUrl());
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('[data-testid=frame-row] [data-column=event]')].some((c) =>
          /^sensors\/\w+\/temp$/.test(c.textContent ?? ''),
        ),
      undefined,
      { timeout: 15_000, polling: 200 },
    );
    await page.getByTestId('pause-button').click();
    const row = page
      .locator('[data-testid=frame-row]', {
        has: page.locator('[data-column=event]', { hasText: /^sensors\/\w+\/temp$/ }),
      })
      .first();
    const frameId = Number(await row.getAttribute('data-frame-id'));
    expect(await cellText(page, frameId, 'protocol')).toBe('mqtt');
    expect(await cellText(page, frameId, 'format')).toBe('mqtt');
    const topic = await cellText(page, frameId, 'event');
    await selectFrame(page, frameId);
    await page.locator('[data-testid=hex-view] [data-offset]').first().waitFor();
    const rows = await treeRows(page);
    const topicRow = rows.find((r) => r.path === '$.topic')!;
    expect(topicRow, rows.map((r) => r.path).join(' ')).toBeTruthy();
    await expandPath(page, '$.payload');
    const celsius = (await treeRows(page)).find((r) => r.path === '$.payload.celsius') as TreeRowInfo;
    expect(celsius).toBeTruthy();
    await treeRow(page, celsius.nodeId).dispatchEvent('mousedown');
    await expect.poll(() => selectedHexOffsets(page), { timeout: 5000 }).toEqual(fieldOffsets(celsius));
    // The highlighted bytes are the number's text inside the frame, after the topic.
    expect(celsius.start).toBeGreaterThan(topicRow.end);
    expect(topic).toMatch(/^sensors\//);
    await page.screenshot({ path: artifactPath('framing-mqtt-publish.png') });
    await close(page);
  }, 60_000);

  it('STOMP: MESSAGE rows name their destination, heart-beats are dimmed and hide with "hide keep-alives"', async () => {
    const page = await open(server.wsUrl.replace(/\/demo$/, STOMP_CHANNEL_PATH));
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid=frame-row].ws-quiet').length >= 2,
      undefined,
      { timeout: 15_000, polling: 200 },
    );
    await page.getByTestId('pause-button').click();
    expect(await page.locator('[data-testid=frame-row] [data-column=event]').allTextContents()).toContain(
      '/queue/orders',
    );
    expect(
      new Set(await page.locator('[data-testid=frame-row].ws-quiet [data-column=event]').allTextContents()),
    ).toEqual(new Set(['heart-beat']));
    await page.getByTestId('hide-keepalives').check();
    await expect.poll(() => page.locator('[data-testid=frame-row].ws-quiet').count(), { timeout: 5000 }).toBe(0);
    await close(page);
  }, 30_000);
  it('connected with subprotocol mqtt (typed in the connect bar): the detail says the format came "by subprotocol mqtt"', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(new URL('index.html', server.httpUrl).href);
    await page.getByTestId('url-input').fill(mqttUrl());
    await page.getByLabel('Subprotocols (comma separated)').fill('mqtt');
    await page.getByTestId('connect-button').click();
    // The demo server grants the first subprotocol offered: the browser's WebSocket.protocol is "mqtt".
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('[data-testid=frame-row] [data-column=event]')].some((c) =>
          c.textContent?.includes('PINGRESP'),
        ),
      undefined,
      { timeout: 15_000, polling: 200 },
    );
    await page.getByTestId('pause-button').click();
    const pingId = await page
      .locator('[data-testid=frame-row]', { has: page.locator('[data-column=event]', { hasText: 'PINGRESP' }) })
      .first()
      .getAttribute('data-frame-id');
    await page.locator(`[data-testid=frame-row][data-frame-id="${pingId}"]`).dispatchEvent('mousedown');
    await page.locator(`[data-testid=frame-detail][data-frame-id="${pingId}"]`).waitFor();
    await expect
      .poll(() => page.getByTestId('tab-info').textContent(), { timeout: 5000 })
      .toMatch(/^mqtt by subprotocol mqtt · 2 B/);
    expect(await cellText(page, pingId!, 'format')).toBe('mqtt');
    await page.close();
    expect(errors, 'uncaught errors in the page').toEqual([]);
  }, 30_000);
});
