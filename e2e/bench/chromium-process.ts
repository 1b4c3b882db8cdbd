/**
 * A headless Chromium started as a plain process with a remote-debugging port (no driver
 * attached): for benchmarks that must not pay for an attached driver, and that open pages
 * and worlds over bare CDP themselves.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHROMIUM, CHROMIUM_ARGS, requireBrowser } from '../support/ext-env.js';

export interface ChromiumProcess {
  /** The browser's CDP WebSocket endpoint. */
  readonly endpoint: string;
  readonly child: ChildProcess;
  /** Its profile folder (the caller removes it after killing the browser). */
  readonly profile: string;
}

/** A headless Chromium, with the unpacked extension in `extDir` or without any; returns its CDP endpoint. */
export async function startChromium(
  extDir: string | null,
): Promise<{ endpoint: string; child: ChildProcess; profile: string }> {
  requireBrowser('chromium');
  const profile = mkdtempSync(path.join(os.tmpdir(), 'wirescope-bench-ext-'));
  const args = [
    '--headless',
    '--remote-debugging-port=0',
    `--user-data-dir=${profile}`,
    ...CHROMIUM_ARGS,
    // What Playwright passes to the browsers it launches: no throttling of background tabs
    // (the streaming page is behind the panel tab).
    '--disable-background-timer-throttling',
    '--disable-backgrounding-occluded-windows',
    '--disable-renderer-backgrounding',
    ...(extDir ? [`--disable-extensions-except=${extDir}`, `--load-extension=${extDir}`] : []),
    'about:blank',
  ];
  const child = spawn(CHROMIUM, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const endpoint = await new Promise<string>((resolve, reject) => {
    let err = '';
    const timer = setTimeout(
      () => reject(new Error(`Chromium printed no DevTools endpoint within 20 s:\n${err.slice(-2000)}`)),
      20_000,
    );
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString('utf8');
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.on('exit', (code) => reject(new Error(`Chromium exited (${code}) before it listened:\n${err.slice(-2000)}`)));
  });
  child.stderr!.resume();
  return { endpoint, child, profile };
}
