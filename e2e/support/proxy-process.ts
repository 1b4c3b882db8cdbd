/**
 * `wirescope proxy` as a user starts it (bin/wirescope.js, built by npm run build:cli), on a
 * free port; resolves once it prints its addresses.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { REPO } from './env.js';

export interface ProxyProcess {
  readonly child: ChildProcess;
  /** ws://127.0.0.1:port/ */
  readonly ws: string;
  /** http://127.0.0.1:port/ — the inspector page. */
  readonly http: string;
  readonly stderr: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function startProxyProcess(args: readonly string[]): Promise<ProxyProcess> {
  const child = spawn(
    process.execPath,
    [path.join(REPO, 'bin/wirescope.js'), 'proxy', '--listen', '127.0.0.1:0', ...args],
    {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => {
    err += d;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`wirescope proxy exited ${code}: ${err}`)));
    child.stdout!.on('data', (d) => {
      out += d;
      const ws = /(ws:\/\/\S+) →/.exec(out)?.[1];
      const http = /inspector at (http:\/\/\S+)/.exec(out)?.[1];
      if (ws && http)
        resolve({
          child,
          ws,
          http,
          stderr: () => err,
          stop: (signal = 'SIGINT') => {
            child.kill(signal);
            return exited;
          },
        });
    });
  });
}
