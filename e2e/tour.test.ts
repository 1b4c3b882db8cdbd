/**
 * The tour: every tab on all three pages — the web inspector on demo traffic, the
 * paste page from a link, the panel through its test transport — in light and dark, at
 * 1440×900 and 900×700. No console error, no uncaught exception, no failed request on the
 * way; the layout keeps the tree and a whole hex row on screen; a screenshot of every stop
 * goes to e2e/artifacts/tour-*.png. Needs dist/app and /usr/bin/chromium.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import type { DemoServer } from '../demo-server/server.js';
import { artifactPath } from './support/env.js';
import { closeDemoAndChromium, startDemoAndChromium } from './support/demo-chromium.js';
import {
  emitToPanel,
  panelFrames,
  selectFrameOf,
  selectChildRow,
  selectFrame,
  waitForFrames,
  waitForRows,
} from './support/tour-pages.js';
import { watchPage } from './support/watch-page.js';

let browser: Browser;
let server: DemoServer;

beforeAll(async () => {
  ({ browser, server } = await startDemoAndChromium({
    messagesPerSecond: 40,
    largeEvery: 0,
    seed: 7,
    malformedChance: 0,
  }));
}, 30_000);

afterAll(() => closeDemoAndChromium(browser, server));

const THEMES = ['light', 'dark'] as const;
const SIZES = [
  { width: 1440, height: 900 },
  { width: 900, height: 700 },
] as const;

type Theme = (typeof THEMES)[number];
type Size = (typeof SIZES)[number];

/** A JSON seed payload (../shared) as CBOR, for the paste page's link. */
function seedCborHex(): string {
  const seeds = JSON.parse(
    readFileSync(new URL('../../shared/payloads/seed-payloads.json', import.meta.url), 'utf8'),
  ) as { file: string; data: unknown }[];
  const seed = seeds.find((s) => s.file === 'json2') ?? seeds[0];
  return Buffer.from(new CborEncoder().encode(seed.data)).toString('hex');
}

/** Placeholders a tab shows while it waits for the worker or a lazy chunk. */
const PENDING =
  /(rendering|loading bytes|annotating|decoding|measuring|Measuring where the bytes go|Reading the CRDT frame|Comparing frames)…/;

class Tour {
  readonly shots: string[] = [];
  constructor(
    readonly page: Page,
    readonly name: string,
  ) {}

  async settle(): Promise<void> {
    await this.page.waitForFunction(
      (re) => !new RegExp(re).test(document.querySelector('[role=tabpanel]')?.textContent ?? ''),
      PENDING.source,
      { timeout: 15_000, polling: 100 },
    );
  }

  async shot(stop: string): Promise<void> {
    const file = `tour-${this.name}-${stop}.png`;
    await this.page.screenshot({ path: artifactPath(file) });
    this.shots.push(file);
  }

  async tab(tab: string): Promise<void> {
    await this.page.getByTestId(`tab-${tab}`).click();
    await this.page.locator(`[data-testid=tab-${tab}][aria-selected=true]`).waitFor();
    await this.settle();
  }

  /** Tree, Hex (bytes and annotated), Text (JSON and EDN), Bytes, Compare, CRDT when offered, Diff. */
  async everyTab(label: string, opts: { runCompare?: boolean; diff?: boolean } = {}): Promise<void> {
    const p = this.page;
    await this.tab('tree');
    await selectChildRow(p);
    await this.shot(`${label}-tree`);

    await this.tab('hex');
    await p.locator('[data-testid=hex-view] [data-offset]').first().waitFor();
    await this.shot(`${label}-hex`);
    await p.getByTestId('hex-mode-annotated').click();
    await p.locator('[data-testid=annotated-hex] .hex-annotated-line').first().waitFor();
    await this.shot(`${label}-hex-annotated`);
    await p.getByTestId('hex-mode-grid').click();

    await this.tab('text');
    await p.locator('[data-testid=text-view][data-editor=monaco]').waitFor({ timeout: 20_000 });
    await this.shot(`${label}-text-json`);
    await p.getByRole('radio', { name: /EDN/ }).click();
    await p.locator('[data-testid=text-view][data-editor=monaco]').waitFor({ timeout: 20_000 });
    await this.shot(`${label}-text-edn`);

    await this.tab('bytes');
    await p.getByTestId('bytes-tab').waitFor();
    await this.settle();
    await this.shot(`${label}-bytes`);

    await this.tab('compare');
    await p.getByTestId('compare-tab').waitFor();
    if (opts.runCompare) {
      await p.locator('[data-testid=compare-tab] .ws-primary').click();
      await p.waitForFunction(() => !document.querySelector('[data-testid=compare-progress]'), undefined, {
        timeout: 60_000,
        polling: 200,
      });
    }
    await this.shot(`${label}-compare`);

    if (await p.getByTestId('tab-crdt').count()) {
      await this.tab('crdt');
      await p.getByTestId('crdt-tab').waitFor();
      await this.settle();
      await this.shot(`${label}-crdt`);
    }

    // Diff is offered only with a second frame (not on the paste page's one).
    if (await p.getByTestId('tab-diff').count()) {
      await this.tab('diff');
      await p.getByTestId('diff-tab').waitFor();
      if (opts.diff) {
        const picker = p.locator('[data-testid=diff-tab] select');
        const other = await picker.locator('option').nth(1).getAttribute('value');
        if (other) {
          await picker.selectOption(other);
          await this.settle();
          // The diff table fits its pane: the delta column ends inside it, no sideways scroll.
          const fit = await p.evaluate(() => {
            const table = document.querySelector('[data-testid=diff-table]');
            const pane = document.querySelector('[data-testid=diff-tab]');
            if (!table || !pane) return null;
            return { table: table.getBoundingClientRect().right, pane: pane.getBoundingClientRect().right };
          });
          if (fit)
            expect(fit.table, `${this.name} ${label}: the diff table's right edge`).toBeLessThanOrEqual(fit.pane + 1);
        }
      }
      await this.shot(`${label}-diff`);
    }
    await this.tab('tree');
  }
}

/** Room at this size: the tree keeps its width and a whole hex row (bytes and ASCII) is on screen. */
async function expectRoom(page: Page, size: Size): Promise<void> {
  const m = await page.evaluate(() => {
    const box = (s: string) => document.querySelector(s)?.getBoundingClientRect() ?? null;
    const scroll = document.querySelector('[data-testid=hex-view] .hex-scroll') as HTMLElement | null;
    const row = document.querySelector('[data-testid=hex-view] .hex-row');
    const scrollBox = scroll?.getBoundingClientRect();
    return {
      layout: document.querySelector('[data-testid=main-layout]')?.getAttribute('data-layout') ?? null,
      perRow: Number(document.querySelector('[data-testid=hex-view]')?.getAttribute('data-bytes-per-row')),
      tree: box('[data-testid=tree-view]')?.width ?? 0,
      // The tree's columns (key · kind · value · bytes · share · header) all fit: none cut off.
      treeOverflow: (() => {
        const h = document.querySelector('[data-testid=tree-header]') as HTMLElement | null;
        return h ? h.scrollWidth - h.clientWidth : -1;
      })(),
      // ... and every column name reads whole.
      clippedHeaders: [...document.querySelectorAll('[data-testid=tree-header] > span')]
        .filter((e) => e.scrollWidth > e.clientWidth)
        .map((e) => e.textContent),
      asciiRight: row?.querySelector('.hex-ascii')?.getBoundingClientRect().right ?? Infinity,
      hexRight: scrollBox ? scrollBox.left + (scroll!.clientWidth || scrollBox.width) : 0,
      pageRight: document.documentElement.clientWidth,
    };
  });
  expect(m.layout, 'list beside the detail when wide, above it when narrow').toBe(
    size.width < 1000 ? 'stacked' : 'side-by-side',
  );
  expect(m.perRow).toBeGreaterThanOrEqual(8);
  if (size.width >= 1440) expect(m.perRow).toBe(16);
  expect(m.asciiRight, 'the ASCII column of a hex row is not clipped').toBeLessThanOrEqual(m.hexRight + 0.5);
  expect(m.hexRight).toBeLessThanOrEqual(m.pageRight + 0.5);
  expect(m.tree, 'the tree keeps room').toBeGreaterThanOrEqual(400);
  expect(m.treeOverflow, 'tree columns cut off').toBeLessThanOrEqual(0);
  expect(m.clippedHeaders, 'tree column names cut off').toEqual([]);
}

async function open(path: string, theme: Theme, size: Size): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: size, colorScheme: theme });
  const { problems } = watchPage(page);
  await page.goto(new URL(path, server.httpUrl).href);
  return { page, problems };
}

/** Drags a splitter's centre by dx, dy with the mouse (pointer events, as a user does). */
async function drag(page: Page, testId: string, dx: number, dy = 0): Promise<void> {
  const box = (await page.getByTestId(testId).boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx / 2, y + dy / 2, { steps: 4 });
  await page.mouse.move(x + dx, y + dy, { steps: 4 });
  await page.mouse.up();
}

const paneWidth = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluate((e) => Math.round(e.getBoundingClientRect().width));
const perRow = (page: Page) => page.getByTestId('hex-view').getAttribute('data-bytes-per-row');

describe('splitters in a real browser', () => {
  it('a hovered tab does not look selected; the list splitter drags and is remembered across a reload; the hex splitter snaps to 8 and 16 per row', async () => {
    const { page, problems } = await open(`index.html?connect=${encodeURIComponent(server.wsUrl)}`, 'light', SIZES[0]);
    await waitForRows(page, 20);
    await page.getByTestId('pause-button').click();
    await selectFrameOf(page, 'cbor');
    // A hovered tab does not look selected (it once had the same blue underline as the selected one).
    await page.getByTestId('tab-hex').hover();
    const tabLook = (id: string) =>
      page.getByTestId(id).evaluate((e) => {
        const c = getComputedStyle(e);
        return c.borderBottomColor;
      });
    expect(await tabLook('tab-hex')).not.toBe(await tabLook('tab-tree'));
    await page.mouse.move(0, 0);

    // The list narrowed (from its default 560 px at 1440) and the hex placed beside the tree:
    // room for 16 bytes a row beside it.
    const before = await paneWidth(page, 'list-pane');
    await drag(page, 'list-splitter', -240);
    const after = await paneWidth(page, 'list-pane');
    expect(after).toBe(before - 240);
    await page.getByTestId('hex-placement').selectOption('beside');
    await page.locator('[data-testid=structure][data-hex=beside]').waitFor();
    expect(await perRow(page)).toBe('16');
    await drag(page, 'hex-splitter', 220); // the bar right: a narrower hex pane
    await expect.poll(() => perRow(page)).toBe('8');
    const treeWide = await paneWidth(page, 'tree-view');
    await drag(page, 'hex-splitter', -220);
    await expect.poll(() => perRow(page)).toBe('16');
    expect(await paneWidth(page, 'tree-view')).toBeLessThan(treeWide);
    await drag(page, 'hex-splitter', 220);
    await expect.poll(() => perRow(page)).toBe('8');
    await page.screenshot({ path: artifactPath('tour-splitters-dragged.png') });

    await page.reload();
    await waitForRows(page, 20);
    await page.getByTestId('pause-button').click();
    await selectFrameOf(page, 'cbor');
    expect(await paneWidth(page, 'list-pane')).toBe(after);
    expect(await page.getByTestId('structure').getAttribute('data-hex')).toBe('beside');
    expect(await perRow(page)).toBe('8');
    await page.close();
    expect(problems).toEqual([]);
  }, 60_000);
});

describe('the tour: every tab, three pages, two themes, two sizes', () => {
  for (const theme of THEMES) {
    for (const size of SIZES) {
      const at = `${theme}-${size.width}x${size.height}`;

      it(`web inspector, ${at}`, async () => {
        const { page, problems } = await open(`index.html?connect=${encodeURIComponent(server.wsUrl)}`, theme, size);
        const tour = new Tour(page, `inspector-${at}`);
        await waitForFrames(page, 30);
        await page.getByTestId('pause-button').click();
        await tour.shot('list');
        await selectFrameOf(page, 'cbor');
        await expectRoom(page, size);
        await tour.everyTab('cbor', { runCompare: theme === 'light' && size.width === 1440, diff: true });
        // A second frame mounts the Text tab again (Monaco's services must survive that).
        await selectFrameOf(page, 'crdt-model');
        await tour.everyTab('crdt');
        await page.keyboard.press('Escape');
        await page.locator('[data-testid=frame-detail]').waitFor({ state: 'detached' });
        await tour.shot('closed');
        await page.close();
        expect(problems, 'console errors, uncaught exceptions, failed requests').toEqual([]);
      }, 180_000);

      it(`paste page, ${at}`, async () => {
        const { page, problems } = await open(`paste.html#hex=${seedCborHex()}`, theme, size);
        const tour = new Tour(page, `paste-${at}`);
        await page.locator('[data-testid=tree-row][aria-level="2"]').first().waitFor();
        await tour.everyTab('seed');
        await page.close();
        expect(problems, 'console errors, uncaught exceptions, failed requests').toEqual([]);
      }, 120_000);

      it(`panel, ${at}`, async () => {
        const { page, problems } = await open(`panel.html?theme=${theme}`, theme, size);
        const tour = new Tour(page, `panel-${at}`);
        await emitToPanel(page, panelFrames());
        await waitForRows(page, panelFrames().length);
        await selectFrame(page, 1);
        await expectRoom(page, size);
        await tour.everyTab('cbor', { diff: true });
        await selectFrame(page, 3);
        await tour.everyTab('msgpack');
        await page.close();
        expect(problems, 'console errors, uncaught exceptions, failed requests').toEqual([]);
      }, 120_000);
    }
  }
});
