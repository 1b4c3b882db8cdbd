// Bundle entry for bin/wirescope.js: the codecs CLI plus the live commands, which need Node
// sockets (`ws`) and so live here, above codecs/, rather than inside it.
import { main as codecsMain, nodeIo, type CliIo } from '../codecs/cli/main.js';
import { proxyCommand, runCommand } from './commands.js';
import { isDirectRun, packageVersion } from './direct-run.js';

export { nodeIo } from '../codecs/cli/main.js';

/** `wirescope`: `proxy` and `run` parse their own arguments (a mistake is one line); the rest is the codecs CLI. */
export function main(argv: readonly string[], io: CliIo): number | Promise<number> {
  const asksHelp = (args: readonly string[]) => args.some((a) => a === '-h' || a === '--help');
  if (argv[0] === 'proxy' && !asksHelp(argv)) return proxyCommand(argv.slice(1), io);
  if (argv[0] === 'run' && !asksHelp(argv.slice(0, Math.max(0, argv.indexOf('--')))))
    return runCommand(argv.slice(1), io);
  return codecsMain(argv, io);
}

// `node dist/cli/wirescope.js inspect f.cbor` runs the bundle itself: the same CLI as
// bin/wirescope.js, which imports it (and so is the script, not this module).
if (isDirectRun(import.meta.url))
  process.exitCode = await main(process.argv.slice(2), nodeIo(packageVersion(import.meta.url)));
