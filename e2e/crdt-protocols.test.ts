/**
 * CRDT protocols in the app. A Yjs frame: the tree names the message, the CRDT tab lists its
 * structs and deleted ranges, clocks and byte split, and fits the pane at both window sizes in
 * both themes. An automerge-repo frame: its data byte string opens as an Automerge sync message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import * as Y from 'yjs';
import * as encoding from 'lib0/encoding';
import * as syncProtocol from 'y-protocols/sync';
import * as A from '@automerge/automerge';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { startDemoServer, type DemoServer } from '../demo-server/server.js';
import { APP_DIR, artifactPath, checkPrerequisites, launchChromium } from './support/env.js';

let browser: Browser;
let server: DemoServer;

beforeAll(async () => {
  checkPrerequisites();
  [browser, server] = await Promise.all([
    launchChromium(),
    startDemoServer({ port: 0, staticDir: APP_DIR, messagesPerSecond: 1, largeEvery: 0, seed: 5 }),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Two clients' edits to a text, a map and a list, as the sync step 2 one of them sends. */
function syncStep2(): Uint8Array {
  const a = new Y.Doc();
  a.clientID = 1001;
  const b = new Y.Doc();
  b.clientID = 2002;
  a.getText('notes').insert(0, 'Shopping list for the weekend');
  b.getMap('meta').set('title', { text: 'Weekend', tags: ['home', 'food'] });
  Y.applyUpdate(a, Y.encodeStateAsUpdate(b));
  a.getText('notes').delete(9, 4);
  a.getArray('items').insert(0, ['milk', 'bread', 42]);
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, 0);
  syncProtocol.writeSyncStep2(e, a, Uint8Array.from([0]));
  return encoding.toUint8Array(e);
}

describe('a Yjs frame in the app', () => {
  for (const [width, height] of [
    [1440, 900],
    [900, 700],
  ] as const) {
    for (const theme of ['light', 'dark'] as const) {
      it(`names the message and lists its structs in the CRDT tab (${width}×${height}, ${theme})`, async () => {
        const page = await browser.newPage({ viewport: { width, height }, colorScheme: theme });
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        const frame = syncStep2();
        await page.goto(
          new URL(`paste.html?theme=${theme}#b64=${Buffer.from(frame).toString('base64url')}`, server.httpUrl).href,
        );
        const root = page.locator('[data-testid=tree-row][aria-level="1"]');
        await root.waitFor();
        expect(await root.textContent()).toContain('yjs sync step 2');
        await page.getByTestId('tab-crdt').click();
        await page.getByTestId('crdt-kind').waitFor();
        expect(await page.getByTestId('crdt-kind').textContent()).toBe('Yjs sync step 2');
        const rows = page.getByTestId('crdt-op-row');
        await expect.poll(() => rows.count()).toBeGreaterThan(4);
        const texts = await rows.allTextContents();
        expect(texts.some((t) => t.includes('insert string') && t.includes('"notes"'))).toBe(true);
        expect(texts.some((t) => t.startsWith('1001.') && t.includes('delete'))).toBe(true);
        expect(await page.getByTestId('crdt-clock-row').count()).toBe(2);
        // The tab fits its pane: no horizontal overflow, the op table inside the pane's width.
        const fit = await page.getByTestId('crdt-tab').evaluate((tab) => {
          const pane = tab.closest('[data-testid=frame-detail]')!.getBoundingClientRect();
          const table = tab.querySelector('[data-testid=crdt-ops]')!.getBoundingClientRect();
          return { overflow: tab.scrollWidth - tab.clientWidth, paneRight: pane.right, tableRight: table.right };
        });
        expect(fit.overflow).toBeLessThanOrEqual(1);
        expect(fit.tableRight).toBeLessThanOrEqual(fit.paneRight + 1);
        await page.screenshot({ path: artifactPath(`yjs-crdt-tab-${width}x${height}-${theme}.png`) });
        expect(errors).toEqual([]);
        await page.close();
      });
    }
  }
});

describe('an automerge-repo frame in the app', () => {
  it('opens the data byte string as an Automerge sync message with its heads and haves', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const doc = A.from({ text: 'hello', n: [1, 2] });
    const [, message] = A.generateSyncMessage(doc, A.initSyncState());
    const frame = new CborEncoder().encode({
      type: 'sync',
      senderId: 'peer-a',
      targetId: 'peer-b',
      documentId: '3hRfNgYQv6oa7vq1tWA3ZV7yfCLm',
      data: message,
    });
    await page.goto(new URL(`paste.html#b64=${Buffer.from(frame).toString('base64url')}`, server.httpUrl).href);
    await page.locator('[data-testid=tree-row][aria-level="1"]').waitFor();
    await page.getByRole('button', { name: 'Expand all' }).click();
    const nested = page.locator('[data-testid=tree-row]', { hasText: 'decoded as automerge' });
    await nested.waitFor();
    expect(await nested.textContent()).toContain('automerge sync message v1');
    const keys = await page.locator('[data-testid=tree-row]').allTextContents();
    for (const key of ['heads', 'need', 'have', 'bloom', 'changes'])
      expect(
        keys.some((k) => k.includes(key)),
        key,
      ).toBe(true);
    await page.close();
  });
});
