/**
 * Intercept in Chromium with the production build (dist/chrome): a page and a server that
 * records what it receives and pushes frames on demand. From the panel (panel.html?tabId=N):
 * - a Pause rule on sent frames holds the page's CBOR frame (the server gets nothing, the
 *   page's bufferedAmount counts it); Edit and forward sends the edited value, which reaches
 *   the server as the bytes cbor-x (an encoder wirescope does not use) gives it;
 * - a Drop rule on received frames keeps them from the page's listener (the page counts what
 *   it got), and the rows are marked dropped;
 * - closing the panel mid-hold forwards every held frame in order: the server and the page
 *   see all of them, in order, through none of the page's `send` / `dispatchEvent` replacements;
 * - the page, knowing the secret in hook.js, forges rules and hold actions on its window:
 *   nothing is held or dropped.
 * Fails (never skips) without /usr/bin/chromium or a buildable extension.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { encode as encodeCbor } from 'cbor-x';
import { startInterceptServer } from './support/intercept-page.js';
import { artifactPath, openPanelOf, openTabAt } from './support/ext-env.js';
import { fitsSideways, screenshotEach, shotsOf } from './support/shots.js';
import { chromiumAndServerPerFile } from './support/ext-with-server.js';
import { waitForEditChange } from './support/frame-actions-chromium.js';
import { waitUntil } from './support/wait.js';

const run = chromiumAndServerPerFile(startInterceptServer, 120_000);

const settle = () => new Promise((r) => setTimeout(r, 600));

async function openPage(): Promise<{ page: Page; tabId: number }> {
  const opened = await openTabAt(run.browser, run.server.url);
  await opened.page.waitForFunction('window.opened === true');
  return opened;
}

async function openPanel(tabId: number): Promise<Page> {
  const panel = await openPanelOf(run.browser, tabId);
  await panel.getByTestId('intercept-button').waitFor();
  return panel;
}

/** One rule, set in the rules editor. */
async function setRule(
  panel: Page,
  rule: { direction: 'both' | 'sent' | 'received'; action: 'pause' | 'drop'; contains?: string },
): Promise<void> {
  const dialog = panel.getByTestId('intercept-dialog');
  if (!(await dialog.isVisible())) await panel.getByTestId('intercept-button').click();
  if ((await dialog.getByTestId('intercept-rule').count()) === 0)
    await dialog.getByRole('button', { name: 'Add rule' }).click();
  await dialog.getByLabel('Rule 1 direction').selectOption(rule.direction);
  await dialog.getByLabel('Rule 1 action').selectOption(rule.action);
  await dialog.getByLabel('Rule 1 contains').fill(rule.contains ?? '');
  await dialog.press('Escape');
}

const got = (page: Page) => page.evaluate('window.got') as Promise<(string | number[])[]>;

it('Pause → Edit and forward reaches the server as the edited bytes; a Drop rule keeps received frames from the page', async () => {
  const { server } = run;
  const { page, tabId } = await openPage();
  const panel = await openPanel(tabId);
  await setRule(panel, { direction: 'sent', action: 'pause' });
  await settle();
  const frame = [...encodeCbor({ a: 1, b: 'x' })];
  const buffered = await page.evaluate((b) => {
    (window as unknown as { sendBytes(b: number[]): void }).sendBytes(b);
    return (window as unknown as { ws: WebSocket }).ws.bufferedAmount;
  }, frame);
  expect(buffered, 'bufferedAmount counts the held frame').toBe(frame.length);
  await settle();
  expect(server.received, 'the held frame did not go out').toEqual([]);
  const held = panel.locator('[data-testid=frame-row][data-held]');
  await held.first().waitFor();
  await held.first().dispatchEvent('mousedown');
  await panel.getByTestId('held-count').waitFor();
  expect(await panel.getByTestId('held-count').textContent()).toMatch(/^1 held \(sent/);
  await panel.getByRole('button', { name: 'Edit and forward' }).click();
  const editor = panel.getByLabel('Edit the frame (CBOR as EDN)');
  await editor.fill('{_1 "a": 2, "b": "y"}');
  await waitForEditChange(panel);
  await screenshotEach(panel, shotsOf('intercept', '1440-light', '900-dark'), {
    before: fitsSideways(panel, '[data-testid=held-frames]', 1, 'the held controls fit'),
  });
  await panel.getByRole('button', { name: 'Forward the edit', exact: true }).click();
  await waitUntil('the edited frame at the server', () => server.received.length === 1);
  expect(server.received[0]).toEqual([...encodeCbor({ a: 2, b: 'y' })]);
  expect(await page.evaluate('window.ws.bufferedAmount')).toBe(0);

  // A Drop rule on received frames: the page's listener never gets them.
  await setRule(panel, { direction: 'received', action: 'drop', contains: 'secret' });
  await settle();
  server.push(['hello', 'a secret', [0xa1, 0x66, ...Buffer.from('secret'), 0x01], 'bye']);
  await waitUntil('the page’s frames', async () => (await got(page)).length >= 2);
  await settle();
  expect(await got(page)).toEqual(['hello', 'bye']);
  await waitUntil(
    'two dropped rows',
    async () => (await panel.locator('[data-testid=frame-row][data-dropped]').count()) === 2,
  );
  // The rules editor, open, for the README's screenshot.
  await panel.setViewportSize({ width: 1440, height: 900 });
  await panel.emulateMedia({ colorScheme: 'light' });
  await panel.getByTestId('intercept-button').click();
  await panel.screenshot({ path: artifactPath('intercept-rules-1440-light.png') });
  await panel.keyboard.press('Escape');
  await panel.setViewportSize({ width: 900, height: 700 });
  await panel.emulateMedia({ colorScheme: 'dark' });
  await panel.getByTestId('intercept-button').click();
  const dialogFits = await panel.getByTestId('intercept-dialog').evaluate((d) => {
    const r = d.getBoundingClientRect();
    return r.left >= 0 && r.right <= window.innerWidth;
  });
  expect(dialogFits, 'the rules dialog stays inside a 900 px window').toBe(true);
  await panel.screenshot({ path: artifactPath('intercept-rules-900-dark.png') });
  await panel.close();
  await page.close();
}, 120_000);

it('closing the panel mid-hold forwards every held frame in order, past the page’s replaced send and dispatchEvent; the page and the server see all of them', async () => {
  const { server } = run;
  server.received.length = 0;
  const { page, tabId } = await openPage();
  const panel = await openPanel(tabId);
  await setRule(panel, { direction: 'both', action: 'pause' });
  await settle();
  // Hostile from here on: the page wraps send and dispatchEvent, counting what goes through them.
  await page.evaluate(() => {
    const w = window as unknown as { seen: { sends: number; dispatches: number }; sendText(t: string): void };
    w.seen = { sends: 0, dispatches: 0 };
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (this: WebSocket, d: string) {
      w.seen.sends++;
      return send.call(this, d);
    };
    const dispatch = EventTarget.prototype.dispatchEvent;
    EventTarget.prototype.dispatchEvent = function (this: EventTarget, e: Event) {
      w.seen.dispatches++;
      return dispatch.call(this, e);
    };
    for (const t of ['s1', 's2', 's3']) w.sendText(t);
  });
  server.push(['r1', 'r2', 'r3']);
  await settle();
  expect(server.received).toEqual([]);
  expect(await got(page)).toEqual([]);
  await panel.close();
  await waitUntil('the held sent frames at the server', () => server.received.length === 3);
  expect(server.received).toEqual(['s1', 's2', 's3']);
  await waitUntil('the held received frames at the page', async () => (await got(page)).length === 3);
  expect(await got(page)).toEqual(['r1', 'r2', 'r3']);
  expect(await page.evaluate('window.seen'), 'the forwards went through none of the page’s replacements').toEqual({
    sends: 3,
    dispatches: 0,
  });
  await page.close();
}, 120_000);

it('a page that knows the secret in hook.js cannot forge rules or hold actions', async () => {
  const { server, dir } = run;
  server.received.length = 0;
  const { page } = await openPage();
  const secret = /"([0-9a-f]{24})"/.exec(readFileSync(path.join(dir, 'hook.js'), 'utf8'))?.[1];
  expect(secret, 'the secret in hook.js').toBeTruthy();
  await page.evaluate((s) => {
    const tag = 'wirescope/capture/v1';
    const rule = { id: 'x', direction: 'both', url: '', contains: '', action: 'drop', delayMs: 0 };
    const attempts = [
      { type: 'hook-rules', rules: [rule] },
      { type: 'relay-rules', rules: [rule] },
      { type: 'panel-rules', rules: [rule] },
      {
        type: 'hook-hold',
        requestId: 1,
        action: 'drop',
        socketId: 1,
        direction: 'sent',
        seq: 1,
        binary: false,
        bytes: null,
      },
    ];
    for (const a of attempts) {
      window.postMessage(a, '*');
      for (const name of ['message', `${tag}:offer:${s}`, `${tag}:ready:${s}`])
        window.dispatchEvent(new MessageEvent(name, { data: a }));
      window.dispatchEvent(new CustomEvent(`${tag}:peers:${s}`, { detail: a }));
    }
    const channel = new MessageChannel();
    window.dispatchEvent(new MessageEvent(`${tag}:offer:${s}`, { ports: [channel.port2], cancelable: true }));
    channel.port1.postMessage(attempts[0]);
  }, secret!);
  await settle();
  await page.evaluate(() => (window as unknown as { sendText(t: string): void }).sendText('still sent'));
  server.push(['still received']);
  await waitUntil('the frames both ways', async () => server.received.length === 1 && (await got(page)).length === 1);
  expect(server.received).toEqual(['still sent']);
  expect(await got(page)).toEqual(['still received']);
  await page.close();
}, 60_000);
