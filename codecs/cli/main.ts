import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, arch, release, type } from 'node:os';
import type { MachineInfo } from '../compare/session/report.js';
import { parseArgs, USAGE, type CompareArgs, type EncodeArgs, type InspectArgs } from './args.js';
import { compare } from './compare.js';
import { encode } from './encode.js';
import { inspect } from './inspect.js';
import { inspectSession } from './inspect-session.js';
import { readSchema } from './proto-schema.js';
import type { LoadedSchema } from '../protobuf/schema/load.js';

/**
 * `wirescope` entry point. Exit status: 0 the frame decodes (encode: the edit encodes), 1 it
 * is malformed (encode: the edit does not encode), 2 usage error (bad flags, unreadable file,
 * input text that is not the forced encoding).
 */
export function main(argv: readonly string[], io: CliIo): number | Promise<number> {
  const args = parseArgs(argv);
  switch (args.command) {
    case 'help':
      io.out(USAGE + '\n');
      return 0;
    case 'version':
      io.out(`wirescope ${io.version}\n`);
      return 0;
    case 'usage-error':
      io.err(`wirescope: ${args.message}\n\n${USAGE}\n`);
      return 2;
    case 'inspect':
      return runInspect(args, io);
    case 'compare':
      return runCompare(args, io);
    case 'encode':
      return runEncode(args, io);
  }
}

function runEncode(args: EncodeArgs, io: CliIo): number {
  if (!io.outBytes) {
    io.err('wirescope: encode: this host cannot write bytes\n');
    return 2;
  }
  const input = readInput(args, io);
  if (!input) return 2;
  const { raw, loaded } = input;
  const result = encode(raw, args, loaded?.schema ?? null, args.file === '-' ? 'stdin' : args.file);
  if (result.stderr) io.err(result.stderr);
  if (result.stdout.length) io.outBytes(result.stdout);
  return result.code;
}

async function runCompare(args: CompareArgs, io: CliIo): Promise<number> {
  const input = readInput(args, io);
  if (!input) return 2;
  const { raw, loaded } = input;
  const result = await compare(raw, args, io.err, loaded ?? undefined, io.machine?.());
  io.out(result.stdout);
  if (result.stderr) io.err(result.stderr);
  if (result.report) {
    if (!io.writeFile) {
      io.err('wirescope: --report: this host cannot write files\n');
      return 2;
    }
    try {
      io.writeFile(result.report.path, result.report.text);
    } catch (e) {
      io.err(
        `wirescope: cannot write ${result.report.path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`,
      );
      return 2;
    }
    io.err(`wirescope: report written to ${result.report.path}\n`);
  }
  return result.code;
}

/**
 * The input file and the `--proto` files (loaded as `inspect --proto` loads them: imports
 * among them, google/protobuf built in), or null when either cannot be read or loaded — a
 * usage error, said on stderr.
 */
function readInput(
  args: { readonly file: string; readonly protos: readonly string[] },
  io: CliIo,
): { raw: Uint8Array; loaded: { schema: LoadedSchema; text: string } | null } | null {
  let raw: Uint8Array;
  try {
    raw = io.readFile(args.file);
  } catch (e) {
    io.err(`wirescope: cannot read ${args.file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`);
    return null;
  }
  const loaded = args.protos.length ? readSchema(args.protos, io.readFile) : null;
  if (loaded && 'error' in loaded) {
    io.err(`wirescope: ${loaded.error}\n`);
    return null;
  }
  return { raw, loaded };
}

export interface CliIo {
  readonly out: (text: string) => void;
  /** Bytes as they are: `encode`'s output (absent: encode cannot write). */
  readonly outBytes?: (bytes: Uint8Array) => void;
  readonly err: (text: string) => void;
  readonly readFile: (path: string) => Uint8Array;
  readonly version: string;
  /** `--report` writes through this (absent: reports cannot be written). */
  readonly writeFile?: (path: string, text: string) => void;
  /** The machine a report names (absent: "unknown"). */
  readonly machine?: () => MachineInfo;
}

function runInspect(args: InspectArgs, io: CliIo): number {
  const input = readInput(args, io);
  if (!input) return 2;
  const { raw, loaded } = input;
  const result = args.session ? inspectSession(raw, args) : inspect(raw, args, loaded?.schema ?? null);
  if (result.usageError) {
    io.err(`wirescope: ${result.usageError}\n`);
    return 2;
  }
  if (typeof result.stdout === 'string') io.out(result.stdout);
  else for (const chunk of result.stdout) io.out(chunk);
  if (result.stderr) io.err(result.stderr);
  return result.malformed ? 1 : 0;
}

export const nodeIo = (version: string): CliIo => {
  endQuietlyOnClosedPipe(process.stdout);
  endQuietlyOnClosedPipe(process.stderr);
  return {
    out: (t) => process.stdout.write(t),
    outBytes: (b) => process.stdout.write(b),
    err: (t) => process.stderr.write(t),
    readFile: (path) => (path === '-' ? new Uint8Array(readFileSync(0)) : new Uint8Array(readFileSync(path))),
    writeFile: (path, text) => writeFileSync(path, text),
    machine: () => ({
      runtime: `Node ${process.version}`,
      os: `${type()} ${release()} ${arch()}`,
      cores: cpus().length || null,
    }),
    version,
  };
};

/**
 * `wirescope inspect big.cbor | head -c 100`: once the reader has closed the pipe, the rest
 * of the output has nowhere to go. Node reports that as an `EPIPE` error event, which
 * unhandled printed a stack trace and exited 1; a Unix tool just stops, so exit 0 at once,
 * saying nothing. Other stream errors are real and keep Node's default report.
 */
function endQuietlyOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
}
