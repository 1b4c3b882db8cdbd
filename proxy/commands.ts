/**
 * `wirescope proxy` and `wirescope run` as CLI commands: argument mistakes and a port in
 * use are one line and exit 2; otherwise they run until stopped (proxy: SIGINT / SIGTERM)
 * or until the command ends (run: its exit status is wirescope's).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { builtAppDir, builtHookFile } from './app-dir.js';
import { parseProxyArgs, parseRunArgs, PROXY_USAGE, RUN_USAGE } from './cli-args.js';
import { openFileSink } from './file-sink.js';
import { type CaptureStream, streamCaptureToProxy } from './run-stream.js';
import { type RunningProxy, startProxy } from './start-proxy.js';

export interface LiveIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

export async function proxyCommand(argv: readonly string[], io: LiveIo): Promise<number> {
  const args = parseProxyArgs(argv);
  if ('error' in args) {
    io.err(`wirescope proxy: ${args.error} (usage: ${PROXY_USAGE})\n`);
    return 2;
  }
  let sink: ReturnType<typeof openFileSink> | null = null;
  if (args.record) {
    try {
      sink = openFileSink(args.record);
    } catch (e) {
      io.err(
        `wirescope proxy: cannot write ${args.record}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`,
      );
      return 2;
    }
  }
  const appDir = builtAppDir();
  let running: RunningProxy;
  try {
    running = await startProxy({
      target: args.target,
      host: args.host,
      port: args.port,
      insecure: args.insecure,
      sink,
      appDir,
      warn: (line) => io.err(`${line}\n`),
    });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === 'EADDRINUSE'
        ? 'the port is in use'
        : code === 'EACCES'
          ? 'permission denied'
          : (code ?? (e as Error).message);
    io.err(`wirescope proxy: cannot listen on ${args.host}:${args.port}: ${why}\n`);
    return 2;
  }
  const wsUrl = running.url.replace(/^http/, 'ws');
  io.out(`wirescope proxy: ${wsUrl} → ${args.target.href}\n`);
  io.out(`wirescope proxy: inspector at ${running.url}${appDir ? '' : ' (not built: run npm run build:app)'}\n`);
  if (args.record) io.out(`wirescope proxy: recording to ${args.record}\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await running.stop();
  sink?.close();
  return 0;
}

export async function runCommand(argv: readonly string[], io: LiveIo): Promise<number> {
  const args = parseRunArgs(argv);
  if ('error' in args) {
    io.err(`wirescope run: ${args.error} (usage: ${RUN_USAGE})\n`);
    return 2;
  }
  const hook = builtHookFile();
  if (!hook) {
    io.err('wirescope run: the hook is not built: run npm run build:cli\n');
    return 2;
  }
  const env = { ...process.env };
  env.NODE_OPTIONS = `${env.NODE_OPTIONS ? `${env.NODE_OPTIONS} ` : ''}--import=${pathToFileURL(hook).href}`;
  // The hook writes a capture file; with --proxy, wirescope streams that file to the proxy
  // (a file of its own when there is no --record), so the app's process never encodes for the feed.
  const spoolDir = args.record ? null : mkdtempSync(path.join(tmpdir(), 'wirescope-run-'));
  const file = args.record ?? path.join(spoolDir!, 'spool.wirescope');
  env.WIRESCOPE_RECORD = file;
  const child = spawn(args.argv[0], args.argv.slice(1), { stdio: 'inherit', env });
  const stream: CaptureStream | null = args.proxy
    ? streamCaptureToProxy({ file, proxy: args.proxy, warn: (line) => io.err(`${line}\n`) })
    : null;
  let finished: Promise<void> | null = null;
  const finish = (): Promise<void> =>
    (finished ??= (async () => {
      await stream?.finish();
      if (spoolDir) rmSync(spoolDir, { recursive: true, force: true });
    })());
  // A signal sent to wirescope alone (`kill <pid>`, a supervisor) goes on to the app, and
  // wirescope ends when the app does. A terminal's Ctrl+C or hangup already reaches the app
  // (same process group): with a terminal attached, SIGINT and SIGHUP are not sent again.
  const terminal = Boolean(process.stdin.isTTY || process.stdout.isTTY || process.stderr.isTTY);
  const forward = (signal: NodeJS.Signals): void => {
    if (terminal && signal !== 'SIGTERM') return;
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  const forwarded = FORWARDED_SIGNALS.map((signal) => [signal, () => forward(signal)] as const);
  for (const [signal, handler] of forwarded) process.on(signal, handler);
  const stopForwarding = (): void => {
    for (const [signal, handler] of forwarded) process.off(signal, handler);
  };
  return new Promise((resolve) => {
    child.once('error', (e: NodeJS.ErrnoException) => {
      io.err(`wirescope run: cannot start ${args.argv[0]}: ${e.code ?? e.message}\n`);
      stopForwarding();
      void finish().then(() => resolve(2));
    });
    child.once('exit', (code, signal) => {
      stopForwarding();
      void finish().then(() => resolve(code ?? (signal ? 128 + signalNumber(signal) : 1)));
    });
  });
}

const FORWARDED_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

function signalNumber(signal: NodeJS.Signals): number {
  const numbers: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };
  return numbers[signal] ?? 0;
}
