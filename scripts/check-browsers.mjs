#!/usr/bin/env node
/**
 * Run first by `npm test`: the e2e suites need Chromium and Firefox ESR from the system
 * (browser downloads do not work everywhere). Without them the full run would take ~90 s
 * and then fail three files; this stops within a second and prints the one line to fix it.
 * The paths are the ones e2e/support reads (WIRESCOPE_CHROMIUM / WIRESCOPE_FIREFOX override).
 */
import { accessSync, constants } from 'node:fs';
import { pathToFileURL } from 'node:url';

export const INSTALL_LINE = 'sudo apt-get install -y chromium firefox-esr';

/** The browsers the e2e suites start, by the path they use. */
export function browserPaths(env) {
  return [
    { name: 'Chromium', path: env.WIRESCOPE_CHROMIUM ?? '/usr/bin/chromium' },
    { name: 'Firefox ESR', path: env.WIRESCOPE_FIREFOX ?? '/usr/bin/firefox-esr' },
  ];
}

/** Default probe: an executable file at that path. */
export function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The missing browsers and the message to print ('' when nothing is missing). */
export function checkBrowsers(env, exists = isExecutable) {
  const missing = browserPaths(env).filter((b) => !exists(b.path));
  if (!missing.length) return { missing, message: '' };
  const list = missing.map((b) => `${b.name} (${b.path})`).join(' and ');
  return {
    missing,
    message: `npm test needs ${list} for the browser tests. Install them with:\n\n  ${INSTALL_LINE}\n\n(or point WIRESCOPE_CHROMIUM / WIRESCOPE_FIREFOX at other binaries)`,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { message } = checkBrowsers(process.env);
  if (message) {
    console.error(message);
    process.exit(1);
  }
}
