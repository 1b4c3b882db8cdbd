import { main, type CliIo } from '../../cli/main.js';

/** What a run wrote: stdout and stderr as strings, what `encode` wrote as bytes. */
interface CliOutput {
  readonly stdout: string;
  readonly stderr: string;
  readonly stdoutBytes: Uint8Array;
}

/** An in-memory CliIo on named files (a missing one is ENOENT) and what the run writes through it. */
function memoryIo(files: Record<string, Uint8Array | string>): { io: CliIo; output: () => CliOutput } {
  let stdout = '';
  let stderr = '';
  const bytes: Uint8Array[] = [];
  const io: CliIo = {
    out: (t) => (stdout += t),
    outBytes: (b) => bytes.push(b),
    err: (t) => (stderr += t),
    readFile: (p) => {
      const f = files[p];
      if (f === undefined) throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
      return typeof f === 'string' ? new TextEncoder().encode(f) : f;
    },
    version: 'test',
  };
  const output = () => ({ stdout, stderr, stdoutBytes: Uint8Array.from(bytes.flatMap((b) => Array.from(b))) });
  return { io, output };
}

/** Runs `wirescope` in-process on named in-memory files; stdout and stderr as strings. */
export function runCli(argv: string[], files: Record<string, Uint8Array | string> = {}) {
  const { io, output } = memoryIo(files);
  const code = main(argv, io);
  return { code, ...output() };
}

/** Runs `wirescope` in-process on named in-memory files and waits for it (compare is async). */
export async function runCliAsync(argv: string[], files: Record<string, Uint8Array | string> = {}) {
  const { io, output } = memoryIo(files);
  const code = await main(argv, io);
  return { code, ...output() };
}

/** Runs `wirescope` in-process on `bytes` (whatever file it names) and waits for it (compare is async). */
export async function runCliOn(argv: string[], bytes: Uint8Array) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { out: (t) => (stdout += t), err: (t) => (stderr += t), readFile: () => bytes, version: 'test' };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}
