/**
 * What an intercept rule that matches nothing costs the page per frame: the hook on a jsdom
 * window with the tests' fake WebSocket, frames sent (`ws.send` of a 64-byte Uint8Array)
 * and received (a 64-byte ArrayBuffer dispatched as a message) with no rule, then with a
 * Pause rule on both directions whose text appears in no frame, in interleaved rounds
 * (A B A B …) on the same socket. Per frame: process CPU (process.cpuUsage) and wall time;
 * the line is the median over rounds of B − A.
 *
 *   npx tsx extension/hook/bench/intercept-bench.ts [--rounds 15] [--frames 20000]
 */
import { loadavg } from 'node:os';
import { JSDOM } from 'jsdom';
import { installHook } from '../install.js';
import { makeFakeWebSocket, recordPosts, type FakeWebSocketClass } from '../test/fake-websocket.js';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const rounds = arg('--rounds', 15);
const frames = arg('--frames', 20_000);

const dom = new JSDOM('<!doctype html>', { url: 'https://page.test/' });
const win = dom.window as unknown as Window & typeof globalThis;
const Native = makeFakeWebSocket(win);
Object.defineProperty(win, 'WebSocket', { value: Native, writable: true, configurable: true });
const posts = recordPosts(win);
const hook = installHook(win, { trustedEventsOnly: false, channelSecret: '' });
if (!hook.installed) throw new Error('the hook did not install');
const WS = win.WebSocket as unknown as FakeWebSocketClass;
const ws = new WS('wss://feed.test/socket');
ws.binaryType = 'arraybuffer';
ws.open();
let received = 0;
ws.addEventListener('message', () => received++);

const pause = {
  type: 'hook-rules',
  rules: [{ id: 'r', direction: 'both', url: '', contains: 'never-in-any-frame', action: 'pause', delayMs: 0 }],
};
const none = { type: 'hook-rules', rules: [] };
const payload = new Uint8Array(64).map((_, i) => (i * 7) & 0xff);

function run(withRule: boolean, path: 'send' | 'receive'): { cpuNs: number; wallNs: number } {
  posts.toHook(withRule ? pause : none);
  (ws.sent as unknown[]).length = 0;
  posts.posts.length = 0;
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  if (path === 'send') for (let i = 0; i < frames; i++) ws.send(payload);
  else for (let i = 0; i < frames; i++) ws.deliver(payload);
  hook.flush();
  const wall = Number(process.hrtime.bigint() - t0);
  const cpu = process.cpuUsage(cpu0);
  return { cpuNs: ((cpu.user + cpu.system) * 1000) / frames, wallNs: wall / frames };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
};

{
  const loadBefore = loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
  for (const path of ['send', 'receive'] as const) {
    run(false, path); // warm-up
    run(true, path);
    const a: { cpuNs: number; wallNs: number }[] = [];
    const b: { cpuNs: number; wallNs: number }[] = [];
    for (let r = 0; r < rounds; r++) {
      a.push(run(false, path));
      b.push(run(true, path));
    }
    const diffCpu = median(a.map((x, i) => b[i]!.cpuNs - x.cpuNs));
    const diffWall = median(a.map((x, i) => b[i]!.wallNs - x.wallNs));
    console.log(
      `${path.padEnd(7)} no rule ${median(a.map((x) => x.cpuNs)).toFixed(0)} ns CPU / ${median(a.map((x) => x.wallNs)).toFixed(0)} ns wall per frame; ` +
        `non-matching Pause rule ${median(b.map((x) => x.cpuNs)).toFixed(0)} / ${median(b.map((x) => x.wallNs)).toFixed(0)}; ` +
        `added (median of paired rounds) ${diffCpu.toFixed(0)} ns CPU, ${diffWall.toFixed(0)} ns wall`,
    );
  }
  if (received === 0) throw new Error('nothing received');
  console.log(
    `frames per run ${frames}, rounds ${rounds}; load average before ${loadBefore}, after ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
}
