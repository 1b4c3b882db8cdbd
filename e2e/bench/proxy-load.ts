/**
 * Load through `wirescope proxy` (loopback): C connections each sending R messages/s for
 * S seconds to an echo upstream, first directly (the baseline) and then through the proxy
 * with --record on. Every echo is checked: same bytes, in order, none missing. Reports
 * round-trip latency percentiles of both runs (the proxy's added p99 is the difference),
 * the proxy's peak RSS (sampled each second from /proc) and the recording's frame count.
 * Bounded: each run stops after S seconds plus at most 60 s of draining (echoes not back by
 * then count as not echoed), and the whole bench after 2 S + 180 s.
 *
 *   npm run build:cli && npm run build:app
 *   npx tsx e2e/bench/proxy-load.ts [--connections 1000] [--rate 100] [--seconds 60] [--size 128]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { parseCapture } from '../../codecs/capture/capture-file.js';
import { captureLinesHeader } from '../../codecs/capture/capture-lines.js';
import type { WireFrame } from '../../codecs/capture/types.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const connections = arg('--connections', 1000);
const rate = arg('--rate', 100);
const seconds = arg('--seconds', 60);
const size = Math.max(16, arg('--size', 128));
const TICK_MS = 10;

function lineFrom(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = pattern.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code} before printing ${pattern}`)));
  });
}

const rssKiB = (pid: number): number => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
};

/** The message: connection (u32), sequence (u32), send time (f64 ms), then bytes derived from both. */
function message(conn: number, seq: number): Buffer {
  const b = Buffer.allocUnsafe(size);
  b.writeUInt32LE(conn, 0);
  b.writeUInt32LE(seq, 4);
  b.writeDoubleLE(performance.now(), 8);
  for (let i = 16; i < size; i++) b[i] = (conn + seq * 31 + i) & 255;
  return b;
}

interface RunResult {
  readonly sent: number;
  readonly received: number;
  readonly bad: number;
  readonly latencies: Float64Array;
  readonly cpu: NodeJS.CpuUsage;
  readonly wallMs: number;
  readonly achievedRate: number;
}

async function run(url: string, label: string, sample?: () => void): Promise<RunResult> {
  const sockets: WebSocket[] = [];
  const nextExpected = new Uint32Array(connections);
  const nextSeq = new Uint32Array(connections);
  let bad = 0;
  let received = 0;
  const latencies = new Float64Array(connections * rate * seconds + 16);
  let opened = 0;
  await Promise.all(
    Array.from({ length: connections }, (_, conn) => {
      const ws = new WebSocket(url, { perMessageDeflate: false });
      sockets.push(ws);
      ws.binaryType = 'nodebuffer';
      ws.on('message', (data: Buffer) => {
        const c = data.readUInt32LE(0);
        const seq = data.readUInt32LE(4);
        let ok = c === conn && seq === nextExpected[conn] && data.length === size;
        for (let i = 16; ok && i < size; i++) ok = data[i] === ((conn + seq * 31 + i) & 255);
        if (!ok) bad++;
        nextExpected[conn] = seq + 1;
        if (received < latencies.length) latencies[received] = performance.now() - data.readDoubleLE(8);
        received++;
      });
      ws.on('error', () => bad++);
      return new Promise<void>((resolve) =>
        ws.once('open', () => {
          opened++;
          resolve();
        }),
      );
    }),
  );
  console.error(`${label}: ${opened} connections open; sending ${rate} msg/s each for ${seconds} s`);
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  let sent = 0;
  // Each tick sends what the schedule owes by now, so a late tick catches up (the rate holds on average).
  await new Promise<void>((resolve) => {
    let lastSample = start;
    const tick = () => {
      const elapsed = performance.now() - start;
      const due = Math.min(rate * seconds, Math.floor((elapsed / 1000) * rate));
      for (let conn = 0; conn < connections; conn++) {
        while (nextSeq[conn] < due) {
          sockets[conn].send(message(conn, nextSeq[conn]++));
          sent++;
        }
      }
      if (sample && performance.now() - lastSample >= 1000) {
        lastSample = performance.now();
        sample();
      }
      if (due >= rate * seconds) resolve();
      else setTimeout(tick, TICK_MS);
    };
    tick();
  });
  const sendEnd = performance.now();
  const drainUntil = sendEnd + 60_000;
  while (received < sent && performance.now() < drainUntil) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    sample?.();
  }
  const wallMs = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  for (const ws of sockets) ws.close();
  return {
    sent,
    received,
    bad,
    latencies: latencies.subarray(0, Math.min(received, latencies.length)),
    cpu,
    wallMs,
    achievedRate: sent / ((sendEnd - start) / 1000),
  };
}

/** Every recorded frame is a message the generator made (bytes derived from connection and sequence), in sequence per connection and direction. */
/** Checks frames as they are read: bytes derived from connection and sequence, sequences in order per direction. */
function recordingChecker() {
  const next = new Map<string, number>();
  const totals = { frames: 0, intact: 0, bad: 0, clientBytes: 0, upstreamBytes: 0, withLegs: 0 };
  const add = (frames: readonly WireFrame[]): void => {
    for (const fr of frames) {
      totals.frames++;
      const d = fr.data;
      const view = Buffer.from(d.buffer, d.byteOffset, d.byteLength);
      const conn = d.length >= 16 ? view.readUInt32LE(0) : -1;
      const seq = d.length >= 16 ? view.readUInt32LE(4) : -1;
      const key = `${fr.connectionId} ${fr.direction}`;
      let ok = d.length === size && seq === (next.get(key) ?? 0);
      for (let i = 16; ok && i < size; i++) ok = d[i] === ((conn + seq * 31 + i) & 255);
      next.set(key, seq + 1);
      if (ok) totals.intact++;
      else totals.bad++;
      if (fr.legBytes) {
        totals.withLegs++;
        totals.clientBytes += fr.legBytes.client ?? 0;
        totals.upstreamBytes += fr.legBytes.upstream ?? 0;
      }
    }
  };
  return { add, totals };
}

/**
 * Reads a line-layout recording in pieces of 64 MiB (the load records gigabytes, more
 * than one string or buffer holds): each piece cut at its last line end and parsed behind the
 * header and the connection lines seen so far.
 */
function checkRecordingFile(file: string) {
  const checker = recordingChecker();
  const connectionLines: string[] = [];
  let errors = 0;
  const fd = openSync(file, 'r');
  const buffer = Buffer.allocUnsafe(64 * 1024 * 1024);
  let carry = '';
  let first = true;
  for (;;) {
    const n = readSync(fd, buffer, 0, buffer.length, null);
    const text = carry + buffer.toString('utf8', 0, n);
    const cut = n === 0 ? text.length : text.lastIndexOf('\n') + 1;
    carry = text.slice(cut);
    let body = text.slice(0, cut);
    if (first) body = body.slice(body.indexOf('\n') + 1);
    first = false;
    const parsed = parseCapture(captureLinesHeader() + connectionLines.join('') + body);
    errors += parsed.errors.length;
    checker.add(parsed.frames);
    for (const line of body.split('\n')) if (line.startsWith('{"connection"')) connectionLines.push(`${line}\n`);
    if (n === 0) break;
  }
  closeSync(fd);
  return { ...checker.totals, connections: connectionLines.length, errors };
}

const pct = (xs: Float64Array, p: number) => {
  const s = Float64Array.from(xs).sort();
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};

const echo = spawn(process.execPath, [path.join(here, 'proxy-load-echo.mjs')], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const dir = mkdtempSync(path.join(tmpdir(), 'wirescope-load-'));
const record = path.join(dir, 'load.wirescope');
let proxy: ChildProcess | null = null;
const hardStop = setTimeout(
  () => {
    console.error('proxy-load: stopped by its own time limit');
    echo.kill();
    proxy?.kill();
    process.exit(1);
  },
  (seconds * 2 + 180) * 1000,
);
try {
  const port = await lineFrom(echo, /port (\d+)/);
  const direct = await run(`ws://127.0.0.1:${port}/`, 'direct');
  proxy = spawn(
    process.execPath,
    [
      path.join(repo, 'bin/wirescope.js'),
      'proxy',
      '--target',
      `ws://127.0.0.1:${port}`,
      '--listen',
      '127.0.0.1:0',
      '--record',
      record,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const proxyUrl = await lineFrom(proxy, /(ws:\/\/\S+) →/);
  const pid = proxy.pid!;
  const rss: number[] = [rssKiB(pid)];
  const proxyCpu0 = readFileSync(`/proc/${pid}/stat`, 'utf8').split(' ');
  const proxied = await run(proxyUrl, 'through the proxy', () => rss.push(rssKiB(pid)));
  const proxyCpu1 = readFileSync(`/proc/${pid}/stat`, 'utf8').split(' ');
  const ticks = (s: string[]) => Number(s[13]) + Number(s[14]);
  const proxyCpuS = (ticks(proxyCpu1) - ticks(proxyCpu0)) / 100;
  await new Promise((resolve) => setTimeout(resolve, 500));
  proxy.kill('SIGINT');
  await new Promise((resolve) => proxy!.once('exit', resolve));
  const recorded = checkRecordingFile(record);
  const f = (n: number) => n.toFixed(2);
  const line = (label: string, r: RunResult) =>
    `${label}: sent ${r.sent}, echoed ${r.received}, altered/out of order ${r.bad}, rate achieved ${Math.round(r.achievedRate)} msg/s (asked ${connections * rate}); round trip p50 ${f(pct(r.latencies, 50))} ms, p99 ${f(pct(r.latencies, 99))} ms, max ${f(pct(r.latencies, 100))} ms; load generator CPU ${f((r.cpu.user + r.cpu.system) / 1e6)} s in ${f(r.wallMs / 1000)} s wall`;
  console.log(
    `proxy load bench: ${connections} connections × ${rate} msg/s × ${seconds} s, ${size} B binary messages, loopback, recording on`,
  );
  console.log(line('direct', direct));
  console.log(line('through the proxy', proxied));
  console.log(
    `added by the proxy: p50 ${f(pct(proxied.latencies, 50) - pct(direct.latencies, 50))} ms, p99 ${f(pct(proxied.latencies, 99) - pct(direct.latencies, 99))} ms`,
  );
  console.log(
    `proxy process: CPU ${f(proxyCpuS)} s, RSS start ${Math.round(rss[0] / 1024)} MiB, peak ${Math.round(Math.max(...rss) / 1024)} MiB, end ${Math.round(rss.at(-1)! / 1024)} MiB (sampled each second)`,
  );
  console.log(
    `recording: ${recorded.frames} frames (every message and its echo: ${2 * proxied.sent}), ${recorded.connections} connections, ${recorded.errors} errors; checked: ${recorded.intact} intact and in order per connection and direction, ${recorded.bad} altered or out of order, ${2 * proxied.sent - recorded.frames} missing`,
  );
  console.log(
    `wire bytes recorded per leg: client ${recorded.clientBytes.toLocaleString('en-US')} B, upstream ${recorded.upstreamBytes.toLocaleString('en-US')} B (${recorded.withLegs} frames measured)`,
  );
} finally {
  clearTimeout(hardStop);
  echo.kill('SIGTERM');
  proxy?.kill();
  rmSync(dir, { recursive: true, force: true });
}
