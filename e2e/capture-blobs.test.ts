/**
 * The capture path's wire in Chromium (extension/relay/README.md): where runtime messaging
 * carries Blobs (Chrome 148+ with the manifest's structured clone), each relay batch's frame
 * bytes travel as one Blob, so the page's main thread posts a handle, not the bytes. A spy on
 * the service worker's relay ports (a second `onConnect` listener, beside the background's)
 * reads what really arrived: every frame, byte-exact and in order, each batch of 64 KiB or
 * more in a Blob, smaller ones as bytes, after the port's first batch (sent before the
 * probe's answer); and the panel shows every frame, none lost. Frames of 0 B to 300 KB, binary and text, sent and echoed, over many relay batches.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openPanelOf, openTabAt } from './support/ext-env.js';
import { chromiumAndServerPerFile } from './support/ext-with-server.js';
import { startOnePageServer } from './support/one-page-server.js';

/** The page: sends each frame, waits for its echo, then the next; `window.__done` when all came back. */
const PAGE = `<!doctype html><meta charset="utf-8"><title>blobs</title><script>
'use strict';
window.__go = (count) => new Promise((resolve, reject) => {
  const ws = new WebSocket('ws://' + location.host + '/echo');
  ws.binaryType = 'arraybuffer';
  let i = 0;
  const next = () => {
    if (i === count) return resolve(i);
    const size = [0, 1, 100, 1000, 40000, 300000][i % 6] + (i % 7);
    if (i % 5 === 4) ws.send('text ' + i + ' ' + 'é'.repeat(size % 500));
    else {
      const bytes = new Uint8Array(size);
      for (let k = 0; k < size; k++) bytes[k] = (k * 31 + i) & 0xff;
      ws.send(bytes);
    }
    i++;
  };
  ws.onopen = next;
  ws.onmessage = next;
  ws.onerror = () => reject(new Error('socket failed'));
});
</script>`;

/** What the page sends for frame i, as UTF-8 bytes for text (the page's own rule above). */
function frameBytes(i: number): Buffer {
  const size = [0, 1, 100, 1000, 40000, 300000][i % 6]! + (i % 7);
  if (i % 5 === 4) return Buffer.from(`text ${i} ${'é'.repeat(size % 500)}`, 'utf8');
  const bytes = Buffer.alloc(size);
  for (let k = 0; k < size; k++) bytes[k] = (k * 31 + i) & 0xff;
  return bytes;
}

/** Installed in the service worker: records each relay batch's wire kinds and frame bytes, in arrival order. */
const SPY = `(() => {
  const g = globalThis;
  g.__spy = { kinds: [], chunks: [], length: 0, pending: 0 };
  g.__spyDigest = async () => {
    const all = new Uint8Array(g.__spy.length);
    let at = 0;
    for (const c of g.__spy.chunks) { all.set(c, at); at += c.length; }
    return Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', all)), (b) => b.toString(16).padStart(2, '0')).join('');
  };
  const bytesOf = async (w) => w.blob ? new Uint8Array(await w.blob.arrayBuffer()) : w.bytes ? w.bytes : Uint8Array.from(atob(w.b64), (c) => c.charCodeAt(0));
  chrome.runtime.onConnect.addListener((port) => {
    if (port.name !== 'wirescope-relay') return;
    let chain = Promise.resolve();
    port.onMessage.addListener((m) => {
      if (!m || m.type !== 'relay-batch') return;
      const w = m.frameBytes;
      g.__spy.kinds.push((w.blob ? 'blob ' + w.blob.size : w.bytes ? 'bytes ' + w.bytes.length : 'b64 ' + w.b64.length));
      g.__spy.pending++;
      // In arrival order, whatever each read takes.
      chain = chain.then(async () => { const b = await bytesOf(w); g.__spy.chunks.push(b); g.__spy.length += b.length; g.__spy.pending--; });
    });
  });
})()`;

/** The page, and a server that echoes every frame back as it came (text or binary). */
const run = chromiumAndServerPerFile(
  () => startOnePageServer(PAGE, (ws) => ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary }))),
  90_000,
);

describe('capture wire in Chromium (dist/chrome)', () => {
  it('frame bytes reach the background as Blobs, byte-exact and in order; the panel shows every frame', async () => {
    const ext = run.browser;
    await ext.worker.evaluate(SPY);
    const { page, tabId } = await openTabAt(ext, run.server.url);
    const COUNT = 120;
    expect(await page.evaluate(`window.__go(${COUNT})`)).toBe(COUNT);
    // Every frame twice (sent, then its echo), in that order.
    const expected = Buffer.concat(Array.from({ length: COUNT }, (_, i) => [frameBytes(i), frameBytes(i)]).flat());
    type Spy = { kinds: string[]; length: number; pending: number };
    let spy: Spy = { kinds: [], length: 0, pending: 1 };
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
      spy = (await ext.worker.evaluate(
        '({ kinds: __spy.kinds, pending: __spy.pending, length: __spy.length })',
      )) as Spy;
      if (spy.pending === 0 && spy.length >= expected.length) break;
    }
    expect(spy.length).toBe(expected.length);
    expect(await ext.worker.evaluate('__spyDigest()')).toBe(createHash('sha256').update(expected).digest('hex'));
    // The port's first hook batch may go before the probe's answer (base64, maybe split);
    // after it, a batch of 64 KiB or more is a Blob, a smaller one bytes (a Blob's fixed cost).
    const kinds = spy.kinds.map((k) => k.split(' ')).map(([kind, size]) => ({ kind: kind!, size: Number(size) }));
    const firstBlob = kinds.findIndex((k) => k.kind === 'blob');
    expect(firstBlob, spy.kinds.join(', ')).toBeGreaterThanOrEqual(0);
    for (const k of kinds.slice(firstBlob))
      expect(k.kind, spy.kinds.join(', ')).toBe(k.size >= 64 << 10 ? 'blob' : 'bytes');
    expect(kinds.filter((k) => k.kind === 'blob').length).toBeGreaterThan(5);

    const panel = await openPanelOf(ext, tabId);
    await expect
      .poll(async () => (await panel.getByTestId('frame-count').textContent())?.replace(/,/g, ''), { timeout: 20_000 })
      .toBe(`${2 * COUNT} frames`);
    expect(await panel.getByTestId('dropped-count').count()).toBe(0);
    await panel.close();
    await page.close();
  }, 90_000);
});
