/**
 * Where the built inspector app (dist/app) and the hook bundle (dist/cli/hook.js) are: found
 * by walking up from this module, which runs from source (proxy/) or from the CLI bundle
 * (dist/cli/).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export function repoRootFrom(moduleUrl: string): string | null {
  let dir = path.dirname(fileURLToPath(moduleUrl));
  for (;;) {
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'dist'))) return dir;
    const up = path.dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

export function builtAppDir(moduleUrl: string = import.meta.url): string | null {
  const root = repoRootFrom(moduleUrl);
  const dir = root ? path.join(root, 'dist', 'app') : null;
  return dir && existsSync(path.join(dir, 'index.html')) ? dir : null;
}

export function builtHookFile(moduleUrl: string = import.meta.url): string | null {
  const root = repoRootFrom(moduleUrl);
  const file = root ? path.join(root, 'dist', 'cli', 'hook.js') : null;
  return file && existsSync(file) ? file : null;
}
