/** Command-line parsing for `wirescope`: small and strict; unknown flags are usage errors. */
export interface InspectArgs {
  readonly command: 'inspect';
  readonly file: string;
  readonly format: string;
  readonly input: 'auto' | 'raw' | 'hex' | 'base64';
  readonly json: boolean;
  readonly diag: boolean;
  readonly hex: boolean;
  readonly depth: number;
  readonly top: number;
  readonly text: boolean;
}

export interface CompareArgs {
  readonly command: 'compare';
  readonly file: string;
  readonly format: string;
  readonly input: 'auto' | 'raw' | 'hex' | 'base64';
  readonly output: 'table' | 'markdown' | 'json';
  readonly runs: number;
  readonly codecs: readonly string[] | null;
  readonly text: boolean;
}

export type ParsedArgs =
  | InspectArgs
  | CompareArgs
  | { readonly command: 'help' }
  | { readonly command: 'version' }
  | { readonly command: 'usage-error'; readonly message: string };

export const USAGE = `Usage: wirescope inspect <file|-> [options]
       wirescope compare <file|-> [--json|--markdown] [--runs N] [--codecs a,b,...]
                         [--format F] [--input I] [--text]

Decodes one frame (CBOR, MessagePack, JSON, json-joy CRDT models and patches),
validates every byte and prints
where each field sits in the frame and what it costs.

Options:
  --format auto|cbor|msgpack|json|crdt-model|crdt-patch
                                    decoder to use (default: auto-detect); crdt-model
                                    and crdt-patch are json-joy's binary formats
  --input auto|raw|hex|base64       how the file is written (default: auto; hex may
                                    contain spaces, 0x, commas and # comments;
                                    base64url is accepted as base64)
  --depth N                         levels to index below the root (default: all)
  --json                            machine-readable output (schema in README.md)
  --diag                            diagnostic notation (EDN, RFC 8949 section 8)
  --hex                             annotated hex dump with offsets and sizes
  --top N                           heaviest fields to list (default: 5)
  --text                            the frame was a WebSocket text frame (detection hint)
  -h, --help                        this help
  --version                         print the version

compare: what the frame's value would cost in every codec (JSON, CBOR, MessagePack,
UBJSON, Ion, BSON, json-joy CRDT codecs): size, gzip and deflate sizes, encode and decode
speed, and whether it round-trips losslessly. --runs sets the timed runs per codec
(default 5), --codecs limits the codecs: json, cbor, cbor-fast, cbor-stable, cbor-dag,
msgpack, ubjson, ion, bson, json-joy-binary, json-joy-binary-server, json-joy-compact,
json-joy-compact-binary, json-joy-verbose, json-joy-indexed, json-joy-sidecar.

Exit status: 0 the frame decodes, 1 the frame is malformed, 2 usage error.`;

export function parseArgs(argv: readonly string[]): ParsedArgs {
  if (argv.length === 0) return { command: 'usage-error', message: 'missing command' };
  if (argv.includes('-h') || argv.includes('--help')) return { command: 'help' };
  if (argv[0] === '--version') return { command: 'version' };
  if (argv[0] === 'compare') return parseCompare(argv);
  if (argv[0] !== 'inspect') return { command: 'usage-error', message: `unknown command: ${argv[0]}` };
  let file: string | undefined;
  let format = 'auto';
  let input: InspectArgs['input'] = 'auto';
  let json = false;
  let diag = false;
  let hex = false;
  let text = false;
  let depth = Infinity;
  let top = 5;
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = (): string | undefined => inline ?? argv[++i];
    switch (flag) {
      case '--format': {
        const v = value();
        if (!v) return { command: 'usage-error', message: '--format needs a value' };
        format = v;
        break;
      }
      case '--input': {
        const v = value();
        if (v !== 'auto' && v !== 'raw' && v !== 'hex' && v !== 'base64') return { command: 'usage-error', message: `--input must be auto, raw, hex or base64, not ${v ?? 'nothing'}` };
        input = v;
        break;
      }
      case '--depth':
      case '--top': {
        const v = value();
        const n = Number(v);
        if (!v || !Number.isInteger(n) || n < 0) return { command: 'usage-error', message: `${flag} needs a non-negative integer, not ${v ?? 'nothing'}` };
        if (flag === '--depth') depth = n;
        else top = n;
        break;
      }
      case '--json':
        json = true;
        break;
      case '--diag':
        diag = true;
        break;
      case '--hex':
        hex = true;
        break;
      case '--text':
        text = true;
        break;
      default:
        if (a !== '-' && a.startsWith('-')) return { command: 'usage-error', message: `unknown option: ${a}` };
        if (file !== undefined) return { command: 'usage-error', message: `only one input file, got ${file} and ${a}` };
        file = a;
    }
  }
  if (file === undefined) return { command: 'usage-error', message: 'missing input file (use - for standard input)' };
  return { command: 'inspect', file, format, input, json, diag, hex, depth, top, text };
}

function parseCompare(argv: readonly string[]): ParsedArgs {
  let file: string | undefined;
  let format = 'auto';
  let input: CompareArgs['input'] = 'auto';
  let output: CompareArgs['output'] = 'table';
  let runs = 5;
  let codecs: string[] | null = null;
  let text = false;
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = (): string | undefined => inline ?? argv[++i];
    switch (flag) {
      case '--json':
        output = 'json';
        break;
      case '--markdown':
        output = 'markdown';
        break;
      case '--text':
        text = true;
        break;
      case '--runs': {
        const v = value();
        const n = Number(v);
        if (!v || !Number.isInteger(n) || n < 1 || n > 10_000) return { command: 'usage-error', message: `--runs needs an integer from 1 to 10000, not ${v ?? 'nothing'}` };
        runs = n;
        break;
      }
      case '--codecs': {
        const v = value();
        if (!v) return { command: 'usage-error', message: '--codecs needs a comma-separated list' };
        codecs = v.split(',').map((c) => c.trim()).filter(Boolean);
        break;
      }
      case '--format': {
        const v = value();
        if (!v) return { command: 'usage-error', message: '--format needs a value' };
        format = v;
        break;
      }
      case '--input': {
        const v = value();
        if (v !== 'auto' && v !== 'raw' && v !== 'hex' && v !== 'base64') return { command: 'usage-error', message: `--input must be auto, raw, hex or base64, not ${v ?? 'nothing'}` };
        input = v;
        break;
      }
      default:
        if (a !== '-' && a.startsWith('-')) return { command: 'usage-error', message: `unknown option: ${a}` };
        if (file !== undefined) return { command: 'usage-error', message: `only one input file, got ${file} and ${a}` };
        file = a;
    }
  }
  if (file === undefined) return { command: 'usage-error', message: 'missing input file (use - for standard input)' };
  return { command: 'compare', file, format, input, output, runs, codecs, text };
}
