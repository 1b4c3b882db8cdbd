import { main, type CliIo } from '../../cli/main.js';

/** Runs `wirescope` in-process on named in-memory files; stdout and stderr as strings. */
export function runCli(argv: string[], files: Record<string, Uint8Array | string> = {}) {
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
  const code = main(argv, io);
  /** What `encode` wrote, as bytes. */
  const stdoutBytes = Uint8Array.from(bytes.flatMap((b) => Array.from(b)));
  return { code, stdout, stderr, stdoutBytes };
}

/** Runs `wirescope` in-process on `bytes` (whatever file it names) and waits for it (compare is async). */
export async function runCliOn(argv: string[], bytes: Uint8Array) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { out: (t) => (stdout += t), err: (t) => (stderr += t), readFile: () => bytes, version: 'test' };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}
