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
  /** `--proto file.proto` (repeatable): a Protobuf schema to read the frame with. */
  readonly protos: readonly string[];
  /** `--type pkg.Msg`: the message type (default with --proto: rank the types by fit). */
  readonly type: string | null;
  /** `--subprotocol NAME`: the connection's negotiated WebSocket subprotocol (detection evidence). */
  readonly subprotocol: string | null;
  /** `--session`: the file is a capture (HAR or wirescope): every frame, read with its connection's context. */
  readonly session: boolean;
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
  /** `--session`: the file is a capture (HAR or wirescope) and the whole session is compared. */
  readonly session: boolean;
  /** `--connection N`: with --session, one connection (1-based index or its id). */
  readonly connection: string | null;
  /** `--proto FILE` (repeatable, imports resolve among them): with --session, the schema to read binary frames with and compare against (the 'protobuf-loaded' row). */
  readonly protos: readonly string[];
  /** `--message NAME`: the message of --proto each binary frame is (default: the type that fits most frames). */
  readonly message: string | null;
  /** `--report out.md|out.html`: with --session, also write a shareable report there. */
  readonly report: string | null;
  /** `--brotli-quality N` (0–11): with --session, the brotli column's quality (default 6). */
  readonly brotliQuality: number | null;
}

export interface EncodeArgs {
  readonly command: 'encode';
  /** The input file, `-` (the default) for standard input. */
  readonly file: string;
  readonly format: 'cbor' | 'msgpack' | 'json' | 'protobuf';
  /** What the input is written in (default: edn for cbor and msgpack, json otherwise). */
  readonly from: 'edn' | 'json' | null;
  readonly output: 'raw' | 'hex' | 'base64';
  readonly protos: readonly string[];
  readonly type: string | null;
}

export type ParsedArgs =
  | InspectArgs
  | CompareArgs
  | EncodeArgs
  | { readonly command: 'help' }
  | { readonly command: 'version' }
  | { readonly command: 'usage-error'; readonly message: string };

export const USAGE = `Usage: wirescope inspect <file|-> [options]
       wirescope inspect --session <capture.har|capture.wirescope> [--json]
       wirescope encode --format cbor|msgpack|json|protobuf [--proto F ... --type M]
                        [--from edn|json] [file|-] [--output raw|hex|base64]
       wirescope compare <file|-> [--json|--markdown] [--runs N] [--codecs a,b,...]
                         [--format F] [--input I] [--text]
       wirescope compare --session <capture.har|capture.wirescope> [--connection N]
                         [--json|--markdown] [--codecs a,b,...] [--proto F ... [--message M]]
                         [--report out.md|out.html] [--brotli-quality 0-11]
       wirescope proxy --target ws(s)://host[:port][/path] [--listen 127.0.0.1:9000]
                       [--record out.wirescope] [--insecure]
       wirescope run [--record out.wirescope] [--proxy http://127.0.0.1:9000] -- node app.js ...

Decodes one frame (CBOR, MessagePack, JSON, NDJSON, text, Protobuf, socket.io,
MQTT, STOMP, Phoenix, json-joy CRDT models and patches, Yjs, Automerge), validates every byte and
prints where each field sits in the frame and what it costs.

Options:
  --format auto|cbor|msgpack|json|ndjson|text|protobuf|socketio|mqtt|stomp|phoenix|signalr|sockjs|media|crdt-model|crdt-patch|yjs|automerge
                                    decoder to use (default: auto-detect); crdt-model
                                    and crdt-patch are json-joy's binary formats,
                                    protobuf reads the wire format without a schema
  --input auto|raw|hex|base64       how the file is written (default: auto; hex may
                                    contain spaces, 0x, commas and # comments;
                                    base64url is accepted as base64)
  --depth N                         levels to index below the root (default: all)
  --json                            machine-readable output (schema in README.md)
  --diag                            diagnostic notation (EDN, RFC 8949 section 8) only,
                                    the other lines as # comments: encode reads it back
                                    to the frame's bytes (MessagePack: its edit text)
  --hex                             annotated hex dump with offsets and sizes
  --top N                           heaviest fields to list (default: 5)
  --text                            the frame was a WebSocket text frame (detection hint)
  --proto file.proto                a Protobuf schema (repeat for imports, which resolve
                                    among the files given); the frame is read as Protobuf
  --type pkg.Msg                    the message type (default: try every type of the
                                    schema and use the best fit, saying so)
  --session                         the file is a capture (HAR or wirescope): one line per
                                    frame (--json: one JSON object per line), each read
                                    with its connection's subprotocol and earlier frames
  --subprotocol NAME                the connection's negotiated Sec-WebSocket-Protocol
                                    (mqtt, v12.stomp, graphql-transport-ws, wamp.2.json,
                                    wamp.2.msgpack, centrifuge-json, ...): its format is
                                    tried first and its protocol named; never forced
  -h, --help                        this help
  --version                         print the version

encode: the bytes of an edited value, in the frame's own format. CBOR is read from EDN
(what inspect --diag prints, encoding indicators and all: unchanged, it gives back the
original bytes) or JSON; MessagePack from its edit text (inspect --diag of a MessagePack
frame: int and float widths, str/bin/ext/array/map lengths, ext, timestamps) or JSON;
JSON is the text itself; Protobuf is proto3 JSON with --proto and --type. Reads standard
input without a file; writes the raw bytes (--output hex or base64 for text). A bad
input exits 1 with line:column.

compare: what the frame's value would cost in every codec (JSON, CBOR, MessagePack,
UBJSON, Ion, BSON, json-joy CRDT codecs): size, gzip and deflate sizes, encode and decode
speed, and whether it round-trips losslessly. --runs sets the timed runs per codec
(default 5), --codecs limits the codecs: json, cbor, cbor-fast, cbor-stable, cbor-dag,
msgpack, ubjson, ion, bson, json-joy-binary, json-joy-binary-server, json-joy-compact,
json-joy-compact-binary, json-joy-verbose, json-joy-indexed, json-joy-sidecar.

compare --session: a whole capture (HAR with _webSocketMessages, or a wirescope capture)
per codec (as captured, json, cbor, msgpack; --codecs picks others), connection and
direction: message sizes, per-message gzip and deflate, and the bytes on the wire —
frame headers and permessage-deflate (RFC 7692, zlib as ws and Chromium run it) with and
without context takeover and with the negotiated parameters. --connection N keeps one
connection (1-based index or id). --proto (repeatable; imports resolve among the files
given, google/protobuf types built in) reads binary frames as --message (default: the
type that fits most frames) and adds a row re-encoding them with that schema; a schema
that does not load is a usage error. --report out.md or out.html also writes a report to
share: the totals per codec, direction and connection, the cumulative-bytes chart (SVG in
HTML) and the machine it ran on. --brotli-quality sets the brotli column's quality
(default 6, as servers compressing on the fly use; 11 is ~25 times slower).

proxy: a WebSocket reverse proxy. A client connecting to ws://127.0.0.1:9000/<path>?<query>
is relayed to the target with <path> appended to the target's path and the queries joined;
Origin, Cookie, Authorization, User-Agent and the offered subprotocols go upstream, the
negotiated subprotocol comes back. The inspector at http://127.0.0.1:9000/ shows the
connections live; --record writes a capture file as it goes; --insecure accepts a
self-signed wss:// upstream.

run: starts the command with a hook preloaded (NODE_OPTIONS --import) that captures every
WebSocket of the Node process (ws clients and servers, the global WebSocket) into
--record's file and / or the running proxy at --proxy (its inspector shows them).

Exit status: 0 the frame decodes (encode: the input encodes), 1 the frame is malformed
(encode: the input does not encode), 2 usage error.`;

export function parseArgs(argv: readonly string[]): ParsedArgs {
  if (argv.length === 0) return { command: 'usage-error', message: 'missing command' };
  if (argv.includes('-h') || argv.includes('--help')) return { command: 'help' };
  if (argv[0] === '--version') return { command: 'version' };
  if (argv[0] === 'encode') return parseEncode(argv.slice(1));
  if (argv[0] !== 'inspect' && argv[0] !== 'compare')
    return { command: 'usage-error', message: `unknown command: ${argv[0]}` };
  const inspect = argv[0] === 'inspect';
  const parsed = readOptions(argv.slice(1), inspect ? INSPECT_OPTIONS : COMPARE_OPTIONS);
  if ('error' in parsed) return { command: 'usage-error', message: parsed.error };
  const { file, values: v } = parsed;
  const input = (v.get('--input') ?? 'auto') as InspectArgs['input'];
  const format = (v.get('--format') as string | undefined) ?? 'auto';
  const text = v.has('--text');
  if (inspect) {
    if (v.has('--type') && !v.has('--proto'))
      return { command: 'usage-error', message: '--type needs --proto (the schema the type is in)' };
    const alone = ['--proto', '--diag', '--hex', '--format', '--subprotocol', '--input', '--text'].filter((o) =>
      v.has(o),
    );
    if (v.has('--session') && alone.length)
      return {
        command: 'usage-error',
        message: `--session reads each frame of a capture with its connection's context; ${alone.join(', ')} go with one frame`,
      };
    return {
      command: 'inspect',
      file,
      format,
      input,
      text,
      json: v.has('--json'),
      diag: v.has('--diag'),
      hex: v.has('--hex'),
      depth: (v.get('--depth') as number | undefined) ?? Infinity,
      top: (v.get('--top') as number | undefined) ?? 5,
      protos: (v.get('--proto') as string[] | undefined) ?? [],
      type: (v.get('--type') as string | undefined) ?? null,
      subprotocol: (v.get('--subprotocol') as string | undefined) ?? null,
      session: v.has('--session'),
    };
  }
  const codecs = v.get('--codecs') as string | undefined;
  return {
    command: 'compare',
    file,
    format,
    input,
    text,
    output: v.has('--json') ? 'json' : v.has('--markdown') ? 'markdown' : 'table',
    runs: (v.get('--runs') as number | undefined) ?? 5,
    codecs: codecs
      ? codecs
          .split(',')
          .map((c) => c.trim())
          .filter(Boolean)
      : null,
    session: v.has('--session'),
    connection: (v.get('--connection') as string | undefined) ?? null,
    protos: (v.get('--proto') as string[] | undefined) ?? [],
    message: (v.get('--message') as string | undefined) ?? null,
    report: (v.get('--report') as string | undefined) ?? null,
    brotliQuality: (v.get('--brotli-quality') as number | undefined) ?? null,
  };
}

function parseEncode(argv: readonly string[]): ParsedArgs {
  const parsed = readOptions(argv, ENCODE_OPTIONS, '-');
  if ('error' in parsed) return { command: 'usage-error', message: parsed.error };
  const { file, values: v } = parsed;
  const format = v.get('--format') as EncodeArgs['format'] | undefined;
  if (!format) return { command: 'usage-error', message: 'encode needs --format cbor, msgpack, json or protobuf' };
  const from = (v.get('--from') as EncodeArgs['from'] | undefined) ?? null;
  const protos = (v.get('--proto') as string[] | undefined) ?? [];
  const type = (v.get('--type') as string | undefined) ?? null;
  if (format === 'protobuf' && (!protos.length || type === null))
    return { command: 'usage-error', message: 'encode --format protobuf needs --proto FILE and --type pkg.Message' };
  if (format !== 'protobuf' && (protos.length || type !== null))
    return { command: 'usage-error', message: '--proto and --type go with --format protobuf' };
  if (from === 'edn' && (format === 'json' || format === 'protobuf'))
    return { command: 'usage-error', message: `--from edn is for cbor and msgpack; ${format} is written as JSON` };
  return {
    command: 'encode',
    file,
    format,
    from,
    output: (v.get('--output') as EncodeArgs['output'] | undefined) ?? 'raw',
    protos,
    type,
  };
}

/** What an option takes: nothing, any text, an integer in a range, or one of some words. */
type OptionSpec = 'flag' | 'text' | 'list' | { readonly min: number; readonly max: number } | readonly string[];

const COMMON_OPTIONS: Record<string, OptionSpec> = {
  '--format': 'text',
  '--input': ['auto', 'raw', 'hex', 'base64'],
  '--text': 'flag',
  '--json': 'flag',
};
const INSPECT_OPTIONS: Record<string, OptionSpec> = {
  ...COMMON_OPTIONS,
  '--diag': 'flag',
  '--hex': 'flag',
  '--depth': { min: 0, max: Number.MAX_SAFE_INTEGER },
  '--top': { min: 0, max: Number.MAX_SAFE_INTEGER },
  '--proto': 'list',
  '--type': 'text',
  '--subprotocol': 'text',
  '--session': 'flag',
};
const COMPARE_OPTIONS: Record<string, OptionSpec> = {
  ...COMMON_OPTIONS,
  '--markdown': 'flag',
  '--runs': { min: 1, max: 10_000 },
  '--codecs': 'text',
  '--session': 'flag',
  '--connection': 'text',
  '--proto': 'list',
  '--message': 'text',
  '--report': 'text',
  '--brotli-quality': { min: 0, max: 11 },
};

const ENCODE_OPTIONS: Record<string, OptionSpec> = {
  '--format': ['cbor', 'msgpack', 'json', 'protobuf'],
  '--from': ['edn', 'json'],
  '--output': ['raw', 'hex', 'base64'],
  '--proto': 'list',
  '--type': 'text',
};

/** Reads `--flag`, `--opt value`, `--opt=value` and one input file (`-` = stdin; `defaultFile` when none is given). */
function readOptions(
  args: readonly string[],
  spec: Record<string, OptionSpec>,
  defaultFile?: string,
): { file: string; values: Map<string, string | number | true | string[]> } | { error: string } {
  const values = new Map<string, string | number | true | string[]>();
  let file: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const flag = eq > 0 ? a.slice(0, eq) : a;
    const kind = spec[flag];
    if (kind === undefined) {
      if (a !== '-' && a.startsWith('-')) return { error: `unknown option: ${a}` };
      if (file !== undefined) return { error: `only one input file, got ${file} and ${a}` };
      file = a;
      continue;
    }
    if (kind === 'flag') {
      values.set(flag, true);
      continue;
    }
    const v = eq > 0 ? a.slice(eq + 1) : args[++i];
    if (kind === 'text' || kind === 'list') {
      if (!v) return { error: `${flag} needs a value` };
      if (kind === 'list') values.set(flag, [...((values.get(flag) as string[] | undefined) ?? []), v]);
      else values.set(flag, v);
    } else if (Array.isArray(kind)) {
      if (!v || !kind.includes(v))
        return {
          error: `${flag} must be ${kind.slice(0, -1).join(', ')} or ${kind[kind.length - 1]}, not ${v ?? 'nothing'}`,
        };
      values.set(flag, v);
    } else {
      const { min, max } = kind as { min: number; max: number };
      const n = Number(v);
      if (!v || !Number.isInteger(n) || n < min || n > max)
        return {
          error: `${flag} needs an integer from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ' up'}, not ${v ?? 'nothing'}`,
        };
      values.set(flag, n);
    }
  }
  file ??= defaultFile;
  if (file === undefined) return { error: 'missing input file (use - for standard input)' };
  return { file, values };
}
