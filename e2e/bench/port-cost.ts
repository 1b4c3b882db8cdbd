/**
 * `npx tsx e2e/bench/port-cost.ts`: what `chrome.runtime` port messaging costs the sending
 * renderer, the floor under the extension's page cost (docs/BENCHMARKS.md, bench:ext).
 *
 * Chromium with the production build (dist/chrome) opens a page; over bare CDP the script
 * evaluates, in the extension's content-script world of that page (where the relay runs), a
 * loop that posts one `{ type, payload }` message of N bytes on a runtime port, as the relay
 * does, and times the synchronous `postMessage` call. The isolated world's clock is coarse
 * (100 µs), so each sample times a group of posts; groups are spaced so the extension drains
 * them. Payloads: Uint8Array, ArrayBuffer and a string of the same length. The background
 * ignores the port (its name is not the relay's). Prints µs per post and ns per byte, and a
 * least-squares fit (fixed µs per post + ns per byte) over the Uint8Array rows.
 */
import { rmSync } from 'node:fs';
import { ensureExtensionBuild } from '../support/ext-env.js';
import { connectCdp } from './cdp-targets.js';
import { startChromium } from './chromium-process.js';
import { startFloodServer } from './ext-bench-server.js';

const SIZES = [16 << 10, 64 << 10, 256 << 10, 1 << 20];

const extDir = await ensureExtensionBuild('chrome');
const server = await startFloodServer();
const chromium = await startChromium(extDir);
const cdp = await connectCdp(chromium.endpoint);
try {
  const worlds: { id: number; name: string; auxData?: { type?: string } }[] = [];
  cdp.on('Runtime.executionContextCreated', (p: { context: (typeof worlds)[number] }) => worlds.push(p.context));
  const send = cdp.send;
  await new Promise((r) => setTimeout(r, 1000)); // the extension's service worker starts
  const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
  await send('Runtime.enable', {}, sessionId);
  await send('Page.navigate', { url: `${server.httpUrl}flood.html` }, sessionId);
  let world: (typeof worlds)[number] | undefined;
  for (let i = 0; i < 50 && !world; i++) {
    await new Promise((r) => setTimeout(r, 100));
    world = worlds.filter((w) => w.auxData?.type === 'isolated' && w.name === 'wirescope').pop();
  }
  if (!world) throw new Error("the extension's content-script world never appeared (is dist/chrome loaded?)");
  const expression = `(async () => {
    const port = chrome.runtime.connect({ name: 'wirescope-port-cost' });
    const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
    const rows = [];
    for (const size of ${JSON.stringify(SIZES)}) {
      const bytes = new Uint8Array(size);
      for (let i = 0; i < size; i++) bytes[i] = (i * 31) & 0xff;
      const text = 'x'.repeat(size);
      for (const kind of ['Uint8Array', 'ArrayBuffer', 'string']) {
        const payload = kind === 'Uint8Array' ? bytes : kind === 'ArrayBuffer' ? bytes.buffer : text;
        const perGroup = Math.max(2, Math.round((4 << 20) / size));
        const samples = [];
        for (let g = 0; g < 7; g++) {
          const t0 = performance.now();
          for (let k = 0; k < perGroup; k++) port.postMessage({ type: 'port-cost', payload });
          samples.push((performance.now() - t0) / perGroup);
          await sleep(150);
        }
        samples.sort((a, b) => a - b);
        rows.push({ kind, size, msPerPost: samples[samples.length >> 1] });
      }
    }
    port.disconnect();
    return rows;
  })()`;
  const { result } = await send(
    'Runtime.evaluate',
    { expression, contextId: world.id, returnByValue: true, awaitPromise: true },
    sessionId,
  );
  const rows = result.value as { kind: string; size: number; msPerPost: number }[];
  for (const r of rows)
    console.log(
      `${r.kind.padEnd(11)} ${String(r.size).padStart(8)} B: ${(r.msPerPost * 1000).toFixed(0).padStart(6)} µs per post, ${((r.msPerPost * 1e6) / r.size).toFixed(2)} ns per byte`,
    );
  const fit = rows.filter((r) => r.kind === 'Uint8Array');
  const n = fit.length;
  const mx = fit.reduce((s, r) => s + r.size, 0) / n;
  const my = fit.reduce((s, r) => s + r.msPerPost * 1000, 0) / n;
  const slope =
    fit.reduce((s, r) => s + (r.size - mx) * (r.msPerPost * 1000 - my), 0) /
    fit.reduce((s, r) => s + (r.size - mx) ** 2, 0);
  console.log(
    `fit (Uint8Array): ${(my - slope * mx).toFixed(0)} µs per post + ${(slope * 1000).toFixed(2)} ns per byte`,
  );
} finally {
  cdp.close();
  chromium.child.kill();
  await server.close();
  await new Promise((r) => setTimeout(r, 200));
  rmSync(chromium.profile, { recursive: true, force: true });
}
