/**
 * The hook's cost per message: the same app (hook-bench-app.mjs: a ws client sending 1 KB
 * messages to a ws server in the same process, so each message is recorded twice, as the
 * client's sent and the server's received frame) run unhooked and under `wirescope run
 * --record`, interleaved (A B A B …) so machine load hits both alike. CPU time is the app
 * process's own (process.cpuUsage, user + system, first send to exit including the hook's
 * final write); the figure is the median over runs of (hooked − unhooked) / messages.
 *
 * A run is 200,000 messages by default: a 20,000-message run lasts about 0.3 s of CPU, most of
 * it before V8 has optimized ws's code and the hook's, so it measures warm-up more than the
 * hook (such runs gave 2–4× the steady figure). `--dir` is where the recordings go (default:
 * the OS temp folder); its file system is printed, since the page-cache write of the bytes is
 * part of the cost (tmpfs and a disk differ).
 *
 *   npm run build:cli && npx tsx proxy/bench/hook-bench.ts [--runs 7] [--messages 200000] [--size 1024] [--dir D]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const runs = arg('--runs', 7);
const messages = arg('--messages', 200_000);
const size = arg('--size', 1024);
const dirAt = process.argv.indexOf('--dir');
const dir = mkdtempSync(
  path.join(dirAt > 0 ? path.resolve(process.argv[dirAt + 1]!) : tmpdir(), 'wirescope-hook-bench-'),
);
const fileSystem = (() => {
  const out = spawnSync('df', ['--output=fstype', dir], { encoding: 'utf8' });
  return out.status === 0 ? (out.stdout.trim().split('\n')[1] ?? '?') : '?';
})();
const appFile = path.join(here, 'hook-bench-app.mjs');

interface Result {
  readonly cpuUs: number;
  readonly wallMs: number;
}

function once(hooked: boolean, i: number): Result {
  const app = [process.execPath, appFile, String(messages), String(size)];
  const args = hooked
    ? [path.join(repo, 'bin/wirescope.js'), 'run', '--record', path.join(dir, `run-${i}.wirescope`), '--', ...app]
    : app.slice(1);
  const out = spawnSync(process.execPath, args, { cwd: repo, encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`bench app failed: ${out.stderr}`);
  return JSON.parse(out.stdout.trim().split('\n').at(-1)!) as Result;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

once(false, -1); // warm the file cache
const plain: Result[] = [];
const hooked: Result[] = [];
for (let i = 0; i < runs; i++) {
  plain.push(once(false, i));
  hooked.push(once(true, i));
}
rmSync(dir, { recursive: true, force: true });
const perMessage = (r: Result) => r.cpuUs / messages;
const diffs = plain.map((p, i) => perMessage(hooked[i]) - perMessage(p));
const wallDiffs = plain.map((p, i) => ((hooked[i].wallMs - p.wallMs) * 1000) / messages);
const fmt = (n: number) => n.toFixed(2);
console.log(
  `hook bench: ${runs} interleaved runs × ${messages} messages of ${size} B (ws client → ws server, one process); recording to ${dir} (${fileSystem}); load average ${loadavg()[0].toFixed(1)}`,
);
console.log(`unhooked CPU per message:  median ${fmt(median(plain.map(perMessage)))} µs`);
console.log(`hooked CPU per message:    median ${fmt(median(hooked.map(perMessage)))} µs`);
console.log(
  `hook cost per message:     median ${fmt(median(diffs))} µs CPU (${fmt(median(diffs) / 2)} µs per recorded frame; runs: ${diffs.map(fmt).join(', ')})`,
);
console.log(`hook cost per message:     median ${fmt(median(wallDiffs))} µs wall`);
