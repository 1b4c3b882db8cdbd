/**
 * The inspector app in Chromium (playwright-core, system browser): the web inspector fed by
 * the demo server, the paste page, HAR / capture import and export, and screenshots in
 * e2e/artifacts/. Needs dist/app (npm run build:app) and /usr/bin/chromium; fails, never
 * skips, without them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { encode as cborEncode } from 'cbor2';
import type { DemoServer } from '../demo-server/server.js';
import { APPENDIX_A, artifactPath } from './support/env.js';
import { closeDemoAndChromium, startDemoAndChromium } from './support/demo-chromium.js';
import {
  fieldOffsets,
  frameSizes,
  pageProblems,
  renderedHexOffsets,
  selectedHexOffsets,
  treeRow,
  treeRows,
  type TreeRowInfo,
} from './support/page.js';
import { pasteEach, spaced } from './support/paste.js';
import { comparable, harFixture, readCapture, readHar } from './support/capture-files.js';

let browser: Browser;
let server: DemoServer;
/** Uncaught page errors per page: every test ends by checking its page had none. */
const pageErrors = new Map<Page, string[]>();

beforeAll(async () => {
  ({ browser, server } = await startDemoAndChromium({ messagesPerSecond: 30, largeEvery: 0, seed: 11 }));
}, 30_000);

afterAll(() => closeDemoAndChromium(browser, server));

async function openPage(path: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 860 }, colorScheme: 'light' });
  const errors: string[] = [];
  pageErrors.set(page, errors);
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(new URL(path, server.httpUrl).href);
  return page;
}

async function closePage(page: Page): Promise<void> {
  const errors = pageErrors.get(page) ?? [];
  await page.close();
  expect(errors, 'uncaught errors in the page').toEqual([]);
}

const connectUrl = (extra = '') => `index.html?connect=${encodeURIComponent(server.wsUrl)}${extra}`;
const field = (r: TreeRowInfo) => ({ lo: r.keyStart >= 0 ? Math.min(r.keyStart, r.start) : r.start, hi: r.end });

/** Selects a frame by mousedown and waits for its tree's root row. */
async function selectFrame(page: Page, frameId: number): Promise<void> {
  await page.locator(`[data-testid=frame-row][data-frame-id="${frameId}"]`).dispatchEvent('mousedown');
  await page.locator(`[data-testid=frame-detail][data-frame-id="${frameId}"]`).waitFor();
  await page.locator('[data-testid=tree-row][aria-level="1"]').waitFor();
  await page.locator('[data-testid=hex-view] [data-offset]').first().waitFor();
}

/** Opens a container row with its toggle (mousedown) and waits for its children. */
async function expand(page: Page, row: TreeRowInfo): Promise<TreeRowInfo[]> {
  await treeRow(page, row.nodeId).locator('.ws-tree-toggle').dispatchEvent('mousedown');
  await expect
    .poll(
      async () =>
        (await treeRows(page)).some((r) => r.level === row.level + 1 && r.start >= row.start && r.end <= row.end),
      { timeout: 5000 },
    )
    .toBe(true);
  return (await treeRows(page)).filter((r) => r.level === row.level + 1 && r.start >= row.start && r.end <= row.end);
}

describe('web inspector connected to the demo server', () => {
  it('shows frames; a tree node highlights exactly its bytes; a byte selects its deepest node', async () => {
    const page = await openPage(connectUrl());
    const arrived = await page
      .waitForFunction(() => document.querySelectorAll('[data-testid=frame-row]').length >= 10, undefined, {
        timeout: 10_000,
        polling: 200,
      })
      .then(
        () => true,
        () => false,
      );
    if (!arrived)
      throw new Error(
        `fewer than 10 frame rows after 10 s; status bar: ${await page.locator('.ws-status').textContent()}; notices: ${await pageProblems(page)}`,
      );
    await page.getByTestId('pause-button').click(); // the list stops following the tail: rows stay put

    // A CBOR frame of a few hundred bytes with a container at the top level (a map if any).
    const candidates = (await frameSizes(page, 'cbor'))
      .filter((f) => f.bytes >= 60 && f.bytes <= 1500)
      .sort((a, b) => a.bytes - b.bytes);
    expect(candidates.length, 'CBOR frames of 60..1500 B in the list').toBeGreaterThan(0);
    let pick: { frameId: number; row: TreeRowInfo } | undefined;
    let shownFrame = -1;
    for (const c of candidates) {
      await selectFrame(page, (shownFrame = c.frameId));
      const closed = (await treeRows(page)).filter((r) => r.level === 2 && r.expanded === false);
      const map = closed.find((r) => r.head.startsWith('map'));
      if (map) pick = { frameId: c.frameId, row: map };
      else if (!pick && closed[0]) pick = { frameId: c.frameId, row: closed[0] };
      if (map) break;
    }
    expect(pick, 'a CBOR frame with a nested container').toBeDefined();
    if (shownFrame !== pick!.frameId) await selectFrame(page, pick!.frameId);
    const container = pick!.row;

    // Expand it and pick a child; prefer one with a key (map entry), one level further if needed.
    let children = await expand(page, container);
    let child = children.find((r) => r.keyStart >= 0) ?? children[0];
    if (child.keyStart < 0 && child.expanded === false) {
      children = await expand(page, child);
      child = children.find((r) => r.keyStart >= 0) ?? children[0];
    }
    await treeRow(page, child.nodeId).dispatchEvent('mousedown');
    await expect.poll(async () => (await treeRows(page)).find((r) => r.selected)?.nodeId).toBe(child.nodeId);
    const expected = fieldOffsets(child);
    await expect.poll(() => selectedHexOffsets(page), { timeout: 5000 }).toEqual(expected);
    await page.screenshot({ path: artifactPath('inspector-cbor-selected.png') });

    // A byte inside a still-collapsed container (else any shown byte outside the selection).
    const rows = await treeRows(page);
    const shown = await renderedHexOffsets(page);
    const inside = (r: TreeRowInfo) => shown.filter((o) => o >= r.start + r.headerLength && o < r.end);
    const collapsed = rows
      .filter((r) => r.expanded === false && inside(r).length > 0)
      .sort((a, b) => b.level - a.level)[0];
    const pool = collapsed ? inside(collapsed) : shown.filter((o) => !expected.includes(o));
    const offset = pool[Math.floor(pool.length / 2)];
    await page.locator(`[data-testid=hex-view] .hex-bytes [data-offset="${offset}"]`).click();
    await expect
      .poll(
        async () => {
          const s = (await treeRows(page)).find((r) => r.selected);
          return !!s && s.nodeId !== child.nodeId && field(s).lo <= offset && offset < s.end;
        },
        { timeout: 5000 },
      )
      .toBe(true);
    const after = await treeRows(page);
    const sel = after.find((r) => r.selected)!;
    // Deepest: no other shown row nested inside the selection holds the byte ...
    const deeper = after.filter(
      (r) =>
        r !== sel &&
        r.start >= field(sel).lo &&
        r.end <= sel.end &&
        r.end - r.start < sel.end - sel.start &&
        field(r).lo <= offset &&
        offset < r.end,
    );
    expect(deeper, `rows inside ${sel.path} that also hold byte ${offset}`).toEqual([]);
    // ... and a container owns only its header bytes unless it is open (its children shown).
    if (sel.expanded === false)
      expect(offset, `${sel.path} is collapsed but byte ${offset} is past its header`).toBeLessThan(
        sel.start + sel.headerLength,
      );
    // The hex highlight follows: the selected field's bytes, as far as the hex view renders them.
    const shownNow = new Set(await renderedHexOffsets(page));
    expect(await selectedHexOffsets(page)).toEqual(fieldOffsets(sel).filter((o) => shownNow.has(o)));
    await closePage(page);
  }, 40_000);
});

describe('composing a frame', () => {
  it('Compose writes a CBOR map as EDN; the demo server echoes the very bytes cbor2 gives that value; a bad text says line:column and sends nothing', async () => {
    const page = await openPage(`index.html?connect=${encodeURIComponent(server.wsUrl + '/json')}`);
    await page.locator('[data-testid=connection-status][data-status=open]').waitFor();
    await page.getByTestId('compose-toggle').click();
    const composer = page.getByRole('region', { name: 'Compose' });
    await composer.waitFor();
    await page.getByTestId('edit-format').selectOption('edn');
    const value = new Map<string, unknown>([
      ['op', 'set'],
      ['vals', [1, -2, 3.5, 100000]],
      ['ok', true],
      ['b', new Uint8Array([1, 2])],
    ]);
    const expected = [...cborEncode(value)].map((b) => b.toString(16).padStart(2, '0')).join(' ');
    await page
      .getByTestId('edit-text')
      .fill('{"op": "set",\n "vals": [1, -2, 3.5, 100000], "ok": true, "b": h\'0102\'}');
    await page.getByTestId('edit-bytes').filter({ hasText: expected }).waitFor({ timeout: 5000 });
    expect(await page.getByTestId('edit-change').textContent()).toMatch(/^\d+ B · a new frame/);
    await composer.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByTestId('new-message-outcome').filter({ hasText: 'sent' }).waitFor({ timeout: 5000 });
    // The JSON channel keeps streaming: only CBOR rows are listed, so the list's window holds them all.
    await page.getByTestId('format-filter').selectOption('cbor');
    const binaryRows = async () =>
      page.locator('[data-testid=frame-row]').evaluateAll((els) =>
        els
          .filter((e) => e.getAttribute('data-format') !== 'json')
          .map((e) => ({
            id: e.getAttribute('data-frame-id'),
            what: `${e.querySelector('[aria-label]')?.getAttribute('aria-label')} ${e.getAttribute('data-format')}`,
          })),
      );
    await expect
      .poll(async () => (await binaryRows()).map((r) => r.what), { timeout: 5000 })
      .toEqual(['sent cbor', 'received cbor']);
    // The echo's bytes, as Edit and send shows them unchanged: cbor2's encoding of the value.
    const echo = (await binaryRows())[1]!;
    await page.locator(`[data-testid=frame-row][data-frame-id="${echo.id}"]`).dispatchEvent('mousedown');
    await page.getByRole('button', { name: 'Edit and send' }).click();
    const unchanged = page.getByTestId('edit-and-send').getByTestId('edit-bytes');
    await page.getByTestId('edit-and-send').getByTestId('edit-change').filter({ hasText: 'unchanged' }).waitFor();
    expect(await unchanged.textContent()).toBe(expected);
    await page.getByTestId('edit-and-send').getByRole('button', { name: 'Cancel' }).click();
    // Send again on the inspector's own connection: the same bytes go out again and come back.
    const sentRow = (await binaryRows())[0]!;
    await page.locator(`[data-testid=frame-row][data-frame-id="${sentRow.id}"]`).dispatchEvent('mousedown');
    await page.getByRole('button', { name: 'Send again' }).click();
    await page.getByTestId('page-action-outcome').waitFor({ timeout: 5000 });
    expect(await page.getByTestId('page-action-outcome').textContent()).toBe('sent again');
    expect(await page.getByRole('button', { name: 'Deliver to page' }).count(), 'no page to deliver to').toBe(0);
    await expect
      .poll(async () => (await binaryRows()).map((r) => r.what), { timeout: 5000 })
      .toEqual(['sent cbor', 'received cbor', 'sent cbor', 'received cbor']);
    const again = (await binaryRows())[3]!;
    await page.locator(`[data-testid=frame-row][data-frame-id="${again.id}"]`).dispatchEvent('mousedown');
    await page.getByRole('button', { name: 'Edit and send' }).click();
    await page.getByTestId('edit-and-send').getByTestId('edit-change').filter({ hasText: 'unchanged' }).waitFor();
    expect(await page.getByTestId('edit-and-send').getByTestId('edit-bytes').textContent()).toBe(expected);
    await page.getByTestId('edit-and-send').getByRole('button', { name: 'Cancel' }).click();

    // The composer fits at 900×700 in both themes: no control off screen, nothing sideways, the text box usable.
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width: 900, height: 700 });
      await page.emulateMedia({ colorScheme: scheme });
      const geometry = await page.evaluate(() => {
        const box = document.querySelector('[data-testid=new-message]')!;
        const area = box.querySelector('textarea')!.getBoundingClientRect();
        const inView = (r: DOMRect) => r.left >= 0 && r.right <= innerWidth && r.top >= 0 && r.bottom <= innerHeight;
        return {
          sideways: box.scrollWidth > box.clientWidth + 1,
          controlsInView: [...box.querySelectorAll('button, select')].every((b) => inView(b.getBoundingClientRect())),
          area: area.width > 450 && area.height >= 48,
        };
      });
      expect(geometry, `Compose at 900×700, ${scheme}`).toEqual({ sideways: false, controlsInView: true, area: true });
      await page.screenshot({ path: artifactPath(`inspector-compose-900-${scheme}.png`) });
    }
    await page.setViewportSize({ width: 1400, height: 860 });

    await page.getByTestId('edit-text').fill('{"op": "set",\n "vals": }');
    await page
      .getByTestId('edit-error')
      .filter({ hasText: /^2:10: .* — nothing will be sent$/ })
      .waitFor({ timeout: 5000 });
    expect(await composer.getByRole('button', { name: 'Send', exact: true }).isDisabled()).toBe(true);
    // Common mistakes say what is wrong, where, and what to do; nothing can be sent.
    for (const [typed, said] of COMMON_MISTAKES) {
      await page.getByTestId('edit-text').fill(typed);
      await page
        .getByTestId('edit-error')
        .filter({ hasText: `${said} — nothing will be sent` })
        .waitFor({ timeout: 5000 });
      expect(await composer.getByRole('button', { name: 'Send', exact: true }).isDisabled(), typed).toBe(true);
    }
    await closePage(page);
  }, 30_000);
});

/** Edit texts (EDN here) with a common mistake, and what the editor says of each. */
const COMMON_MISTAKES: readonly (readonly [string, string])[] = [
  [
    '\uFEFF{"a": 1}',
    '1:1: an invisible byte order mark (U+FEFF) stands here, often pasted in with the text: delete it, it is not part of the value',
  ],
  ['{"a": 012}', '1:7: a number cannot start with 0 (012): write 12 (or 0o12 for octal)'],
  [
    '{"a": "a\\"}',
    `1:7: this string is not closed: end it with '"' (the \\" at 1:9 is an escaped quote, part of the string; for a backslash at the end write \\\\")`,
  ],
  ['{"a": "abc', `1:7: this string is not closed: end it with '"'`],
];

describe('paste page', () => {
  it('a pasted word that is also base64 or hex is its text, not a malformed frame', async () => {
    const page = await openPage('paste.html');
    for (const word of ['ping', 'cafe', 'hello world', 'this is not hex zz']) {
      await page.getByTestId('paste-input').fill(word);
      await page.getByTestId('decode-button').click();
      await expect
        .poll(() => page.locator('[data-testid=tree-row][aria-level="1"]').textContent(), { timeout: 5000 })
        .toContain(word);
      expect(await page.getByText(`${word.length} bytes from raw`).count(), word).toBe(1);
      expect(await page.getByTestId('error-banner').count(), word).toBe(0);
      expect(decodeURIComponent(new URL(page.url()).hash), word).toBe(
        `#b64=${Buffer.from(word).toString('base64url')}&text`,
      );
    }
    await closePage(page);
  }, 30_000);

  it('Edit: the frame as EDN, edited into new bytes; the new link opens them', async () => {
    const page = await openPage(`paste.html#hex=${encodeURIComponent('a1 61 61 01')}`);
    await page.locator('[data-testid=tree-row]').first().waitFor();
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const text = page.getByLabel('Edit the frame', { exact: true });
    expect(await text.inputValue()).toBe('{"a": 1}');
    await text.fill('{"a": 1, "b": [true, null]}');
    const expected = [
      ...cborEncode(
        new Map<string, unknown>([
          ['a', 1],
          ['b', [true, null]],
        ]),
      ),
    ];
    await page
      .getByTestId('edit-bytes')
      .filter({ hasText: expected.map((b) => b.toString(16).padStart(2, '0')).join(' ') })
      .waitFor();
    expect(await page.getByTestId('edit-change').textContent()).toMatch(/^\d+ B \(\+\d+ B\) · .* first at offset 0/);
    // The page sends nothing: a bad text's note says no new bytes or link are made.
    for (const [typed, said] of COMMON_MISTAKES) {
      await text.fill(typed);
      await page
        .getByTestId('edit-error')
        .filter({ hasText: `${said} — no new bytes and no new link until the text reads` })
        .waitFor({ timeout: 5000 });
      expect(await page.getByRole('button', { name: 'Show the edit' }).isDisabled(), typed).toBe(true);
    }
    await text.fill('{"a": 1, "b": [true, null]}');
    await page.getByTestId('edit-change').waitFor();
    await page.getByRole('button', { name: 'Show the edit' }).click();
    await page.locator('[data-testid=tree-row][data-path="$.b"]').waitFor();
    const link = await page.getByTestId('paste-link').inputValue();
    expect(link).toBe(
      `${new URL('paste.html', server.httpUrl).href}#b64=${Buffer.from(expected).toString('base64url')}`,
    );
    await closePage(page);
    const opened = await openPage(new URL(link).pathname + new URL(link).hash);
    await opened.locator('[data-testid=tree-row][data-path="$.b"]').waitFor();
    expect(await opened.getByTestId('paste-input').inputValue()).toBe(
      expected.map((b) => b.toString(16).padStart(2, '0')).join(' '),
    );
    await closePage(opened);
  }, 30_000);

  it('decodes all 82 RFC 8949 Appendix A vectors; f818 (simple 24 in two bytes) is not well-formed', async () => {
    if (!existsSync(APPENDIX_A)) {
      throw new Error(
        `${APPENDIX_A} is missing: it is the shared checkout's copy of the cbor/test-vectors data (RFC 8949 Appendix A), see ../shared/README.md`,
      );
    }
    const vectors = JSON.parse(readFileSync(APPENDIX_A, 'utf8')) as { hex: string }[];
    expect(vectors.length).toBe(82);
    const page = await openPage(`paste.html#hex=${encodeURIComponent(spaced(vectors[0].hex))}`); // the link path once
    await page.locator('[data-testid=tree-row]').first().waitFor();
    // A vector that is also JSON text (17, 20, 29: a number) reads as JSON, as raw text that
    // decodes whole wins over hex; written 0x17 it is hex.
    const asPasted = (hex: string) => (/^[1-9][0-9]$/.test(hex) ? `0x${hex}` : hex);
    const outcomes = await pasteEach(
      page,
      vectors.map((v) => asPasted(spaced(v.hex))),
    );
    const bad = outcomes.filter((o) => {
      const len = o.hex.split(' ').length;
      if (!o.settled || o.shown !== o.hex.replace(/^0x/, '')) return true;
      if (o.hex === 'f8 18') return o.errorOffset === null;
      return o.errorOffset !== null || o.root === null || o.root[0] !== 0 || o.root[1] !== len;
    });
    expect(bad, 'vectors shown wrongly').toEqual([]);
    // The error points into the item: at 0xf8 or (today) at the argument byte 0x18 that is < 0x20.
    expect([0, 1]).toContain(outcomes.find((o) => o.hex === 'f8 18')!.errorOffset);

    // The Appendix A screenshot: a nested indefinite-length map.
    await pasteEach(page, ['bf 61 61 01 61 62 9f 02 03 ff ff']);
    await page.screenshot({ path: artifactPath('paste-appendix-a.png') });
    await closePage(page);
  }, 40_000);

  it('shows malformed input: error banner at the right offset, partial tree, error byte in hex', async () => {
    const page = await openPage('paste.html');
    const cases = [
      // [hex, error offset, [start, end) of the tree rows that must be shown]
      {
        hex: '82 01',
        offset: 2,
        rows: [
          [0, 2],
          [1, 2],
        ],
      },
      // {"a": a 16-byte text string with 2 bytes}: the string's head at byte 3 declares more than remains.
      {
        hex: 'a1 61 61 78 10 41 42',
        offset: 3,
        rows: [
          [0, 7],
          [3, 7],
        ],
      },
      {
        hex: 'a2 61 61 01 61',
        offset: 4,
        rows: [
          [0, 5],
          [3, 4],
        ],
      },
    ];
    for (const c of cases) {
      const [outcome] = await pasteEach(page, [c.hex]);
      expect(outcome.settled, c.hex).toBe(true);
      expect(outcome.errorOffset, c.hex).toBe(c.offset);
      const shownRows = (await treeRows(page)).map((r) => [r.start, r.end]);
      for (const r of c.rows) expect(shownRows, `${c.hex}: partial tree`).toContainEqual(r);
      await expect.poll(() => page.getByTestId('hex-byte-error').getAttribute('data-offset')).toBe(String(c.offset));
      await expect(page.getByTestId('error-banner').isVisible()).resolves.toBe(true);
      if (c.hex === '82 01') await page.screenshot({ path: artifactPath('paste-malformed.png') });
    }
    expect(await pageProblems(page)).toMatch(/Malformed cbor/);
    await closePage(page);
  }, 30_000);
});

describe('HAR and capture files', () => {
  async function download(page: Page, testId: string, name?: string): Promise<string> {
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
    if (name !== undefined) expect(file.suggestedFilename()).toBe(name);
    return readFileSync(await file.path(), 'utf8');
  }

  async function importFile(page: Page, name: string, text: string, total: number): Promise<void> {
    await page
      .getByTestId('import-input')
      .setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
    await expect.poll(() => page.getByTestId('frame-count').textContent(), { timeout: 5000 }).toBe(`${total} frames`);
  }

  it('imports a Chrome HAR and exports HAR and capture files with the same bytes', async () => {
    const fixture = harFixture();
    const page = await openPage('index.html');
    await importFile(page, 'chrome.har', fixture.text, fixture.frameCount);
    expect(await page.getByTestId('notice').textContent()).toMatch(
      new RegExp(`${fixture.frameCount} frames from 2 connections`),
    );
    const formats = await page
      .locator('[data-testid=frame-row]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-format')));
    expect(formats).toEqual(expect.arrayContaining(['cbor', 'msgpack', 'json']));

    const har = await download(page, 'export-har');
    expect(comparable(readHar(har))).toEqual(comparable(fixture.expected));
    const entries = (JSON.parse(har) as { log: { entries: { _resourceType: string }[] } }).log.entries;
    expect(entries.every((e) => e._resourceType === 'websocket')).toBe(true);

    // The name README and the CLI use; the import reads it back, as it does the older .wscap.json.
    const capture = await download(page, 'export-capture', 'capture.wirescope');
    expect(comparable(readCapture(capture))).toEqual(comparable(fixture.expected));
    for (const name of ['capture.wirescope', 'capture.wscap.json']) {
      await page.getByTestId('clear-button').click();
      await expect.poll(() => page.getByTestId('frame-count').textContent()).toBe('0 frames');
      expect(await page.getByTestId('export-capture').isDisabled()).toBe(true);
      await importFile(page, name, capture, fixture.frameCount);
      expect(comparable(readCapture(await download(page, 'export-capture')))).toEqual(comparable(fixture.expected));
    }
    await closePage(page);
  }, 30_000);

  it('runs the Compare tab on a small frame; the dark theme renders the tree and hex', async () => {
    const fixture = harFixture();
    for (const theme of ['light', 'dark'] as const) {
      const page = await openPage(`index.html?theme=${theme}`);
      await importFile(page, 'chrome.har', fixture.text, fixture.frameCount);
      const cbor = await frameSizes(page, 'cbor');
      await selectFrame(page, cbor.sort((a, b) => b.bytes - a.bytes)[0].frameId);
      const items = (await treeRows(page)).find((r) => r.path === '$.items')!;
      const [first] = await expand(page, items);
      await treeRow(page, (await expand(page, first)).find((r) => r.keyStart >= 0)!.nodeId).dispatchEvent('mousedown');
      await expect.poll(() => selectedHexOffsets(page).then((s) => s.length)).toBeGreaterThan(0);
      if (theme === 'dark') {
        await page.screenshot({ path: artifactPath('inspector-dark.png') });
      } else {
        await treeRow(page, 0).dispatchEvent('mousedown'); // compare the whole frame
        await page.getByTestId('tab-compare').click();
        await page.getByRole('button', { name: /Run comparison/ }).click();
        await expect
          .poll(() => page.getByTestId('compare-status').textContent(), { timeout: 20_000 })
          .toMatch(/\d+ codecs compared/);
        expect(
          await page.locator('[data-testid=compare-table] [data-testid=compare-row]').count(),
        ).toBeGreaterThanOrEqual(10);
        await page.screenshot({ path: artifactPath('compare-tab.png'), fullPage: true });
      }
      await closePage(page);
    }
  }, 40_000);
});
