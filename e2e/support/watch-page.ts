/** What a page must never do during a test: log a console error, throw, or fail a request. */
import type { Page } from 'playwright-core';

export interface PageWatch {
  /** Console errors, uncaught exceptions and failed / 4xx-5xx requests, in order. */
  readonly problems: string[];
}

export function watchPage(page: Page): PageWatch {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} (${r.failure()?.errorText ?? '?'})`));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  return { problems };
}
