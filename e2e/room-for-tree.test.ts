/**
 * Room for the tree, in Chromium, on the inspector (demo traffic) and the panel (its test
 * transport): a `ledger.entry` frame expanded (Expand all) with the hex shown. At 1440×900 no
 * value cell of a scalar under 40 characters is cut (`scrollWidth > clientWidth`) and the
 * value column is at least 240 px (it was 108: list 400, tree 506, hex 532 beside it); the
 * list's preview keeps 200 px. At 900×700 the detail has 60 % of the window and the tree
 * shows at least 12 rows (it showed 5–6). Light and dark. One page per host: the size
 * changes with the viewport, the theme with the emulated colour scheme (both pages follow it).
 * Edit and send on an MQTT PUBLISH, alone and with Compose open (folded behind it): at 900×700
 * its text box shows at least eight lines and its size line, Send and Cancel are on screen,
 * uncovered (it showed two lines, and the size line went under the tab bar); the same at 1440×900.
 * Needs dist/app and /usr/bin/chromium; fails, never skips.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import type { DemoServer } from '../demo-server/server.js';
import { ledgerEntry, chatMessage } from '../demo-server/shapes.js';
import { makeRng } from '../demo-server/rng.js';
import { MQTT_CHANNEL_PATH } from '../demo-server/streams/mqtt.js';
import { artifactPath } from './support/env.js';
import { closeDemoAndChromium, startDemoAndChromium } from './support/demo-chromium.js';
import { emitToPanel, panelFrames, waitForRows } from './support/tour-pages.js';
import { startActionServer } from './support/action-page.js';
import { openPanelOf, openTabAt } from './support/ext-env.js';
import { chromiumAndServerPerFile } from './support/ext-with-server.js';

let browser: Browser;
let server: DemoServer;

beforeAll(async () => {
  ({ browser, server } = await startDemoAndChromium({ messagesPerSecond: 30, largeEvery: 0, seed: 5 }));
}, 30_000);

afterAll(() => closeDemoAndChromium(browser, server));

const SIZES = [
  { width: 1440, height: 900 },
  { width: 900, height: 700 },
] as const;
const THEMES = ['light', 'dark'] as const;

interface Room {
  readonly theme: string | null;
  readonly hex: string | null;
  readonly valueWidth: number;
  readonly cutScalars: string[];
  readonly treeRowsShown: number;
  readonly detailHeight: number;
  readonly previewWidth: number;
}

/** What the open frame's structure view gives the tree, read from the page's boxes. */
function measure(page: Page): Promise<Room> {
  return page.evaluate(`(() => {
    const tree = document.querySelector('[data-testid=tree-view]');
    const treeBox = tree.getBoundingClientRect();
    const header = tree.querySelector('[data-testid=tree-header]').getBoundingClientRect();
    const rows = [...document.querySelectorAll('[data-testid=tree-row]')];
    const shown = rows.filter((r) => {
      const b = r.getBoundingClientRect();
      return b.top >= header.bottom - 1 && b.bottom <= treeBox.top + tree.clientHeight + 1;
    });
    const cutScalars = rows
      .filter((r) => !r.hasAttribute('aria-expanded'))
      .map((r) => r.querySelector('.ws-tree-value'))
      .filter((v) => (v.textContent || '').length < 40 && v.scrollWidth > v.clientWidth)
      .map((v) => v.textContent);
    const preview = document.querySelector('[data-testid=frame-row] [data-column=preview]');
    return {
      theme: document.querySelector('[data-testid=app]').getAttribute('data-theme'),
      hex: document.querySelector('.ws-hex-pane [data-testid=hex-view]') ? 'shown' : 'hidden',
      valueWidth: Math.round(rows[0].querySelector('.ws-tree-value').getBoundingClientRect().width),
      cutScalars,
      treeRowsShown: shown.length,
      detailHeight: Math.round(document.querySelector('[data-testid=frame-detail]').getBoundingClientRect().height),
      previewWidth: preview ? Math.round(preview.getBoundingClientRect().width) : 0,
    };
  })()`);
}

/** Emulates the colour scheme and waits for the app to follow it (asked twice on a loaded machine). */
async function followScheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    await page.emulateMedia({ colorScheme: theme });
    const followed = await page
      .waitForFunction((t) => document.querySelector('[data-testid=app]')?.getAttribute('data-theme') === t, theme, {
        timeout: 10_000,
        polling: 100,
      })
      .then(
        () => true,
        () => false,
      );
    if (followed) return;
    if (attempt === 1)
      throw new Error(
        `the page did not follow the ${theme} colour scheme: ${await page.evaluate(() => JSON.stringify({ theme: document.querySelector('[data-testid=app]')?.getAttribute('data-theme'), dark: matchMedia('(prefers-color-scheme: dark)').matches, url: location.href }))}`,
      );
  }
}

/** Every size and theme on one page: measured, and a screenshot for each. */
async function everySizeAndTheme<R = Room>(
  page: Page,
  label: string,
  read: (page: Page) => Promise<R> = measure as (page: Page) => Promise<R>,
): Promise<Record<string, R>> {
  const seen: Record<string, R> = {};
  for (const size of SIZES) {
    await page.setViewportSize(size);
    for (const theme of THEMES) {
      await followScheme(page, theme);
      await page.waitForTimeout(400);
      const at = `${size.width}x${size.height}-${theme}`;
      seen[at] = await read(page);
      await page.screenshot({ path: artifactPath(`room-for-tree-${label}-${at}.png`) });
    }
  }
  return seen;
}

async function expandLedgerEntry(page: Page, row: ReturnType<Page['locator']>): Promise<void> {
  await row.dispatchEvent('mousedown');
  await page.locator('[data-testid=tree-row][aria-level="1"]').waitFor();
  await page.getByTestId('expand-all').click();
  await page.locator('[data-testid=tree-row] .ws-tree-key', { hasText: 'epoch seconds' }).first().waitFor();
}

interface EditorRoom {
  readonly theme: string | null;
  /** The text box's inner height over its line height. */
  readonly textLines: number;
  /** Each part's centre is inside the window and the topmost element there is the part itself. */
  readonly seen: { change: boolean; send: boolean; cancel: boolean; text: boolean };
  readonly structureHeight: number;
  readonly detailHeight: number;
}

/** What Edit and send shows of itself, read from the page's boxes. */
function measureEditor(page: Page): Promise<EditorRoom> {
  return page.evaluate(`(() => {
    const box = document.querySelector('[data-testid=edit-and-send]');
    const text = box.querySelector('[data-testid=edit-text]');
    const style = getComputedStyle(text);
    const lineHeight = style.lineHeight === 'normal' ? 1.2 * parseFloat(style.fontSize) : parseFloat(style.lineHeight);
    const inner = text.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
    const button = (name) => [...box.querySelectorAll('button')].find((b) => b.textContent.trim() === name);
    const uncovered = (el) => {
      if (!el || !el.getClientRects().length) return false;
      const r = el.getBoundingClientRect();
      const x = (r.left + r.right) / 2;
      const y = (r.top + r.bottom) / 2;
      if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) return false;
      const top = document.elementFromPoint(x, y);
      return top !== null && (top === el || el.contains(top));
    };
    return {
      theme: document.querySelector('[data-testid=app]').getAttribute('data-theme'),
      textLines: Math.round((inner / lineHeight) * 10) / 10,
      seen: {
        change: uncovered(box.querySelector('[data-testid=edit-change]')),
        send: uncovered(button('Send')),
        cancel: uncovered(button('Cancel')),
        text: uncovered(text),
      },
      structureHeight: Math.round(document.querySelector('[data-testid=structure]').getBoundingClientRect().height),
      detailHeight: Math.round(document.querySelector('[data-testid=frame-detail]').getBoundingClientRect().height),
    };
  })()`);
}

function expectRoom(seen: Record<string, Room>): void {
  for (const [at, room] of Object.entries(seen)) {
    expect(room.theme, at).toBe(at.endsWith('dark') ? 'dark' : 'light');
    expect(room.hex, `${at}: the hex is shown`).not.toBe('hidden');
    if (at.startsWith('1440')) {
      expect(room.valueWidth, `${at}: value column`).toBeGreaterThanOrEqual(240);
      expect(room.cutScalars, `${at}: scalar values under 40 characters cut`).toEqual([]);
      expect(room.previewWidth, `${at}: the list's preview`).toBeGreaterThanOrEqual(200);
    } else {
      expect(room.treeRowsShown, `${at}: tree rows on screen`).toBeGreaterThanOrEqual(12);
      expect(room.detailHeight, `${at}: the detail's height`).toBeGreaterThanOrEqual(0.6 * 700);
    }
  }
}

describe('room for the tree: a ledger.entry frame expanded, the hex shown', () => {
  it('inspector (index.html), 1440×900 and 900×700, light and dark', async () => {
    const page = await browser.newPage({ viewport: SIZES[0], colorScheme: 'light' });
    await page.goto(new URL(`index.html?connect=${encodeURIComponent(server.wsUrl)}`, server.httpUrl).href);
    const row = page.locator('[data-testid=frame-row]', { hasText: 'ledger.entry' }).first();
    await row.waitFor({ timeout: 30_000 });
    await page.getByTestId('pause-button').click();
    await expandLedgerEntry(page, row);
    expectRoom(await everySizeAndTheme(page, 'inspector'));

    // With the hex hidden the tree takes the whole detail pane; the choice is remembered.
    await page.setViewportSize(SIZES[0]);
    await page.getByTestId('hex-toggle').uncheck();
    await page.locator('[data-testid=structure][data-hex=hidden]').waitFor();
    const hidden = await page.evaluate(`(() => ({
      tree: document.querySelector('[data-testid=tree-view]').getBoundingClientRect().width,
      detail: document.querySelector('[data-testid=frame-detail]').getBoundingClientRect().width,
      remembered: localStorage.getItem('wirescope.layout.hexShown'),
    }))()`);
    await page.getByTestId('hex-toggle').check();

    // The key column is resizable: its header's right edge drags, and the width is remembered.
    const keyWidth = () =>
      page
        .getByTestId('tree-view')
        .evaluate((e) => Number.parseInt(getComputedStyle(e).getPropertyValue('--ws-tree-key'), 10));
    const keyBefore = await keyWidth();
    const grip = (await page.getByTestId('tree-grip-key').boundingBox())!;
    await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
    await page.mouse.down();
    await page.mouse.move(grip.x + grip.width / 2 + 60, grip.y + grip.height / 2, { steps: 4 });
    await page.mouse.up();
    const keyAfter = await keyWidth();
    const keyRemembered = await page.evaluate(() => localStorage.getItem('wirescope.layout.treeKeyPx'));
    await page.close();
    expect(keyAfter).toBe(keyBefore + 60);
    expect(keyRemembered).toBe(String(keyBefore + 60));
    const { tree, detail, remembered } = hidden as { tree: number; detail: number; remembered: string };
    expect(tree).toBeGreaterThanOrEqual(detail - 2);
    expect(remembered).toBe('0');
  }, 120_000);

  it('panel (panel.html), 1440×900 and 900×700, light and dark', async () => {
    const page = await browser.newPage({ viewport: SIZES[0], colorScheme: 'light' });
    await page.goto(new URL('panel.html', server.httpUrl).href);
    const rng = makeRng(5);
    const cbor = new CborEncoder();
    const ctx = { rng, nowMs: Date.parse('2026-01-02T03:04:05Z'), codec: 'cbor' as const };
    const hex = (v: unknown) => ({ hex: Buffer.from(cbor.encode(v)).toString('hex') });
    const frames = [
      ...panelFrames(),
      ...Array.from({ length: 12 }, (_, i) => hex(i % 3 ? chatMessage.build(ctx) : ledgerEntry.build(ctx))),
    ];
    await emitToPanel(page, frames);
    await waitForRows(page, 10);
    const row = page.locator('[data-testid=frame-row]', { hasText: 'ledger.entry' }).first();
    await expandLedgerEntry(page, row);
    const seen = await everySizeAndTheme(page, 'panel');
    await page.close();
    expectRoom(seen);
  }, 120_000);

  it('inspector, Edit and send on an MQTT PUBLISH, alone and with Compose folded: eight lines of text, the size line, Send and Cancel in view', async () => {
    const page = await browser.newPage({ viewport: SIZES[0], colorScheme: 'light' });
    const mqttUrl = server.wsUrl.replace(/\/demo$/, MQTT_CHANNEL_PATH);
    await page.goto(new URL(`index.html?connect=${encodeURIComponent(mqttUrl)}`, server.httpUrl).href);
    const publish = page
      .locator('[data-testid=frame-row]', {
        has: page.locator('[data-column=event]', { hasText: /^sensors\/\w+\/temp$/ }),
      })
      .first();
    await publish.waitFor({ timeout: 30_000 });
    await page.getByTestId('pause-button').click();
    const editor = page.getByTestId('edit-and-send');
    const openEditor = async () => {
      await publish.dispatchEvent('mousedown');
      await page.locator('[data-testid=tree-row][aria-level="1"]').first().waitFor();
      await page.getByRole('button', { name: 'Edit and send' }).click();
      await editor.getByTestId('edit-change').filter({ hasText: 'unchanged' }).waitFor();
    };
    await openEditor();
    const alone = await everySizeAndTheme(page, 'edit-send', measureEditor);
    await editor.getByRole('button', { name: 'Cancel' }).click();
    // Compose first, then Edit and send: the last opened is in front, Compose folds to its line.
    await page.setViewportSize(SIZES[0]);
    await page.getByTestId('compose-toggle').click();
    await page.getByTestId('new-message').getByTestId('edit-text').waitFor();
    await openEditor();
    await page.locator('[data-testid=new-message][data-folded]').waitFor();
    const withCompose = await everySizeAndTheme(page, 'edit-send-compose', measureEditor);
    await page.close();
    for (const [label, seen] of [
      ['alone', alone],
      ['Compose folded', withCompose],
    ] as const) {
      for (const [at, room] of Object.entries(seen)) {
        const where = `${at}, ${label}`;
        expect(room.theme, where).toBe(at.endsWith('dark') ? 'dark' : 'light');
        expect(room.textLines, `${where}: lines of the text box (${JSON.stringify(room)})`).toBeGreaterThanOrEqual(8);
        expect(room.seen, `${where}: on screen and uncovered (${JSON.stringify(room)})`).toEqual({
          change: true,
          send: true,
          cancel: true,
          text: true,
        });
        // The frame's views keep their room below the editor (the pane scrolls to them).
        expect(room.structureHeight, `${where}: the tree and hex`).toBeGreaterThanOrEqual(0.35 * room.detailHeight);
      }
    }
  }, 120_000);

  // The extension's Chromium and the action page's server, for the one test below.
  describe('in the extension (dist/chrome)', () => {
    const run = chromiumAndServerPerFile(startActionServer, 60_000);
    it('extension panel with New message and Edit and send both open: the tree keeps its rows, the size line and Send of each editor in its box', async () => {
      const ext = run.browser;
      const { page, tabId } = await openTabAt(ext, run.server.url);
      await page.waitForFunction('window.opened === true');
      // A ledger entry: a value with enough rows for the tree to need its room.
      const ctx = { rng: makeRng(5), nowMs: Date.parse('2026-01-02T03:04:05Z'), codec: 'cbor' as const };
      const entry = [...new CborEncoder().encode(ledgerEntry.build(ctx))];
      await page.evaluate((b) => (window as unknown as { ws: WebSocket }).ws.send(new Uint8Array(b)), entry);
      const panel = await openPanelOf(ext, tabId, { viewport: SIZES[0] });
      const row = panel.locator('[data-testid=frame-row]', { hasText: 'ledger.entry' }).first();
      await row.waitFor({ timeout: 20_000 });
      await expandLedgerEntry(panel, row);
      await panel.getByRole('button', { name: 'New message' }).click();
      await panel.getByTestId('edit-text').first().waitFor();
      await panel.getByRole('button', { name: 'Edit and send' }).click();
      await panel.getByTestId('edit-and-send').getByTestId('edit-text').waitFor();
      const seen = await everySizeAndTheme(panel, 'panel-editors', async (p) => ({
        ...(await measure(p)),
        editors:
          await p.evaluate(`(() => [...document.querySelectorAll('[data-testid=new-message], [data-testid=edit-and-send]')].map((e) => {
          const b = e.getBoundingClientRect();
          // What the editor ends with — its size and difference line and its Send — inside the box, not scrolled out of it.
          const inBox = (q) => { const el = e.querySelector(q); if (!el || !el.getClientRects().length) return false; const r = el.getBoundingClientRect(); return r.top >= b.top - 1 && r.bottom <= b.bottom + 1; };
          const send = [...e.querySelectorAll('button')].find((x) => x.textContent.trim() === 'Send');
          const sendRect = send && send.getClientRects().length ? send.getBoundingClientRect() : null;
          return {
            folded: e.hasAttribute('data-folded'),
            top: Math.round(b.top),
            bottom: Math.round(b.bottom),
            changeInBox: inBox('[data-testid=edit-change]'),
            textFont: getComputedStyle(e.querySelector('[data-testid=edit-text]')).fontFamily,
            sendInBox: sendRect !== null && sendRect.top >= b.top - 1 && sendRect.bottom <= b.bottom + 1,
          };
        }))()`),
        structureHeight: await p.evaluate(
          `Math.round(document.querySelector('[data-testid=structure]').getBoundingClientRect().height)`,
        ),
      }));
      // Show on the folded New message brings it to front and folds Edit and send, each draft kept.
      await panel.getByTestId('new-message').getByRole('button', { name: 'Show' }).click();
      await panel.locator('[data-testid=edit-and-send][data-folded]').waitFor();
      const newMessageFolded = await panel.getByTestId('new-message').getAttribute('data-folded');
      await panel.close();
      expect(newMessageFolded).toBeNull();
      for (const [at, room] of Object.entries(seen)) {
        const { editors, structureHeight, detailHeight } = room as Room & {
          editors: {
            folded: boolean;
            top: number;
            bottom: number;
            changeInBox: boolean;
            sendInBox: boolean;
            textFont: string;
          }[];
          structureHeight: number;
        };
        expect(room.theme, at).toBe(at.endsWith('dark') ? 'dark' : 'light');
        expect(editors, `${at}: both editors open`).toHaveLength(2);
        expect(room.treeRowsShown, `${at}: tree rows on screen (${JSON.stringify(room)})`).toBeGreaterThanOrEqual(8);
        expect(structureHeight, `${at}: the tree and hex's share of the detail pane`).toBeGreaterThanOrEqual(
          0.35 * detailHeight,
        );
        // The last opened (Edit and send) is in front; New message folds to its line, its draft kept.
        expect(
          editors.map((e) => e.folded),
          `${at}: New message folded, Edit and send in front`,
        ).toEqual([true, false]);
        expect(editors[0]!.bottom - editors[0]!.top, `${at}: the folded line`).toBeLessThan(50);
        expect(editors[1]!.bottom - editors[1]!.top, `${at}: the editor in front`).toBeGreaterThan(60);
        // Nothing of the editor in front is clipped by its box: the new bytes' size and Send are in it.
        expect(
          { change: editors[1]!.changeInBox, send: editors[1]!.sendInBox },
          `${at}: the size line and Send of the editor in front are in its box`,
        ).toEqual({ change: true, send: true });
        // EDN and hex are written in columns: the editors' text is monospace.
        for (const e of editors) expect(e.textFont, `${at}: the editor's font`).toMatch(/monospace/);
      }
    }, 180_000);
  });
});
