/**
 * The extension in Chromium: the production build (dist/chrome) loaded unpacked
 * into a headless Chromium with a persistent profile (playwright-core, system browser).
 * A local page talks to a local `ws` server before the panel exists; panel.html?tabId=N
 * opened in a tab must then show every frame, in order, decoded, with direction and size,
 * and the frames that follow arrive live. A socket.io app works unchanged, and the page sees
 * the same WebSocket API as without the extension. Screenshots go to e2e/artifacts/.
 * Fails (never skips) without /usr/bin/chromium or a buildable extension.
 */
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chromium, type Page } from 'playwright-core';
import { encode as encodeCbor } from 'cbor-x';
import { conversation, expectedRows, sizeText } from './support/ext-fixtures.js';
import { comparable, describeRows, panelReader, waitForRows } from './support/ext-panel.js';
import { startCaptureServer, startSocketIoServer } from './support/ext-server.js';
import { artifactPath, CHROMIUM, CHROMIUM_ARGS, openPanelOf, openTabAt } from './support/ext-env.js';
import { chromiumAndServerPerFile, startTogether } from './support/ext-with-server.js';

const steps = conversation();
const CONNECTIONS = { A: '#1', B: '#2' } as const;
const SIO_ATTACHMENT = encodeCbor({ attachment: 'from the page', n: [1, 2, 3] });
const SIO_REPLY = encodeCbor({ reply: 'from the server', ok: true, list: [10, 20, 30, 40] });

const run = chromiumAndServerPerFile(
  () =>
    startTogether({
      capture: () => startCaptureServer(steps),
      sio: () => startSocketIoServer(SIO_ATTACHMENT, SIO_REPLY),
    }),
  60_000,
);
/** Uncaught errors per page; every test ends by checking its pages had none. */
const pageErrors = new Map<Page, string[]>();

function watch(page: Page): void {
  const errors: string[] = [];
  pageErrors.set(page, errors);
  page.on('pageerror', (e) => errors.push(e.message));
}

const errorsOf = (...pages: Page[]) => pages.flatMap((p) => pageErrors.get(p) ?? []);

const openTab = (url: string) => openTabAt(run.browser, url, { beforeLoad: watch });
const openPanel = (tabId: number) => openPanelOf(run.browser, tabId, { beforeLoad: watch, waitForFrameCount: true });

describe('Chromium with the extension (dist/chrome)', () => {
  it('shows every frame sent and received before the panel opened, in order and decoded; later frames arrive live', async () => {
    const server = run.server.capture;
    const { page, tabId } = await openTab(`${server.httpUrl}capture.html`);
    expect(await page.evaluate('window.__backlog'), 'the page checked every frame it received').toEqual([]);
    expect(server.problems, 'the server got exactly the bytes the page sent').toEqual([]);

    const backlog = expectedRows(
      steps.filter((s) => s.phase === 'backlog'),
      CONNECTIONS,
    );
    const panel = await openPanel(tabId);
    let state = await waitForRows(panelReader(panel), backlog.length);
    expect(state.rows.map(comparable), describeRows(backlog, state)).toEqual(backlog.map(comparable));
    expect(state.frameCount).toBe(`${backlog.length} frames`);
    expect(state.dropped, 'frames lost on the way').toBeNull();

    // With the panel open, the rest of the conversation arrives live.
    expect(await page.evaluate("window.__walk('live')")).toEqual([]);
    const all = expectedRows(steps, CONNECTIONS);
    state = await waitForRows(panelReader(panel), all.length);
    expect(state.rows.map(comparable), describeRows(all, state)).toEqual(all.map(comparable));
    expect(state.frameCount).toBe(`${all.length} frames`);
    expect(state.dropped).toBeNull();
    expect(server.problems).toEqual([]);

    // A json-joy patch decodes in the detail pane; screenshot of the panel.
    const patch = state.rows[all.findIndex((r) => r.format === 'crdt-patch' && r.direction === 'received')]!;
    await panel.locator(`[data-testid=frame-row][data-frame-id="${patch.frameId}"]`).dispatchEvent('mousedown');
    await panel.locator(`[data-testid=frame-detail][data-frame-id="${patch.frameId}"]`).waitFor({ timeout: 10_000 });
    await panel.locator('[data-testid=tree-row]').first().waitFor({ timeout: 10_000 });
    expect(await panel.locator('[data-testid=error-banner]').count(), 'error banner on a well-formed patch').toBe(0);
    await panel.screenshot({ path: artifactPath('extension-chromium-panel.png') });
    expect(errorsOf(page, panel), 'uncaught errors in the page or the panel').toEqual([]);
    await panel.close();
    await page.close();
  }, 60_000);

  it('a socket.io app works unchanged (emit / ack with binary attachments) and its frames reach the panel', async () => {
    const sio = run.server.sio;
    const { page, tabId } = await openTab(`${sio.httpUrl}sio.html`);
    const result = (await page.evaluate('window.__sio')) as { transport: string; reply: unknown; bin: number[] };
    expect(result.transport).toBe('websocket');
    expect(result.reply).toEqual({ got: { text: 'ping ✓', n: 1 }, size: SIO_ATTACHMENT.length });
    expect(result.bin).toEqual([...SIO_REPLY]);
    expect(sio.echoes).toEqual([[{ text: 'ping ✓', n: 1 }, [...SIO_ATTACHMENT]]]);

    // Over the WebSocket (after long-polling): the upgrade probe and upgrade packet, then the
    // event with its attachment (a text packet, then a binary frame) and the ack with its
    // attachment (socket.io protocol v5 / engine.io v4 packets).
    const panel = await openPanel(tabId);
    const event = `451-0${JSON.stringify(['echo', { text: 'ping ✓', n: 1 }, { _placeholder: true, num: 0 }])}`;
    const ack = `461-0${JSON.stringify([
      { got: { text: 'ping ✓', n: 1 }, size: SIO_ATTACHMENT.length },
      { _placeholder: true, num: 0 },
    ])}`;
    const utf8Size = (t: string) => sizeText(Buffer.byteLength(t));
    const expected = [
      ['sent', 'text', utf8Size('2probe')],
      ['received', 'text', utf8Size('3probe')],
      ['sent', 'text', utf8Size('5')],
      ['sent', 'text', utf8Size(event)],
      ['sent', 'binary', sizeText(SIO_ATTACHMENT.length), 'cbor'],
      ['received', 'text', utf8Size(ack)],
      ['received', 'binary', sizeText(SIO_REPLY.length), 'cbor'],
    ].map((r) => r.join(' '));
    const state = await waitForRows(panelReader(panel), expected.length);
    const shown = state.rows.map((r) =>
      [r.direction, r.opcode, r.size, ...(r.opcode === 'binary' ? [r.format] : [])].join(' '),
    );
    expect(
      shown,
      state.rows.map((r) => `${r.direction} ${r.opcode} ${r.size} ${r.format} ${r.preview}`).join('\n'),
    ).toEqual(expected);
    // The probe exchange and the upgrade packet (previews as the socket.io / engine.io reader shows them).
    const probes = state.rows.slice(0, 3).map((r) => r.preview);
    expect(probes[0]).toMatch(/ping.*probe|2probe/);
    expect(probes[1]).toMatch(/pong.*probe|3probe/);
    expect(probes[2]).toMatch(/^5$|upgrade/);
    expect(
      state.rows.every((r) => r.connection === '#1'),
      'one WebSocket connection',
    ).toBe(true);
    expect(state.dropped).toBeNull();
    await panel.screenshot({ path: artifactPath('extension-chromium-socketio.png') });
    expect(errorsOf(page, panel)).toEqual([]);
    await panel.close();
    await page.close();
  }, 40_000);

  it('the page sees the same WebSocket API as without the extension', async () => {
    const server = run.server.capture;
    const { page, tabId } = await openTab(`${server.httpUrl}api.html`);
    const withExt = (await page.evaluate('window.__apiChecks()')) as {
      checks: Record<string, unknown>;
      hookBatchesSeen: number;
    };
    const plain = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    let without: typeof withExt;
    try {
      const control = await plain.newPage();
      await control.goto(`${server.httpUrl}api.html`);
      without = (await control.evaluate('window.__apiChecks()')) as typeof withExt;
    } finally {
      await plain.close();
    }
    // The page sees none of the capture traffic (a private channel, not window messages) ...
    expect(withExt.hookBatchesSeen, 'capture messages the page saw on its window').toBe(0);
    expect(without.hookBatchesSeen).toBe(0);
    // ... and the hook did capture it: its frames are in the panel.
    const panel = await openPanel(tabId);
    const captured = await waitForRows(panelReader(panel), 4);
    // api.html sends echo-1, [1, 2, 3] and echo-2, and gets each echoed.
    expect(
      captured.rows.map((r) => `${r.direction} ${r.opcode} ${r.size}`),
      'frames of api.html in the panel',
    ).toEqual(expect.arrayContaining(['sent text 6 B', 'received text 6 B', 'sent binary 3 B']));
    await panel.close();
    writeFileSync(
      artifactPath('extension-chromium-api-checks.json'),
      `${JSON.stringify({ withExtension: withExt, withoutExtension: without }, null, 2)}\n`,
    );
    // Everything the page can observe is the same as in a Chromium without the extension ...
    expect(withExt.checks).toEqual(without.checks);
    // ... and is what the platform promises.
    const c = withExt.checks as Record<string, unknown[]>;
    expect(c.instanceOf!.slice(0, 4)).toEqual([true, true, true, true]);
    expect(c.constants).toEqual([0, 1, 2, 3, 0, 1, 2, 3]);
    expect(c.sourceText!.slice(0, 3)).toEqual(Array(3).fill('function WebSocket() { [native code] }'));
    expect(c.sourceText!.slice(3, 5)).toEqual(Array(2).fill('function send() { [native code] }'));
    expect(c.sourceText![5]).toBe('function toString() { [native code] }');
    expect(c.nameLength).toEqual(['WebSocket', 1, 'send', 1, false, 'function']);
    expect(c.initial!.slice(0, 6)).toEqual([0, 'blob', '', '', 'number', 0]);
    expect([c.binaryTypeInvalid, c.binaryTypeSet]).toEqual(['blob', 'arraybuffer']);
    expect(c.open![1]).toBe('chat.v2');
    expect(String(c.open![2])).toMatch(/^permessage-deflate/);
    expect(c.open![3]).toBe('number');
    expect(c.defaults2).toEqual(['blob', '', c.open![2]]);
    expect(c.callWithoutNew![0]).toBe('TypeError');
    expect(c.badScheme![0]).toBe('SyntaxError');
    expect(c.sendWhileConnecting![0]).toBe('InvalidStateError');
    expect((c.order as unknown[][]).map((o) => o[0])).toEqual(['onmessage', 'listener', 'onmessage', 'listener']);
    expect(c.order2).toEqual(['listener', 'onmessage', 'listener-2']);
    expect(c.subclass).toEqual([true, true, 'sub', true]);
    expect(c.close!.slice(0, 3)).toEqual([4001, 'bye', true]);
    expect(errorsOf(page)).toEqual([]);
    await page.close();
  }, 40_000);
});
