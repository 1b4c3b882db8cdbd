/**
 * The frame list's format column at the default list width, in Chromium: it cut `cbor (gz…`,
 * `json (zli…`, `msgpa…` (hiding the malformed mark) and `crdt-mo…`. Every label reads whole —
 * `cbor+gz`, `json+zlib`, `✕ msgpack`, `crdt-model` — beside the detail at 1440×900 and in the
 * stacked list at 900×700, with a Socket.IO row in view so the topic column is there too.
 * Needs dist/app and /usr/bin/chromium; fails, never skips, without them.
 */
import { deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { MsgPackEncoder } from '@jsonjoy.com/json-pack/lib/msgpack/MsgPackEncoder.js';
import { Model } from 'json-joy/lib/json-crdt/model/Model.js';
import type { DemoServer } from '../demo-server/server.js';
import { serializeCapture } from '../codecs/capture/capture-file.js';
import type { ConnectionInfo, WireFrame } from '../codecs/capture/types.js';
import { artifactPath } from './support/env.js';
import { closeDemoAndChromium, startDemoAndChromium } from './support/demo-chromium.js';

let browser: Browser;
let server: DemoServer;

beforeAll(async () => {
  ({ browser, server } = await startDemoAndChromium({ messagesPerSecond: 1, largeEvery: 0, seed: 5 }));
}, 30_000);

afterAll(() => closeDemoAndChromium(browser, server));

const utf8 = (s: string) => new TextEncoder().encode(s);
const roster = { type: 'roster', users: Array.from({ length: 20 }, (_, i) => ({ id: i, name: `user ${i}` })) };

/** The frames, with the label each must show whole. */
function labelledFrames(): { data: Uint8Array; opcode: 'text' | 'binary'; label: string }[] {
  const model = Model.create(undefined, 123456);
  model.api.root({ title: 'notes', items: [1, 2, 3] });
  const patch = model.api.flush();
  const msgpack = new MsgPackEncoder().encode({ type: 'chat.message', text: 'hello there', n: 1234 });
  return [
    { data: gzipSync(new CborEncoder().encode(roster)), opcode: 'binary', label: 'cbor+gz' },
    { data: deflateSync(utf8(JSON.stringify(roster))), opcode: 'binary', label: 'json+zlib' },
    { data: msgpack.subarray(0, msgpack.length - 4), opcode: 'binary', label: '✕ msgpack' },
    { data: model.toBinary(), opcode: 'binary', label: 'crdt-model' },
    { data: patch.toBinary(), opcode: 'binary', label: 'crdt-patch' },
    { data: utf8('42["chat",{"text":"hi"}]'), opcode: 'text', label: 'socketio' },
  ];
}

function captureFile(): Uint8Array {
  const connections: ConnectionInfo[] = [
    {
      connectionId: 'c',
      url: 'wss://app.test/socket.io/?EIO=4&transport=websocket',
      protocol: '',
      extensions: '',
      time: 1,
    },
  ];
  const frames: WireFrame[] = labelledFrames().map((f, i) => ({
    connectionId: 'c',
    direction: 'received',
    time: 10 + i,
    opcode: f.opcode,
    data: f.data,
  }));
  return serializeCapture(connections, frames);
}

interface FormatCell {
  readonly text: string;
  readonly cut: boolean;
  readonly width: number;
}

function formatCells(page: Page): Promise<FormatCell[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[data-testid=frame-row] [data-column=format]')].map((el) => ({
      text: el.textContent ?? '',
      cut: el.scrollWidth > el.clientWidth,
      width: el.clientWidth,
    })),
  );
}

describe('the frame list format column at the default list width', () => {
  it('compressed, malformed and CRDT labels read whole at 1440×900 and 900×700', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(new URL('index.html', server.httpUrl).href);
    await page
      .getByTestId('import-input')
      .setInputFiles({ name: 'labels.wirescope', mimeType: 'application/json', buffer: Buffer.from(captureFile()) });
    const expected = labelledFrames().map((f) => f.label);
    await expect.poll(() => page.getByTestId('frame-count').textContent(), { timeout: 30_000 }).toBe('6 frames');
    // A frame open: the list takes its default width beside the detail (above it at 900×700).
    await page.locator('[data-testid=frame-row][data-frame-id="1"]').dispatchEvent('mousedown');
    await page.locator('[data-testid=frame-detail][data-frame-id="1"]').waitFor();
    for (const size of [
      { width: 1440, height: 900 },
      { width: 900, height: 700 },
    ]) {
      await page.setViewportSize(size);
      await page.waitForTimeout(300);
      const cells = await formatCells(page);
      await page.screenshot({ path: artifactPath(`list-format-labels-${size.width}.png`) });
      const at = `${size.width}×${size.height}`;
      expect(
        cells.map((c) => c.text),
        at,
      ).toEqual(expected);
      expect(
        cells.filter((c) => c.cut),
        `${at}: format cells cut`,
      ).toEqual([]);
    }
    // No protocol in view (the Socket.IO row filtered out): the list's other column set.
    await page.getByTestId('protocol-filter').selectOption('none');
    await expect.poll(async () => (await formatCells(page)).length).toBe(expected.length - 1);
    for (const size of [
      { width: 1440, height: 900 },
      { width: 900, height: 700 },
    ]) {
      await page.setViewportSize(size);
      await page.waitForTimeout(300);
      const cells = await formatCells(page);
      expect(
        cells.filter((c) => c.cut),
        `${size.width}×${size.height}, no protocol in view: format cells cut`,
      ).toEqual([]);
    }
    await page.getByTestId('protocol-filter').selectOption('all');
    await page.setViewportSize({ width: 1440, height: 900 });
    // The row with the Socket.IO event keeps its event in view.
    const event = await page.locator('[data-testid=frame-row][data-frame-id="6"] [data-column=event]').textContent();
    expect(event).toBe('chat');
    await page.close();
  }, 60_000);
});
