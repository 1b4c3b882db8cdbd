/**
 * Where the browser tests find what they need, and one Chromium launch for all of them.
 * Missing prerequisites fail loudly (never a silent skip).
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The built app; `WIRESCOPE_APP_DIR` points elsewhere (e.g. a private build while others rebuild dist/). */
export const APP_DIR = path.resolve(REPO, process.env.WIRESCOPE_APP_DIR ?? 'dist/app');
export const CHROMIUM = process.env.WIRESCOPE_CHROMIUM ?? '/usr/bin/chromium';
export const ARTIFACTS = path.join(REPO, 'e2e/artifacts');
export const APPENDIX_A = path.resolve(REPO, '../shared/test-vectors/cbor-appendix-a.json');

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Throws with what to do when the app build or Chromium is missing. */
export function checkPrerequisites(appDir: string = APP_DIR): void {
  for (const page of ['index.html', 'paste.html', 'panel.html']) {
    if (!existsSync(path.join(appDir, page))) {
      throw new Error(
        `e2e: ${path.join(appDir, page)} is missing. Build the app first: npm run build:app (npm test does it before vitest).`,
      );
    }
  }
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `e2e: no Chromium at ${CHROMIUM}. Install it (Debian: apt-get install chromium) or set WIRESCOPE_CHROMIUM to its path; the tests use playwright-core with a system browser, not Playwright's downloads.`,
    );
  }
}

export function launchChromium(appDir: string = APP_DIR): Promise<Browser> {
  checkPrerequisites(appDir);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

export function artifactPath(name: string): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  return path.join(ARTIFACTS, name);
}
