/**
 * New message in Chromium with the production build (dist/chrome), on the action page (it
 * sends a CBOR map and a text frame, then replaces `send`, `dispatchEvent`, `MessageEvent` and
 * `Blob`): from the panel's toolbar, a CBOR map written as EDN on the page's socket reaches the
 * server as the bytes cbor2 (an encoder wirescope does not use) gives the same value, is listed
 * marked as wirescope's, and Deliver to page hands it to the page's listener; a bad text sends
 * nothing; a socket that closes says so and keeps the composer and its draft (another, closed socket
 * listed beside it takes neither). The composer fits at 1440×900 and 900×700 in both themes,
 * and axe-core finds nothing on it.
 * Fails (never skips) without /usr/bin/chromium or a buildable extension.
 */
import { expect, it } from 'vitest';
import { encode as cbor2Encode } from 'cbor2';
import { actionPageReady, startActionServer } from './support/action-page.js';
import { panelReader, waitForRows } from './support/ext-panel.js';
import { openPanelOf, openTabAt } from './support/ext-env.js';
import { screenshotEach, shotsOf, type Viewport } from './support/shots.js';
import { chromiumAndServerPerFile } from './support/ext-with-server.js';
import { axeAudit } from './support/axe.js';
import { waitUntil } from './support/wait.js';

const run = chromiumAndServerPerFile(startActionServer, 120_000);

it('New message: EDN on the page socket reaches the server as cbor2 encodes the value, marked; Deliver to page; a socket closing after a send says so and keeps the composer on it with its draft', async () => {
  const { browser: ext, server } = run;
  const { page, tabId } = await openTabAt(ext, server.url);
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await actionPageReady(page, server);

  const panel = await openPanelOf(ext, tabId, { viewport: { width: 1440, height: 900 } });
  const read = panelReader(panel);
  await waitForRows(read, 2);

  // A second socket that opens and closes: listed, not choosable, and never where the composer goes.
  const echoUrl = `${new URL(server.url).origin.replace('http:', 'ws:')}/echo`;
  await page.evaluate(
    (url) =>
      new Promise<void>((done) => {
        const other = new WebSocket(url);
        other.onopen = () => other.close();
        other.onclose = () => done();
      }),
    echoUrl,
  );

  await panel.getByRole('button', { name: 'New message' }).click();
  const composer = panel.getByRole('region', { name: 'New message' });
  await composer.waitFor();
  const socket = panel.getByLabel('New message on');
  await waitUntil('both sockets listed', async () => (await socket.locator('option').count()) === 2);
  expect(await socket.locator('option').allTextContents()).toEqual([`#1 ${echoUrl}`, `#2 ${echoUrl} — closed`]);
  const firstSocket = await socket.inputValue();
  // The socket's last sent frame was 'text frame' (not JSON): it starts as that frame's hex.
  await panel
    .getByTestId('edit-text')
    .filter({ hasText: /^74 65 78 74/ })
    .waitFor();
  expect(await panel.getByTestId('edit-format').inputValue()).toBe('hex');

  await panel.getByTestId('edit-format').selectOption('edn');
  const text = panel.getByTestId('edit-text');
  await text.fill('{"op": "move",\n "to": }');
  await panel
    .getByTestId('edit-error')
    .filter({ hasText: /^2:8: .* — nothing will be sent$/ })
    .waitFor();
  const send = composer.getByRole('button', { name: 'Send', exact: true });
  expect(await send.isDisabled()).toBe(true);

  const value = new Map<string, unknown>([
    ['op', 'move'],
    ['to', [3, -4.25]],
    ['id', 100000],
    ['tag', new Uint8Array([0xca, 0xfe])],
  ]);
  const expected = [...cbor2Encode(value)];
  await text.fill('{"op": "move",\n "to": [3, -4.25], "id": 100000, "tag": h\'cafe\'}');
  await panel
    .getByTestId('edit-bytes')
    .filter({ hasText: expected.map((b) => b.toString(16).padStart(2, '0')).join(' ') })
    .waitFor();
  expect(await panel.getByTestId('edit-change').textContent()).toMatch(/changed in \d+ ranges?, first at offset 0/);

  // Geometry and axe with the composer open on a valid edit: nothing clipped, the text box usable.
  const shots = shotsOf('new-message', '1440-light', '1440-dark', '900-dark', '900-light');
  const composerFits = async (viewport: Viewport, name: string) => {
    const geometry = await panel.evaluate(() => {
      const box = document.querySelector('[data-testid=new-message]')!;
      const area = box.querySelector('textarea')!.getBoundingClientRect();
      const inView = (r: DOMRect) =>
        r.left >= 0 && r.right <= window.innerWidth && r.top >= 0 && r.bottom <= window.innerHeight;
      return {
        overflowsSideways: box.scrollWidth > box.clientWidth + 1,
        buttonsInView: [...box.querySelectorAll('button, select')].every((b) => inView(b.getBoundingClientRect())),
        textArea: { width: Math.round(area.width), height: Math.round(area.height) },
      };
    });
    expect(geometry.overflowsSideways, `${name}: nothing overflows sideways`).toBe(false);
    expect(geometry.buttonsInView, `${name}: every control is on screen`).toBe(true);
    expect(geometry.textArea.width, `${name}: text box width`).toBeGreaterThan(viewport.width / 2);
    expect(geometry.textArea.height, `${name}: text box height`).toBeGreaterThanOrEqual(48);
  };
  const axeFindsNothing = async (_viewport: Viewport, name: string) => {
    expect(
      (await axeAudit(panel)).violations.map((v) => `${v.rule} ${v.target}`),
      `${name}: axe findings`,
    ).toEqual([]);
  };
  await screenshotEach(panel, shots, { before: composerFits, after: axeFindsNothing });
  await panel.setViewportSize({ width: 1440, height: 900 });

  await send.click();
  await panel.getByTestId('new-message-outcome').filter({ hasText: /sent$/ }).waitFor();
  await waitUntil('the new message at the server', () => server.received.length === 3);
  expect(server.received[2]).toEqual({ bytes: expected, binary: true });

  await composer.getByRole('button', { name: 'Deliver to page' }).click();
  await panel.getByTestId('new-message-outcome').filter({ hasText: 'delivered to the page' }).waitFor();
  await page.waitForFunction('window.got.length === 1');
  const got = (await page.evaluate('window.got')) as { kind: string; bytes: number[] | null }[];
  expect(got.map(({ kind, bytes }) => ({ kind, bytes }))).toEqual([{ kind: '[object ArrayBuffer]', bytes: expected }]);
  expect(await page.evaluate('[window.seenSends, window.seenDispatches]'), 'the page saw none of it').toEqual([0, 0]);

  const state = await waitForRows(read, 4);
  expect(state.rows.map((r) => `${r.direction} ${r.format}`)).toEqual([
    'sent cbor',
    'sent text',
    'sent by wirescope cbor',
    'delivered to the page by wirescope cbor',
  ]);

  // The socket closing after a send, with a draft typed: said, Send is off, and the composer
  // stays on that socket with the draft (it does not move to the other, closed, socket).
  await text.fill('{"op": "stay"}');
  await page.evaluate(() => (window as unknown as { ws: WebSocket }).ws.close());
  await composer.getByTestId('new-message-closed').waitFor();
  expect(await composer.getByTestId('new-message-closed').textContent()).toMatch(/^#1 is closed: nothing can be sent/);
  expect(await send.isDisabled()).toBe(true);
  expect(await socket.inputValue()).toBe(firstSocket);
  expect(await text.inputValue()).toBe('{"op": "stay"}');
  expect(await composer.getByTestId('new-message-outcome').count(), 'no outcome beside the new draft').toBe(0);
  expect(server.received).toHaveLength(3);
  expect(pageErrors).toEqual([]);
}, 120_000);
