#!/usr/bin/env node
// The CLI is bundled from proxy/cli-entry.ts (codecs/cli plus the live commands) by `npm run build:cli` (run by `npm ci`/`npm install`
// through the prepare script, and before `npm test`).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const pkg = JSON.parse(readFileSync(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8'));
let cli;
try {
  cli = await import('../dist/cli/wirescope.js');
} catch (e) {
  process.stderr.write(`wirescope: the CLI is not built (${e.code ?? e.message}); run: npm run build:cli\n`);
  process.exit(2);
}
process.exitCode = await cli.main(process.argv.slice(2), cli.nodeIo(pkg.version));
