/**
 * The page side of capture in Firefox ESR (dist/firefox-test, WebDriver BiDi): the
 * same pages as capture-frames.test.ts — a page with its own window-message listeners, a
 * sandboxed iframe, about:blank and srcdoc iframes, workers (announced: Firefox has no
 * chrome.debugger, so no debugger capture) — and the panel opened through the test
 * build's hook. Fails (never skips) without /usr/bin/firefox-esr or a buildable extension.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { CAPTURE_PAGES, startPagesServer } from './support/capture-pages.js';
import { panelReader, waitForRows, type PanelRow } from './support/ext-panel.js';
import { openPanelTab } from './support/ext-firefox.js';
import { firefoxAndServerPerFile } from './support/ext-with-server.js';

const run = firefoxAndServerPerFile(() => startPagesServer(CAPTURE_PAGES), 60_000);
const problems = new Map<Page, string[]>();

function watch(page: Page): Page {
  const list: string[] = [];
  problems.set(page, list);
  page.on('pageerror', (e) => list.push(`uncaught: ${e instanceof Error ? e.message : String(e)}`));
  page.on('console', (m) => {
    if ((m.type() === 'error' || m.type() === 'warn') && /postMessage|target origin/i.test(m.text()))
      list.push(`console ${m.type()}: ${m.text()}`);
  });
  return page;
}

const openPanel = async (page: Page): Promise<Page> => watch(await openPanelTab(run.browser, page));

const row = (r: PanelRow) => `${r.direction} ${r.opcode} ${r.size}`;
const text = (t: string) => `text ${Buffer.byteLength(t)} B`;

describe('capture paths in Firefox (dist/firefox-test)', () => {
  it("a page's own window-message listeners see nothing of the capture: no errors, no false loss", async () => {
    const page = watch(await run.browser.newPage());
    await page.goto(`${run.server.httpUrl}listeners.html`);
    expect(await page.evaluate('window.__done')).toEqual({ echoed: 20, seen: 0 });
    // Checked before the panel is opened: the test build's open-panel request and its answer are window messages (the page's listener would parse them).
    expect(problems.get(page)).toEqual([]);
    const panel = await openPanel(page);
    // The list follows the tail and draws only the rows in view (about 31 here), so the status
    // bar's count says whether all 40 arrived; the rows drawn are the newest, in order.
    const read = panelReader(panel);
    await waitForRows(read, 20);
    await expect.poll(async () => (await read()).frameCount.trim(), { timeout: 15_000 }).toMatch(/^40 frames/);
    const state = await read();
    expect(state.rows.at(-1)?.frameId).toBe(40);
    expect(state.rows.map((r) => r.frameId)).toEqual(state.rows.map((_, i) => 41 - state.rows.length + i));
    expect(state.dropped).toBeNull();
    await panel.close();
    await page.close();
  }, 45_000);

  it('a sandboxed iframe (opaque origin): its frames arrive, no "target origin" warnings', async () => {
    const page = watch(await run.browser.newPage());
    await page.goto(`${run.server.httpUrl}sandboxed.html`);
    expect(await page.evaluate('window.__done')).toEqual({ sandboxedDone: 3, origin: 'null' });
    const panel = await openPanel(page);
    const state = await waitForRows(panelReader(panel), 6);
    expect(state.rows.map(row).sort()).toEqual(
      [
        `sent ${text('sandboxed 1')}`,
        `sent ${text('sandboxed 2')}`,
        'sent binary 3 B',
        `received ${text('sandboxed 1')}`,
        `received ${text('sandboxed 2')}`,
        'received binary 3 B',
      ].sort(),
    );
    expect(state.dropped).toBeNull();
    expect(problems.get(page)).toEqual([]);
    await panel.close();
    await page.close();
  }, 45_000);

  it('workers: a dedicated and a shared worker are announced as not captured (no debugger capture in Firefox); the page socket is captured', async () => {
    const page = watch(await run.browser.newPage());
    await page.goto(`${run.server.httpUrl}workers.html`);
    expect(await page.evaluate('window.__start()')).toEqual([1, 2, 2]);
    const panel = await openPanel(page);
    const state = await waitForRows(panelReader(panel), 2);
    expect(state.rows.map(row)).toEqual(['sent text 9 B', 'received text 9 B']);
    await panel.waitForSelector('[data-testid=uncaptured-notice]', { timeout: 10_000 });
    const [text, title, toggles] = (await panel.evaluate(
      "[document.querySelector('[data-testid=uncaptured-notice]').textContent, document.querySelector('[data-testid=uncaptured-notice]').title, document.querySelectorAll('[data-testid=debugger-toggle]').length]",
    )) as [string, string, number];
    expect(text).toBe('2 workers: sockets not captured');
    expect(title).toContain(
      `dedicated-worker ${run.server.httpUrl}dedicated.js (started by ${run.server.httpUrl}workers.html)`,
    );
    expect(title).toContain(`shared-worker ${run.server.httpUrl}shared.js`);
    expect(toggles).toBe(0);
    await panel.close();
    await page.close();
  }, 45_000);

  it("about:blank and srcdoc iframes: sockets made with the blank frame's constructor, frames sent through its own send, and a srcdoc frame's socket", async () => {
    const page = watch(await run.browser.newPage());
    await page.goto(`${run.server.httpUrl}blank.html`);
    expect(await page.evaluate('window.__done')).toEqual({ viaBlankCtor: 2, viaBlankSend: 2, srcdoc: 2 });
    const panel = await openPanel(page);
    const state = await waitForRows(panelReader(panel), 12);
    const shown = state.rows.map(row);
    const expected = [
      ...['blank ctor 1', 'blank ctor 2', 'blank send 1', 'srcdoc 1', 'srcdoc 2'].flatMap((t) => [
        `sent ${text(t)}`,
        `received ${text(t)}`,
      ]),
      'sent binary 3 B',
      'received binary 3 B',
    ];
    expect([...shown].sort(), shown.join('\n')).toEqual([...expected].sort());
    expect(state.dropped).toBeNull();
    expect(problems.get(page)).toEqual([]);
    await panel.close();
    await page.close();
  }, 45_000);
});
