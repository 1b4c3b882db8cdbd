/**
 * The extension in Firefox: puppeteer-core drives the system Firefox ESR over
 * WebDriver BiDi; the test build (dist/firefox-test) is installed as a temporary add-on.
 * BiDi refuses to navigate to moz-extension:// URLs, so the page asks the test build to
 * open its panel tab (`{ wirescopeTest: 'open-panel-tab' }`); the test finds that tab and
 * reads the panel's DOM there. Also: the production build (dist/firefox) carries no test
 * hook, and `web-ext lint` finds no error in it. Screenshots go to e2e/artifacts/.
 * Fails (never skips) without /usr/bin/firefox-esr or a buildable extension.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { conversation, expectedRows } from './support/ext-fixtures.js';
import { comparable, describeRows, panelReader, waitForRows } from './support/ext-panel.js';
import { startCaptureServer } from './support/ext-server.js';
import { artifactPath, ensureExtensionBuild } from './support/ext-env.js';
import {
  launchFirefox,
  openPanelTab,
  openPanelTabWithAnswer,
  webExtLint,
  type LintReport,
} from './support/ext-firefox.js';
import { firefoxAndServerPerFile } from './support/ext-with-server.js';

const steps = conversation();
const CONNECTIONS = { A: '#1', B: '#2' } as const;
const TEST_MARKERS = ['open-panel-tab', 'panel-tab-opened', 'wirescope-test'];

let production: string;
/** Started in beforeAll (it takes ~30 s), awaited by its test. */
let lint: Promise<{ report: LintReport; ms: number }>;
const pageErrors = new Map<Page, string[]>();

// Registered before the launch's hooks: the lint starts first, and is awaited after the browser closed.
beforeAll(async () => {
  production = await ensureExtensionBuild('firefox');
  lint = webExtLint(production);
  lint.catch(() => {}); // reported by its test
}, 60_000);

afterAll(async () => {
  await lint?.catch(() => {});
});

const run = firefoxAndServerPerFile(() => startCaptureServer(steps), 60_000);

function watch(page: Page): Page {
  const errors: string[] = [];
  pageErrors.set(page, errors);
  page.on('pageerror', (e) => errors.push(e instanceof Error ? e.message : String(e)));
  return page;
}

const errorsOf = (...pages: Page[]) => pages.flatMap((p) => pageErrors.get(p) ?? []);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(path.join(dir, f)).isFile());
}

describe('Firefox with the extension (dist/firefox-test)', () => {
  it('shows every frame sent and received before the panel opened, in order and decoded; later frames arrive live', async () => {
    const { browser, server } = run;
    const page = watch(await browser.newPage());
    await page.goto(`${server.httpUrl}capture.html`);
    expect(await page.evaluate('window.__backlog'), 'the page checked every frame it received').toEqual([]);
    expect(server.problems, 'the server got exactly the bytes the page sent').toEqual([]);

    const { panel, opened } = await openPanelTabWithAnswer(browser, page);
    watch(panel);
    expect(opened.url).toMatch(new RegExp(`^moz-extension://[0-9a-f-]+/panel\\.html\\?tabId=${opened.tabId}$`));
    const read = panelReader(panel);

    const backlog = expectedRows(
      steps.filter((s) => s.phase === 'backlog'),
      CONNECTIONS,
    );
    let state = await waitForRows(read, backlog.length);
    expect(state.rows.map(comparable), describeRows(backlog, state)).toEqual(backlog.map(comparable));
    expect(state.frameCount).toBe(`${backlog.length} frames`);
    expect(state.dropped, 'frames lost on the way').toBeNull();

    expect(await page.evaluate("window.__walk('live')")).toEqual([]);
    const all = expectedRows(steps, CONNECTIONS);
    state = await waitForRows(read, all.length);
    expect(state.rows.map(comparable), describeRows(all, state)).toEqual(all.map(comparable));
    expect(state.frameCount).toBe(`${all.length} frames`);
    expect(state.dropped).toBeNull();
    expect(server.problems).toEqual([]);

    // The received json-joy model decodes in the detail pane.
    const model = state.rows[all.findIndex((r) => r.format === 'crdt-model')]!;
    await panel.evaluate(
      `document.querySelector('[data-testid=frame-row][data-frame-id="${model.frameId}"]').dispatchEvent(new MouseEvent('mousedown', { bubbles: true }))`,
    );
    await panel.waitForSelector(`[data-testid=frame-detail][data-frame-id="${model.frameId}"]`, { timeout: 10_000 });
    await panel.waitForSelector('[data-testid=tree-row]', { timeout: 10_000 });
    expect(await panel.evaluate("document.querySelectorAll('[data-testid=error-banner]').length")).toBe(0);
    await panel.screenshot({ path: artifactPath('extension-firefox-panel.png') });
    expect(errorsOf(page, panel), 'uncaught errors in the page or the panel').toEqual([]);
    await panel.close();
    await page.close();
  }, 45_000);

  it('the page sees the same WebSocket API as in a Firefox without the extension', async () => {
    const { browser, server } = run;
    const page = watch(await browser.newPage());
    await page.goto(`${server.httpUrl}api.html`);
    const withExt = (await page.evaluate('window.__apiChecks()')) as {
      checks: Record<string, unknown[]>;
      hookBatchesSeen: number;
    };
    const plain = await launchFirefox();
    let without: typeof withExt;
    try {
      const control = await plain.newPage();
      await control.goto(`${server.httpUrl}api.html`);
      without = (await control.evaluate('window.__apiChecks()')) as typeof withExt;
    } finally {
      await plain.close();
    }
    writeFileSync(
      artifactPath('extension-firefox-api-checks.json'),
      `${JSON.stringify({ withExtension: withExt, withoutExtension: without }, null, 2)}\n`,
    );
    // The page sees none of the capture traffic (a private channel, not window messages) ...
    expect(withExt.hookBatchesSeen, 'capture messages the page saw on its window').toBe(0);
    expect(without.hookBatchesSeen).toBe(0);
    // ... and the hook did capture it: its frames are in the panel.
    const panel = watch(await openPanelTab(browser, page));
    const captured = await waitForRows(panelReader(panel), 4);
    // api.html sends echo-1, [1, 2, 3] and echo-2, and gets each echoed.
    expect(
      captured.rows.map((r) => `${r.direction} ${r.opcode} ${r.size}`),
      'frames of api.html in the panel',
    ).toEqual(expect.arrayContaining(['sent text 6 B', 'received text 6 B', 'sent binary 3 B']));
    await panel.close();
    expect(withExt.checks).toEqual(without.checks);
    const c = withExt.checks;
    expect(c.instanceOf!.slice(0, 4)).toEqual([true, true, true, true]);
    expect(c.constants).toEqual([0, 1, 2, 3, 0, 1, 2, 3]);
    expect(String(c.sourceText![0])).toMatch(/^function WebSocket\(\) \{\s+\[native code\]\s+\}$/);
    expect(c.nameLength).toEqual(['WebSocket', 1, 'send', 1, false, 'function']);
    expect(c.initial!.slice(0, 6)).toEqual([0, 'blob', '', '', 'number', 0]);
    expect(c.open![1]).toBe('chat.v2');
    expect(String(c.open![2])).toMatch(/^permessage-deflate/);
    expect((c.order as unknown as unknown[][]).map((o) => o[0])).toEqual([
      'onmessage',
      'listener',
      'onmessage',
      'listener',
    ]);
    expect(c.order2).toEqual(['listener', 'onmessage', 'listener-2']);
    expect(errorsOf(page)).toEqual([]);
    await page.close();
  }, 45_000);
});

describe('Firefox builds', () => {
  it('the production build (dist/firefox) carries no test hook; the test build does', () => {
    const leaks: string[] = [];
    for (const f of filesUnder(production)) {
      const text = readFileSync(path.join(production, f), 'latin1');
      for (const m of TEST_MARKERS) if (text.includes(m)) leaks.push(`${f}: ${m}`);
    }
    expect(leaks, 'test markers in dist/firefox').toEqual([]);
    expect(filesUnder(production)).not.toContain('test-content.js');
    const manifest = JSON.parse(readFileSync(path.join(production, 'manifest.json'), 'utf8')) as {
      content_scripts: { js: string[] }[];
    };
    expect(manifest.content_scripts.flatMap((s) => s.js)).toEqual(['hook.js', 'relay.js']);
    // The same grep finds the hook where it belongs, so the check above means something.
    expect(readFileSync(path.join(run.dir, 'test-content.js'), 'utf8')).toContain('open-panel-tab');
  });

  it('web-ext lint finds no errors in dist/firefox', async () => {
    const { report, ms } = await lint;
    writeFileSync(artifactPath('web-ext-lint.json'), `${JSON.stringify(report, null, 2)}\n`);
    const line = (m: { code: string; message: string; file?: string; line?: number }) =>
      `${m.code} ${m.file ?? ''}${m.line ? `:${m.line}` : ''} ${m.message}`;
    console.log(
      `web-ext lint dist/firefox (${(ms / 1000).toFixed(1)} s): ${report.summary.errors} errors, ${report.summary.warnings} warnings, ${report.summary.notices} notices\n  ${report.warnings.map(line).join('\n  ')}`,
    );
    expect(report.errors.map(line)).toEqual([]);
    expect(report.summary.errors).toBe(0);
  }, 80_000);
});
