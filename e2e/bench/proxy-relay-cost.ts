/**
 * What relaying costs the proxy per frame: C connections each keep W messages of S bytes in
 * flight to a `ws` echo upstream (its own process) through `wirescope proxy --record` (its
 * own process), N round trips each; the proxy's CPU (user + system, /proc) over the frames it
 * relayed (2 per round trip). With `--against DIR` (another checkout with its CLI built) the
 * two proxies run interleaved (this, that, this, that …), so the machine's load hits both
 * alike; the line is the median of each, side by side, with the load generator's wall time.
 *
 *   npm run build:cli && npx tsx e2e/bench/proxy-relay-cost.ts [--runs 5] [--connections 20]
 *     [--messages 5000] [--window 32] [--size 128] [--against ../other-checkout]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const againstAt = process.argv.indexOf('--against');
const against = againstAt > 0 ? path.resolve(process.argv[againstAt + 1]!) : null;
const runs = arg('--runs', 5);
const connections = arg('--connections', 20);
const messages = arg('--messages', 5000);
const window = arg('--window', 32);
const size = arg('--size', 128);

function lineFrom(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const m = pattern.exec(text);
      if (m) {
        child.stdout!.off('data', onData);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited (${code}) before printing ${pattern}: ${text}`)));
  });
}

const cpuTicks = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
};

/** Every connection keeps `window` messages in flight until it had `messages` echoes. */
async function drive(url: string): Promise<number> {
  const payload = Buffer.alloc(size, 7);
  const t0 = performance.now();
  await Promise.all(
    Array.from(
      { length: connections },
      () =>
        new Promise<void>((resolve, reject) => {
          const ws = new WebSocket(url, { perMessageDeflate: false });
          let sent = 0;
          let echoed = 0;
          ws.on('error', reject);
          ws.on('open', () => {
            for (; sent < Math.min(window, messages); sent++) ws.send(payload);
          });
          ws.on('message', () => {
            if (sent < messages) ws.send(payload), sent++;
            if (++echoed === messages) ws.close(), resolve();
          });
        }),
    ),
  );
  return performance.now() - t0;
}

async function once(
  checkout: string,
  upstreamPort: string,
  dir: string,
): Promise<{ usPerFrame: number; wallMs: number }> {
  const proxy = spawn(
    process.execPath,
    [
      path.join(checkout, 'bin/wirescope.js'),
      'proxy',
      '--target',
      `ws://127.0.0.1:${upstreamPort}`,
      '--listen',
      '127.0.0.1:0',
      '--record',
      path.join(dir, 'relay.wirescope'),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    const url = await lineFrom(proxy, /(ws:\/\/\S+) →/);
    const before = cpuTicks(proxy.pid!);
    const wallMs = await drive(url);
    const ticks = cpuTicks(proxy.pid!) - before;
    return { usPerFrame: (ticks * 10_000) / (connections * messages * 2), wallMs };
  } finally {
    proxy.kill('SIGINT');
    await new Promise((resolve) => proxy.once('exit', resolve));
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const echo = spawn(process.execPath, [path.join(here, 'proxy-load-echo.mjs')], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const dir = mkdtempSync(path.join(tmpdir(), 'wirescope-relay-cost-'));
try {
  const port = await lineFrom(echo, /port (\d+)/);
  const checkouts = against ? [repo, against] : [repo];
  const results = checkouts.map(() => [] as { usPerFrame: number; wallMs: number }[]);
  await once(repo, port, dir); // warm the file cache
  for (let r = 0; r < runs; r++)
    for (let c = 0; c < checkouts.length; c++) results[c]!.push(await once(checkouts[c]!, port, dir));
  console.log(
    `proxy relay cost: ${runs} runs × ${connections} connections × ${messages} round trips of ${size} B, ${window} in flight each, recording on; load average ${loadavg()[0].toFixed(1)}`,
  );
  checkouts.forEach((checkout, c) => {
    const rs = results[c]!;
    console.log(
      `${path.relative(process.cwd(), checkout) || '.'}: proxy CPU per relayed frame median ${median(rs.map((x) => x.usPerFrame)).toFixed(1)} µs (runs ${rs.map((x) => x.usPerFrame.toFixed(1)).join(', ')}); load generator wall ${(median(rs.map((x) => x.wallMs)) / 1000).toFixed(1)} s`,
    );
  });
} finally {
  echo.kill();
  rmSync(dir, { recursive: true, force: true });
}
