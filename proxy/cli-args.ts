/**
 * Arguments of `wirescope proxy` and `wirescope run`. A mistake is one line saying what is
 * wrong (the CLI exits 2 with it).
 */
export interface ProxyArgs {
  readonly command: 'proxy';
  readonly target: URL;
  readonly host: string;
  readonly port: number;
  readonly record: string | null;
  readonly insecure: boolean;
}

export interface RunArgs {
  readonly command: 'run';
  readonly record: string | null;
  readonly proxy: string | null;
  /** The command to start and its arguments. */
  readonly argv: readonly string[];
}

export const PROXY_USAGE =
  'wirescope proxy --target ws(s)://host[:port][/path] [--listen 127.0.0.1:9000] [--record out.wirescope] [--insecure]';
export const RUN_USAGE = 'wirescope run [--record out.wirescope] [--proxy http://127.0.0.1:9000] -- node app.js ...';

type Parsed<T> = T | { readonly error: string };

/** Splits `--opt value` / `--opt=value`; flags listed in `flags` take no value. */
function readPairs(
  argv: readonly string[],
  valued: readonly string[],
  flags: readonly string[],
): Parsed<{ values: Map<string, string>; flags: Set<string> }> {
  const values = new Map<string, string>();
  const set = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const name = eq > 0 ? a.slice(0, eq) : a;
    if (flags.includes(name) && eq < 0) {
      set.add(name);
      continue;
    }
    if (!valued.includes(name)) return { error: `unknown argument: ${a}` };
    const value = eq > 0 ? a.slice(eq + 1) : argv[++i];
    if (value === undefined || value === '') return { error: `${name} needs a value` };
    values.set(name, value);
  }
  return { values, flags: set };
}

export function parseProxyArgs(argv: readonly string[]): Parsed<ProxyArgs> {
  const read = readPairs(argv, ['--target', '--listen', '--record'], ['--insecure']);
  if ('error' in read) return read;
  const targetText = read.values.get('--target');
  if (!targetText) return { error: 'missing --target (the ws:// or wss:// server to proxy to)' };
  let target: URL;
  try {
    target = new URL(targetText);
  } catch {
    return { error: `--target ${targetText} is not a URL (expected ws://host[:port][/path] or wss://...)` };
  }
  if (target.protocol !== 'ws:' && target.protocol !== 'wss:')
    return { error: `--target must be a ws:// or wss:// URL, not ${target.protocol}//` };
  const listen = read.values.get('--listen') ?? '127.0.0.1:9000';
  const match = /^(?:\[([^\]]+)\]|([^:]*)):(\d+)$/.exec(listen) ?? /^()()(\d+)$/.exec(listen);
  const port = match ? Number(match[3]) : NaN;
  if (!match || !Number.isInteger(port) || port < 0 || port > 65535)
    return { error: `--listen ${listen} is not host:port (e.g. 127.0.0.1:9000)` };
  return {
    command: 'proxy',
    target,
    host: match[1] || match[2] || '127.0.0.1',
    port,
    record: read.values.get('--record') ?? null,
    insecure: read.flags.has('--insecure'),
  };
}

export function parseRunArgs(argv: readonly string[]): Parsed<RunArgs> {
  const dashes = argv.indexOf('--');
  const own = dashes < 0 ? argv : argv.slice(0, dashes);
  const command = dashes < 0 ? [] : argv.slice(dashes + 1);
  const read = readPairs(own, ['--record', '--proxy'], []);
  if ('error' in read) return read;
  if (command.length === 0) return { error: 'missing the command to run after -- (e.g. -- node app.js)' };
  const record = read.values.get('--record') ?? null;
  const proxy = read.values.get('--proxy') ?? null;
  if (!record && !proxy) return { error: 'give --record FILE, --proxy URL or both (where the traffic goes)' };
  if (proxy) {
    let url: URL;
    try {
      url = new URL(proxy);
    } catch {
      return { error: `--proxy ${proxy} is not a URL (e.g. http://127.0.0.1:9000)` };
    }
    if (!['http:', 'ws:'].includes(url.protocol))
      return { error: `--proxy must be the running proxy's http:// or ws:// address, not ${url.protocol}//` };
  }
  return { command: 'run', record, proxy, argv: command };
}
