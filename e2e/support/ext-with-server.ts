/**
 * A test file's browser with the extension loaded, beside the server its pages come from:
 * both started in the file's beforeAll, both closed in its afterAll (the browser first).
 * The Chromium runs load the production build (dist/chrome), the Firefox runs the test
 * build (dist/firefox-test: its hook opens the panel in a tab).
 */
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll } from 'vitest';
import {
  type ChromiumWithExtension,
  type ExtBuild,
  ensureExtensionBuild,
  launchChromiumWithExtension,
  requireBrowser,
} from './ext-env.js';
import { launchFirefox } from './ext-firefox.js';

interface Closable {
  close(): Promise<void>;
}

export interface BrowserAndServer<B, S> {
  readonly browser: B;
  readonly server: S;
  /** The extension build the browser loaded. */
  readonly dir: string;
}

/** Both started together; when one fails, the one that started is closed and the failure thrown. */
async function startBoth<A extends Closable, B extends Closable>(a: Promise<A>, b: Promise<B>): Promise<[A, B]> {
  const [first, second] = await Promise.allSettled([a, b]);
  if (first.status === 'fulfilled' && second.status === 'fulfilled') return [first.value, second.value];
  if (first.status === 'fulfilled') await first.value.close();
  if (second.status === 'fulfilled') await second.value.close();
  throw first.status === 'rejected' ? first.reason : (second as PromiseRejectedResult).reason;
}

/**
 * Registers the file's beforeAll (the build made fresh, then the browser launched on it while
 * `startServer` runs; `timeoutMs` for all of it) and afterAll. The returned object is filled
 * in by beforeAll: read it inside tests, not at the top of the file.
 */
function browserAndServerPerFile<B extends Closable, S extends Closable>(
  build: ExtBuild,
  launch: (dir: string) => Promise<B>,
  startServer: () => Promise<S>,
  timeoutMs: number,
): BrowserAndServer<B, S> {
  const started: Partial<{ -readonly [K in keyof BrowserAndServer<B, S>]: BrowserAndServer<B, S>[K] }> = {};
  beforeAll(async () => {
    requireBrowser(build.startsWith('chrome') ? 'chromium' : 'firefox');
    const dir = await ensureExtensionBuild(build);
    const [browser, server] = await startBoth(launch(dir), startServer());
    Object.assign(started, { browser, server, dir });
  }, timeoutMs);
  afterAll(async () => {
    await started.browser?.close();
    await started.server?.close();
  });
  return started as BrowserAndServer<B, S>;
}

/** Chromium with dist/chrome, and `startServer`'s server, for the tests of one file. */
export const chromiumAndServerPerFile = <S extends Closable>(
  startServer: () => Promise<S>,
  timeoutMs: number,
): BrowserAndServer<ChromiumWithExtension, S> =>
  browserAndServerPerFile('chrome', launchChromiumWithExtension, startServer, timeoutMs);

/** Firefox ESR with dist/firefox-test installed, and `startServer`'s server, for the tests of one file. */
export const firefoxAndServerPerFile = <S extends Closable>(
  startServer: () => Promise<S>,
  timeoutMs: number,
): BrowserAndServer<Browser, S> =>
  browserAndServerPerFile('firefox-test', (dir) => launchFirefox({ extension: dir }), startServer, timeoutMs);
