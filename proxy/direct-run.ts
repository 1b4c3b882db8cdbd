/**
 * What `node dist/cli/wirescope.js …` needs to run the bundle itself rather than only export
 * the CLI for bin/wirescope.js: whether this module is the script Node was started with, and
 * the package's version (bin/wirescope.js reads it from package.json; so does this).
 */
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Whether the module at `moduleUrl` is the script `node` ran (not a module something imported). */
export function isDirectRun(moduleUrl: string, script: string | undefined = process.argv[1]): boolean {
  if (!script) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}

/** The version in the nearest wirescope package.json above the module (dist/cli/ → the repository's). */
export function packageVersion(moduleUrl: string): string {
  let dir = dirname(fileURLToPath(moduleUrl));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'wirescope' && pkg.version) return pkg.version;
    } catch {
      // No package.json here: look further up.
    }
    const parent = dirname(dir);
    if (parent === dir) return 'unknown';
    dir = parent;
  }
}
