/**
 * A test file's browser with the extension loaded, beside the server its pages come from:
 * both started in the file's beforeAll, both closed in its afterAll (the browser first).
 * The Chromium runs load the production build (dist/chrome) unless they ask for the test
 * build, the Firefox runs the test build (dist/firefox-test: its hook opens the panel in a tab).
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

/** All started at once; when one fails, the ones that started are closed and the first failure thrown. */
async function startAll(starts: readonly Promise<Closable>[]): Promise<Closable[]> {
  const settled = await Promise.allSettled(starts);
  const started = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (!failed) return started;
  for (const s of started) await s.close();
  throw failed.reason;
}

/** Both started together; when one fails, the one that started is closed and the failure thrown. */
const startBoth = async <A extends Closable, B extends Closable>(a: Promise<A>, b: Promise<B>): Promise<[A, B]> =>
  (await startAll([a, b])) as [A, B];

/**
 * Several servers for one file, started together: resolves with them by name and a close() that
 * closes them all in that order. When one fails to start, the ones that started are closed and
 * the failure thrown. For a file whose pages come from more than one server.
 */
export async function startTogether<T extends Record<string, Closable>>(
  starts: {
    readonly [K in keyof T]: () => Promise<T[K]>;
  },
): Promise<T & Closable> {
  const names = Object.keys(starts) as (keyof T & string)[];
  const servers = await startAll(names.map((name) => starts[name]()));
  const byName = Object.fromEntries(names.map((name, i) => [name, servers[i]])) as T;
  return {
    ...byName,
    close: async () => {
      for (const s of servers) await s.close();
    },
  };
}

/**
 * Registers the beforeAll (the build made fresh, then the browser launched on it while
 * `startServer` runs; `timeoutMs` for all of it) and afterAll of the file, or of the describe
 * block it is called in. The returned object is filled in by beforeAll: read it inside tests,
 * not at the top of the file.
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

/**
 * Chromium with the extension, and `startServer`'s server, for the tests of one file (or of the
 * describe block it is called in). `build` is dist/chrome unless told: dist/chrome-test has the
 * `debugger` permission granted up front.
 */
export const chromiumAndServerPerFile = <S extends Closable>(
  startServer: () => Promise<S>,
  timeoutMs: number,
  build: 'chrome' | 'chrome-test' = 'chrome',
): BrowserAndServer<ChromiumWithExtension, S> =>
  browserAndServerPerFile(build, launchChromiumWithExtension, startServer, timeoutMs);

/** Firefox ESR with dist/firefox-test installed, and `startServer`'s server, for the tests of one file (or describe block). */
export const firefoxAndServerPerFile = <S extends Closable>(
  startServer: () => Promise<S>,
  timeoutMs: number,
): BrowserAndServer<Browser, S> =>
  browserAndServerPerFile('firefox-test', (dir) => launchFirefox({ extension: dir }), startServer, timeoutMs);
