/**
 * The WebAssembly SIMD UTF-8 validator (codecs/core/utf8-wasm/) where it must run: in the
 * web inspector's decode worker (dist/app, no CSP), and in the extension's pages and the
 * decode worker they start, in Chromium (production build,
 * dist/chrome) and Firefox ESR (test build, dist/firefox-test), whose extension CSP allows
 * 'wasm-unsafe-eval' (root manifest.json) and nothing like eval. The module is compiled
 * and run there as the validator does (synchronously); a page whose CSP lacks
 * 'wasm-unsafe-eval' is refused, which is why the manifest says it (and where the codecs
 * fall back to the JS validator, codecs/core/utf8-wasm.test.ts).
 * Fails (never skips) without the browsers or a buildable extension.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser as ChromiumBrowser, Page as ChromiumPage, Worker as ChromiumWorker } from 'playwright-core';
import type { DemoServer } from '../demo-server/server.js';
import { closeDemoAndChromium, startDemoAndChromium } from './support/demo-chromium.js';
import { UTF8_VALIDATE_WASM } from '../codecs/core/utf8-wasm/utf8-validate-bytes.js';
import { openPanelOf } from './support/ext-env.js';
import { openPanelTab } from './support/ext-firefox.js';
import { conversation } from './support/ext-fixtures.js';
import { startCaptureServer } from './support/ext-server.js';
import { chromiumAndServerPerFile, firefoxAndServerPerFile } from './support/ext-with-server.js';

/**
 * An expression that compiles the validator, validates "é" then a surrogate, and gives what
 * happened: 'valid -1, invalid 0' when it runs, else the error's name and message.
 */
const RUN_VALIDATOR = `(() => {
  try {
    const instance = new WebAssembly.Instance(new WebAssembly.Module(new Uint8Array(${JSON.stringify(Array.from(UTF8_VALIDATE_WASM))})));
    const heap = new Uint8Array(instance.exports.memory.buffer);
    heap.set([0xc3, 0xa9, 0xed, 0xa0, 0x80]);
    return 'valid ' + instance.exports.validate(0, 2) + ', invalid ' + instance.exports.validate(0, 5);
  } catch (e) {
    return e.name + ': ' + e.message;
  }
})()`;
const RUNS = 'valid -1, invalid 0';

/** A local page served with the CSP `policy`. */
function startCspServer(policy: string): Promise<{ readonly url: string; close(): Promise<void> }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'content-security-policy': policy });
    res.end('<!doctype html><title>csp</title>');
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
        close: () => new Promise<void>((r) => server.close(() => r())),
      }),
    ),
  );
}

describe('Chromium: the extension (dist/chrome) runs the SIMD validator', () => {
  const run = chromiumAndServerPerFile(() => startCspServer("script-src 'self'"), 60_000);

  it('in the panel page and in its decode worker', async () => {
    let workerStarted: Promise<ChromiumWorker | null> = Promise.resolve(null);
    const panel: ChromiumPage = await openPanelOf(run.browser, 1, {
      beforeLoad: (panel) => {
        workerStarted = panel.waitForEvent('worker', { timeout: 10_000 }).catch(() => null);
      },
      waitForFrameCount: true,
    });
    expect(await panel.evaluate(RUN_VALIDATOR)).toBe(RUNS);
    const worker: ChromiumWorker | null =
      panel.workers().find((w) => w.url().includes('decode-worker')) ?? (await workerStarted);
    expect(worker?.url()).toContain('decode-worker');
    expect(await worker!.evaluate(RUN_VALIDATOR)).toBe(RUNS);
    await panel.close();
  }, 30_000);

  it('where a page CSP lacks wasm-unsafe-eval, compiling is refused (the codecs then use the JS validator)', async () => {
    const page = await run.browser.context.newPage();
    await page.goto(run.server.url);
    expect(await page.evaluate(RUN_VALIDATOR)).toMatch(/^CompileError: .*(Content Security Policy|unsafe-eval)/);
    await page.close();
  }, 30_000);
});

describe('Firefox: the extension (dist/firefox-test) runs the SIMD validator', () => {
  const run = firefoxAndServerPerFile(() => startCaptureServer(conversation()), 60_000);

  it('in the panel page', async () => {
    const page = await run.browser.newPage();
    await page.goto(`${run.server.httpUrl}api.html`);
    const panel = await openPanelTab(run.browser, page);
    expect(await panel.evaluate(RUN_VALIDATOR)).toBe(RUNS);
    await panel.close();
    await page.close();
  }, 45_000);
});

describe('Chromium: the web inspector (dist/app) runs the SIMD validator', () => {
  let browser: ChromiumBrowser;
  let server: DemoServer;

  beforeAll(async () => {
    ({ browser, server } = await startDemoAndChromium({ messagesPerSecond: 1, largeEvery: 0, seed: 3 }));
  }, 30_000);

  afterAll(() => closeDemoAndChromium(browser, server));

  it('in its decode worker', async () => {
    const page = await browser.newPage();
    const workerStarted = page.waitForEvent('worker', { timeout: 10_000 }).catch(() => null);
    await page.goto(server.httpUrl);
    const worker: ChromiumWorker | null =
      page.workers().find((w) => w.url().includes('decode-worker')) ?? (await workerStarted);
    expect(worker?.url()).toContain('decode-worker');
    expect(await worker!.evaluate(RUN_VALIDATOR)).toBe(RUNS);
    await page.close();
  }, 30_000);
});
