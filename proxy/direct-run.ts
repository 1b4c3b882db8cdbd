/**
 * What `node dist/cli/wirescope.js …` needs to run the bundle itself rather than only export
 * the CLI for bin/wirescope.js: whether this module is the script Node was started with, and
 * the package's version (bin/wirescope.js reads it from package.json; so does this).
 */
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { repoRootFrom } from './app-dir.js';

/** Whether the module at `moduleUrl` is the script `node` ran (not a module something imported). */
export function isDirectRun(moduleUrl: string, script: string | undefined = process.argv[1]): boolean {
  if (!script) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}

/** The repository's package version (dist/cli/ → its package.json), or 'unknown'. */
export function packageVersion(moduleUrl: string): string {
  const root = repoRootFrom(moduleUrl);
  try {
    return root
      ? ((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown')
      : 'unknown';
  } catch {
    return 'unknown';
  }
}
