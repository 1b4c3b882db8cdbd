/**
 * The setup most browser tests share: Chromium and a demo server that serves the built app
 * on an ephemeral port, started together once per test file (prerequisites checked first:
 * a missing build or browser fails loudly, never skips).
 */
import type { Browser } from 'playwright-core';
import { startDemoServer, type DemoServer, type DemoServerOptions } from '../../demo-server/server.js';
import { APP_DIR, checkPrerequisites, launchChromium } from './env.js';

export interface DemoAndChromium {
  readonly browser: Browser;
  readonly server: DemoServer;
}

/** Chromium and a demo server with `traffic` (its port and static directory are this helper's). */
export async function startDemoAndChromium(
  traffic: Omit<DemoServerOptions, 'port' | 'staticDir'>,
): Promise<DemoAndChromium> {
  checkPrerequisites();
  const [browser, server] = await Promise.all([
    launchChromium(),
    startDemoServer({ port: 0, staticDir: APP_DIR, ...traffic }),
  ]);
  return { browser, server };
}

/** Closes what startDemoAndChromium started (either may be missing when the start failed). */
export async function closeDemoAndChromium(
  browser: Browser | undefined,
  server: DemoServer | undefined,
): Promise<void> {
  await browser?.close();
  await server?.close();
}
