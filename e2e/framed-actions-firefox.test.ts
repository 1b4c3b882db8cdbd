/**
 * Send again and Edit and send on framed frames in Firefox ESR (dist/firefox-test,
 * puppeteer-core over WebDriver BiDi), with the real clients of framed-actions-chromium.test.ts
 * (socket.io-client on namespace `/chat`, mqtt.js to an aedes broker): Send again reaches each
 * server byte-exact; Edit and send of the event's arguments and of the MQTT topic and payload
 * reaches them as the framing rebuilt around the edited value, read back by socket.io's parser
 * and by aedes.
 * Fails (never skips) without /usr/bin/firefox-esr or a buildable extension.
 */
import { expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import {
  expectFramedRows,
  IO_EDIT_TEXT,
  IO_EVENT,
  IO_FRAME,
  MQTT_EDIT_TEXT,
  publishBytes,
  UPLOAD_ARG,
  UPLOAD_BYTES,
  MQTT_PAYLOAD,
  MQTT_TOPIC,
  startFramedServers,
} from './support/framed-clients.js';
import { panelReader, waitForRows, type PanelRow } from './support/ext-panel.js';
import { artifactPath } from './support/ext-env.js';
import { openPanelTab } from './support/ext-firefox.js';
import { firefoxAndServerPerFile } from './support/ext-with-server.js';
import { actOnFrame, clickButton, openFrame, shownText, textOf, typeInto } from './support/frame-actions-firefox.js';
import { pollUntil } from './support/wait.js';

const run = firefoxAndServerPerFile(startFramedServers, 60_000);

/** Opens Edit and send on `row`, checks the editor's label, rewrites its text with `edit` (as typing would), sends. */
async function editAndSend(panel: Page, row: PanelRow, label: string, edit: (text: string) => string): Promise<string> {
  await openFrame(panel, row.frameId);
  await clickButton(panel, '[data-testid=page-actions] button', 'Edit and send');
  await panel.waitForSelector('[data-testid=edit-text]');
  expect(await textOf(panel, '[data-testid=edit-and-send] label')).toBe(`Edit the frame (${label})`);
  const before = await pollUntil(
    'the edit text',
    () => panel.evaluate("document.querySelector('[data-testid=edit-text]').value") as Promise<string>,
    (t) => t !== '',
  );
  await typeInto(panel, '[data-testid=edit-text]', edit(before));
  await pollUntil(
    'the changed bytes',
    () => textOf(panel, '[data-testid=edit-change]'),
    (t) => /first at offset \d+/.test(t),
  );
  await clickButton(panel, '[data-testid=edit-and-send] button', 'Send');
  expect(await shownText(panel, '[data-testid=page-action-outcome]', 'the outcome of the send')).toMatch(
    /^edited frame sent( with its \d+ attachments?)?$/,
  );
  return before;
}

it('socket.io-client and mqtt.js: Send again byte-exact, Edit and send rebuilds the framing around the edited value', async () => {
  const { browser, server: servers } = run;
  const page = await browser.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto(servers.url);
  expect(await page.evaluate('window.__ready')).toBe(true);
  await pollUntil(
    'the event at socket.io',
    () => servers.ioEvents.length,
    (n) => n === 1,
  );
  await pollUntil(
    'the message at the broker',
    () => servers.published.length,
    (n) => n === 1,
  );
  const publishFrame = servers.mqttFrames.find((f) => f[0] >> 4 === 3)!;
  expect(publishFrame).toBeDefined();

  const panel = await openPanelTab(browser, page);
  const read = panelReader(panel);
  const state = await waitForRows(read, 6);
  const { io: ioRow, upload: uploadRow, mqtt: mqttRow } = expectFramedRows(state.rows);

  expect(await actOnFrame(panel, ioRow.frameId, 'Send again')).toBe('sent again');
  await pollUntil(
    'the event sent again',
    () => servers.ioEvents.length,
    (n) => n === 2,
  );
  expect(servers.ioFrames.filter((f) => f === IO_FRAME)).toHaveLength(2);
  expect(servers.ioEvents[1]).toEqual(IO_EVENT);
  const mqttCount = servers.mqttFrames.length;
  expect(await actOnFrame(panel, mqttRow.frameId, 'Send again')).toBe('sent again');
  await pollUntil(
    'the message published again',
    () => servers.published.length,
    (n) => n === 2,
  );
  expect(servers.mqttFrames[mqttCount]).toEqual(publishFrame);

  const ioText = await editAndSend(panel, ioRow, 'Socket.IO packet', (t) =>
    t.replace('{"text":"hi","n":1}', '{"text":"edited ✓","n":2}'),
  );
  expect(ioText).toContain(IO_EDIT_TEXT);
  await pollUntil(
    'the edited event at socket.io',
    () => servers.ioEvents.length,
    (n) => n === 3,
  );
  expect(servers.ioEvents[2]).toEqual(['say', { text: 'edited ✓', n: 2 }]);
  expect(servers.ioFrames.at(-1)).toBe('42/chat,["say",{"text":"edited ✓","n":2}]');

  const long = 'y'.repeat(150);
  const mqttText = await editAndSend(panel, mqttRow, 'MQTT PUBLISH', (t) =>
    t
      .replace(`topic: "${MQTT_TOPIC}"`, 'topic: "sensors/3"')
      .replace(MQTT_PAYLOAD, JSON.stringify({ t: 23, note: long })),
  );
  expect(mqttText).toContain(MQTT_EDIT_TEXT);
  await pollUntil(
    'the edited message at the broker',
    () => servers.published.length,
    (n) => n === 3,
  );
  const payload = Buffer.from(JSON.stringify({ t: 23, note: long }));
  expect(servers.published[2]).toEqual({ topic: 'sensors/3', payload: [...payload] });
  expect([...servers.mqttFrames.at(-1)!]).toEqual(publishBytes('sensors/3', payload, false));
  // A binary event: its attachment goes after the packet, sent again or after the edited packet.
  await pollUntil(
    'the upload at socket.io',
    () => servers.ioUploads.length,
    (n) => n === 1,
  );
  const upload = ['upload', UPLOAD_ARG, { bytes: UPLOAD_BYTES }];
  expect(servers.ioUploads[0]).toEqual(upload);
  expect(await actOnFrame(panel, uploadRow.frameId, 'Send again')).toBe('sent again with its 1 attachment');
  await pollUntil(
    'the upload sent again',
    () => servers.ioUploads.length,
    (n) => n === 2,
  );
  expect(servers.ioUploads[1]).toEqual(upload);
  const uploadText = await editAndSend(panel, uploadRow, 'Socket.IO packet', (t) => t.replace('"a.bin"', '"b.bin"'));
  expect(uploadText).toContain('its 1 binary attachment follows');
  await pollUntil(
    'the edited upload',
    () => servers.ioUploads.length,
    (n) => n === 3,
  );
  expect(servers.ioUploads[2]).toEqual(['upload', { name: 'b.bin' }, { bytes: UPLOAD_BYTES }]);

  // The eight frames wirescope sent are listed, marked as its own.
  const after = await waitForRows(read, state.rows.length + 8);
  expect(after.rows.slice(-8).map((r) => r.direction)).toEqual(Array(8).fill('sent by wirescope'));
  await panel.screenshot({ path: artifactPath('framed-actions-firefox.png') });
  expect(pageErrors).toEqual([]);
  await panel.close();
  await page.close();
}, 90_000);
