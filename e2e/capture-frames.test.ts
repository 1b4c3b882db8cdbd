/**
 * The page side of capture in Chromium (dist/chrome): frames of every kind reach
 * the panel and the page cannot tell.
 * - a page with its own window-message listeners (JSON.parse on every message, re-posting
 *   every message): no uncaught errors, nothing of the capture on its window, no false loss;
 * - a sandboxed iframe (allow-scripts, opaque origin): its frames arrive, no "target origin"
 *   console warnings;
 * - an about:blank iframe (a socket made with its WebSocket constructor; frames of the top
 *   document's socket sent through its own `send`) and a srcdoc iframe.
 * Fails (never skips) without /usr/bin/chromium or a buildable extension.
 */
import { describe, expect, it } from 'vitest';
import type { ConsoleMessage, Page } from 'playwright-core';
import { CAPTURE_PAGES, startPagesServer } from './support/capture-pages.js';
import { panelReader, waitForRows, type PanelRow } from './support/ext-panel.js';
import { waitUntil } from './support/wait.js';
import { artifactPath, openPanelOf, openTabAt } from './support/ext-env.js';
import { chromiumAndServerPerFile } from './support/ext-with-server.js';

const run = chromiumAndServerPerFile(() => startPagesServer(CAPTURE_PAGES), 60_000);
const problems = new Map<Page, string[]>();

/** Uncaught errors, and console warnings / errors about postMessage, of a page and its frames. */
function watch(page: Page): void {
  const list: string[] = [];
  problems.set(page, list);
  page.on('pageerror', (e) => list.push(`uncaught: ${e.message}`));
  page.on('console', (m: ConsoleMessage) => {
    if ((m.type() === 'error' || m.type() === 'warning') && /postMessage|target origin/i.test(m.text()))
      list.push(`console ${m.type()}: ${m.text()}`);
  });
}

const openTab = (path: string) => openTabAt(run.browser, `${run.server.httpUrl}${path}`, { beforeLoad: watch });
const openPanel = (tabId: number) => openPanelOf(run.browser, tabId, { beforeLoad: watch, waitForFrameCount: true });

const row = (r: PanelRow) => `${r.direction} ${r.opcode} ${r.size}`;
const bytes = (n: number) => `${n} B`;
const text = (t: string) => `text ${bytes(Buffer.byteLength(t))}`;

describe('capture paths in Chromium (dist/chrome)', () => {
  it("a navigation closes the old page's sockets (page left) and keeps the new page's frame's socket open, though it reported first", async () => {
    const { page, tabId } = await openTab('stay-before.html');
    expect(await page.evaluate('window.__open')).toBe(true);
    await page.goto(`${run.server.httpUrl}stay-after.html`);
    expect(await page.evaluate('window.__done')).toBe(true);
    const panel = await openPanel(tabId);
    const statuses = () =>
      panel
        .getByTestId('connection-status')
        .evaluateAll((els) =>
          Object.fromEntries(
            els.map((e) => [
              new URL((e as HTMLElement).title.split('\n')[0]!).pathname,
              (e as HTMLElement).dataset.status,
            ]),
          ),
        );
    await waitUntil('the three sockets are listed', async () => Object.keys(await statuses()).length === 3);
    expect(await statuses()).toEqual({ '/stay-before': 'closed', '/stay-child': 'open', '/stay-top': 'open' });
    expect(problems.get(page)).toEqual([]);
    await panel.close();
    await page.close();
  }, 40_000);

  it("a page's own window-message listeners see nothing of the capture: no errors, no false loss", async () => {
    const { page, tabId } = await openTab('listeners.html');
    const done = (await page.evaluate('window.__done')) as { echoed: number; seen: number };
    expect(done).toEqual({ echoed: 20, seen: 0 });
    const panel = await openPanel(tabId);
    const state = await waitForRows(panelReader(panel), 40);
    expect(state.rows).toHaveLength(40);
    expect(state.frameCount).toBe('40 frames');
    expect(state.dropped, 'frames reported lost').toBeNull();
    expect(problems.get(page)).toEqual([]);
    expect(problems.get(panel)).toEqual([]);
    await panel.close();
    await page.close();
  }, 40_000);

  it('a sandboxed iframe (opaque origin): its frames arrive, no "target origin" warnings', async () => {
    const { page, tabId } = await openTab('sandboxed.html');
    const done = (await page.evaluate('window.__done')) as {
      sandboxedDone?: number;
      origin?: string;
      sandboxedError?: string;
    };
    expect(done).toEqual({ sandboxedDone: 3, origin: 'null' });
    const panel = await openPanel(tabId);
    const state = await waitForRows(panelReader(panel), 6);
    expect(state.rows.map(row)).toEqual([
      `sent ${text('sandboxed 1')}`,
      `sent ${text('sandboxed 2')}`,
      `sent binary ${bytes(3)}`,
      `received ${text('sandboxed 1')}`,
      `received ${text('sandboxed 2')}`,
      `received binary ${bytes(3)}`,
    ]);
    expect(state.dropped).toBeNull();
    // The connection names the document that opened it: the sandboxed frame, opaque origin.
    const documents = await panel
      .getByTestId('connection-status')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-document')));
    expect(documents).toEqual([`${run.server.httpUrl}sandboxed-child.html (origin null)`]);
    await new Promise((r) => setTimeout(r, 200));
    expect(problems.get(page)).toEqual([]);
    await panel.screenshot({ path: artifactPath('capture-sandboxed-chromium.png') });
    await panel.close();
    await page.close();
  }, 40_000);

  it("about:blank and srcdoc iframes: sockets made with the blank frame's constructor, frames sent through its own send, and a srcdoc frame's socket", async () => {
    const { page, tabId } = await openTab('blank.html');
    const done = await page.evaluate('window.__done');
    expect(done).toEqual({ viaBlankCtor: 2, viaBlankSend: 2, srcdoc: 2 });
    const panel = await openPanel(tabId);
    const state = await waitForRows(panelReader(panel), 12);
    const shown = state.rows.map(row);
    const expected = [
      `sent ${text('blank ctor 1')}`,
      `sent ${text('blank ctor 2')}`,
      `received ${text('blank ctor 1')}`,
      `received ${text('blank ctor 2')}`,
      `sent ${text('blank send 1')}`,
      `sent binary ${bytes(3)}`,
      `received ${text('blank send 1')}`,
      `received binary ${bytes(3)}`,
      `sent ${text('srcdoc 1')}`,
      `sent ${text('srcdoc 2')}`,
      `received ${text('srcdoc 1')}`,
      `received ${text('srcdoc 2')}`,
    ];
    // Sent frames are recorded when sent, echoes when received: order within each socket is fixed, across sockets it may interleave.
    expect([...shown].sort(), shown.join('\n')).toEqual([...expected].sort());
    expect(new Set(state.rows.map((r) => r.connection)).size, 'three sockets').toBe(3);
    const documents = await panel
      .getByTestId('connection-status')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-document')).sort());
    const origin = run.server.httpUrl.replace(/\/$/, '');
    expect(documents, 'the about:blank frame, the top document, the srcdoc frame').toEqual(
      [`about:blank (origin ${origin})`, `about:srcdoc (origin ${origin})`, `${run.server.httpUrl}blank.html`].sort(),
    );
    expect(state.dropped).toBeNull();
    expect(problems.get(page)).toEqual([]);
    await panel.close();
    await page.close();
  }, 40_000);

  it("what a page can read names no extension: stacks through the wrappers, a clean realm's toString of them", async () => {
    const { page } = await openTab('detect.html');
    const r = (await page.evaluate('window.__done')) as { sendStack: string; ctorStack: string; texts: string[] };
    expect(r.sendStack).toMatch(/InvalidStateError/);
    expect(r.ctorStack).toMatch(/SyntaxError/);
    for (const stack of [r.sendStack, r.ctorStack]) expect(stack).not.toMatch(/chrome-extension:|hook\.js/);
    // A native-code body, never the hook's source (still not the native's own name: see extension/README.md).
    for (const text of r.texts) expect(text).toMatch(/^function [\w$]*\(\) \{ \[native code\] \}$/);
    await page.close();
  }, 40_000);
});
