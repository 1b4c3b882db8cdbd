/**
 * `npx tsx e2e/bench/stream-cost.ts --ext-dir A [--ext-dir B …] [--runs N] [--seconds S] [--rate R] [--profile]`:
 * what the capture path costs the page's own renderer at ~1 KB frames (bench:ext's stream:
 * bench:ui's frames and server, `--rate` frames/s for `--seconds`), no panel open. One
 * headless Chromium per extension build; each run streams, in turn for every build, to a page
 * in the extension's context and to one in a second context of the same browser (where
 * extensions do not run). Printed per stream: frames the page had when sending ended, and the
 * CPU (from /proc) of the page renderer's main thread and IO thread while sending, in µs per
 * frame received — steadier under load than the frame count. Builds alternate within a run,
 * so load swings hit them alike. `--profile`: a V8 sampling profile of the page with the
 * extension, self time by function (build unminified for names).
 */
import os from 'node:os';
import path from 'node:path';
import { rmSync } from 'node:fs';
import { chromium, type BrowserContext } from 'playwright-core';
import { startChromium } from './chromium-process.js';
import { connectCdp } from './cdp-targets.js';
import { bareStreamCost, extensionWorker } from './bare-stream.js';
import { startBenchServer } from './bench-server.js';
import { startFloodServer } from './ext-bench-server.js';
import { framePool } from './payloads.js';
import { procAvailable, threadSnapshot, threadsBetween } from './proc-cpu.js';

const argv = process.argv.slice(2);
const option = (name: string, fallback: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1]! : fallback);
const extDirs = argv.flatMap((a, i) => (a === '--ext-dir' ? [path.resolve(argv[i + 1]!)] : []));
const RUNS = Number(option('--runs', '3'));
const SECONDS = Number(option('--seconds', '3'));
const RATE = Number(option('--rate', '10000'));
const PROFILE = argv.includes('--profile');
/** `--trace`: a Chrome trace of the first run's pages (with and without the extension): the page renderer main thread's time by trace event (inclusive), top 25. */
const TRACE = argv.includes('--trace');
/**
 * `--bare`: the pages are opened and read over a bare CDP connection that never enables the
 * Network domain (cdp-targets.ts), in a browser with the extension and one without, instead
 * of through Playwright: Playwright enables Network on every page it knows, so the page's
 * renderer sends a CDP event with the payload (base64) for every frame it receives, and the
 * browser's DevTools thread and the driver process handle it — work that is no part of the
 * page's and that the stream's figures would otherwise include, with and without the extension.
 */
const BARE = argv.includes('--bare');
/**
 * `--panel` (with `--bare`): the extension's panel for the page is open too (opened over the
 * same bare connection: the panel-open line: the page keeps ≥ 90 % of its frames with the panel
 * open); printed: the frames the panel held in the end and its longest task.
 */
const PANEL = argv.includes('--panel');
/** `--floors read,copy`: also the stream page's own minimal capture (ext-bench-server.ts `floor=`), without the extension. */
const FLOORS = option('--floors', '').split(',').filter(Boolean);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
if (!procAvailable()) throw new Error('needs /proc');
if (extDirs.length === 0) throw new Error('give at least one --ext-dir');

interface Cost {
  readonly frames: number;
  readonly mainUs: number;
  readonly ioUs: number;
  readonly topSelf?: string;
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  args?: { name?: string };
}

/** The renderer main thread with the most top-level task time: inclusive time by event name. */
function traceSummary(trace: { traceEvents: TraceEvent[] }): string {
  const names = new Map<string, string>();
  for (const e of trace.traceEvents)
    if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args?.name ?? '');
  const busy = new Map<string, number>();
  for (const e of trace.traceEvents)
    if (
      e.ph === 'X' &&
      e.name === 'ThreadControllerImpl::RunTask' &&
      names.get(`${e.pid}:${e.tid}`) === 'CrRendererMain'
    )
      busy.set(`${e.pid}:${e.tid}`, (busy.get(`${e.pid}:${e.tid}`) ?? 0) + (e.dur ?? 0));
  const main = [...busy].sort((a, b) => b[1] - a[1])[0]?.[0];
  const by = new Map<string, [number, number]>();
  for (const e of trace.traceEvents) {
    if (e.ph !== 'X' || `${e.pid}:${e.tid}` !== main) continue;
    const v = by.get(e.name) ?? [0, 0];
    by.set(e.name, [v[0] + (e.dur ?? 0), v[1] + 1]);
  }
  return [...by]
    .sort((a, b) => b[1][0] - a[1][0])
    .slice(0, 25)
    .map(([n, [us, count]]) => `    ${(us / 1000).toFixed(0).padStart(6)} ms ${String(count).padStart(7)}×  ${n}`)
    .join('\n');
}

async function streamCost(
  context: BrowserContext,
  httpUrl: string,
  pid: number,
  profile: boolean,
  floor = '',
  trace = false,
): Promise<Cost> {
  const pool = framePool();
  const bench = await startBenchServer({
    pool: pool.frames,
    rate: RATE,
    seconds: SECONDS,
    tickMs: 10,
    big: new Uint8Array(1),
    delayMs: 0,
    startDelayMs: 300,
  });
  const page = await context.newPage();
  try {
    await page.goto(
      `${httpUrl}stream.html?ws=${encodeURIComponent(`${bench.url}/stream`)}${floor ? `&floor=${floor}` : ''}`,
    );
    const cdp = profile ? await context.newCDPSession(page) : null;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    const browser = context.browser()!;
    if (trace)
      await browser.startTracing(page, {
        categories: [
          'devtools.timeline',
          'v8',
          'toplevel',
          'ipc',
          'blink',
          'mojom',
          'disabled-by-default-devtools.timeline',
        ],
      });
    const before = threadSnapshot(pid);
    let atEnd = -1;
    let threads: { label: string; seconds: number }[] = [];
    const done = bench.streamDone.then(async () => {
      threads = threadsBetween(before, threadSnapshot(pid));
      atEnd = (await page.evaluate('window.__received')) as number;
    });
    await page.evaluate('__connect()');
    await done;
    let topSelf: string | undefined;
    if (trace)
      topSelf = traceSummary(
        JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] },
      );
    if (cdp) {
      const { profile: p } = (await cdp.send('Profiler.stop')) as {
        profile: {
          nodes: { id: number; callFrame: { url: string; functionName: string; lineNumber: number } }[];
          samples: number[];
          timeDeltas: number[];
        };
      };
      const nodes = new Map(p.nodes.map((n) => [n.id, n]));
      const self = new Map<string, number>();
      p.samples.forEach((id, i) => {
        const n = nodes.get(id)!;
        const key = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/^.*\//, '')}:${n.callFrame.lineNumber + 1}`;
        self.set(key, (self.get(key) ?? 0) + (p.timeDeltas[i + 1] ?? 0));
      });
      topSelf = [...self]
        .filter(([k]) => !k.startsWith('(idle)'))
        .sort((a, b) => b[1] - a[1])
        .slice(0, 14)
        .map(([k, us]) => `    ${(us / 1000).toFixed(0).padStart(5)} ms  ${k}`)
        .join('\n');
      await cdp.detach();
    }
    // The page's renderer: the one whose IO thread (where the socket's data arrives) was busiest.
    const ios = threads.filter((t) => /^renderer \d+ \/ Chrome_ChildIOT/.test(t.label));
    const io = ios[0];
    const rendererPid = io ? /renderer (\d+)/.exec(io.label)![1] : '';
    const main = threads.find(
      (t) => t.label === `renderer ${rendererPid} / chromium` || t.label === `renderer ${rendererPid} / CrRendererMain`,
    );
    return {
      frames: atEnd,
      mainUs: ((main?.seconds ?? NaN) * 1e6) / atEnd,
      ioUs: ((io?.seconds ?? 0) * 1e6) / atEnd,
      topSelf,
    };
  } finally {
    await page.close();
    await bench.close();
  }
}

const server = await startFloodServer();
if (BARE) {
  const fmt = (c: Cost) =>
    `${c.frames} frames, main ${c.mainUs.toFixed(1)} µs + IO ${c.ioUs.toFixed(1)} µs = ${(c.mainUs + c.ioUs).toFixed(1)} µs/frame${c.topSelf ? ` (${c.topSelf.trim()})` : ''}`;
  const plain = await startChromium(null);
  const plainCdp = await connectCdp(plain.endpoint);
  const exts = [];
  for (const dir of extDirs) {
    const proc = await startChromium(dir);
    const cdp = await connectCdp(proc.endpoint);
    exts.push({ dir, proc, cdp, worker: PANEL ? await extensionWorker(cdp) : undefined });
  }
  await sleep(1500);
  const ratios = new Map<string, number[]>();
  try {
    for (let run = 1; run <= RUNS; run++) {
      for (const e of exts) {
        const w = await bareStreamCost(
          e.cdp,
          server.httpUrl,
          e.proc.child.pid!,
          { rate: RATE, seconds: SECONDS },
          '',
          e.worker,
        );
        const wo = await bareStreamCost(plainCdp, server.httpUrl, plain.child.pid!, { rate: RATE, seconds: SECONDS });
        ratios.set(e.dir, [...(ratios.get(e.dir) ?? []), w.frames / wo.frames]);
        const panelText = w.panel
          ? `; panel: ${w.panel.shownFinal} frames in the end, longest task ${w.panel.longestTaskMs} ms (${w.panel.over100} over 100 ms)`
          : '';
        console.log(
          `bare run ${run} ${path.basename(e.dir)}${w.panel ? ' with the panel open' : ''} (load ${os.loadavg()[0]!.toFixed(1)}): with: ${fmt(w)} | without: ${fmt(wo)} | page ratio ${(w.frames / wo.frames).toFixed(2)}${panelText}`,
        );
        for (const floor of FLOORS) {
          const c = await bareStreamCost(
            plainCdp,
            server.httpUrl,
            plain.child.pid!,
            { rate: RATE, seconds: SECONDS },
            floor,
          );
          console.log(`bare run ${run} floor=${floor}: ${fmt(c)}`);
          if (floor !== 'page') continue;
          const x = await bareStreamCost(
            e.cdp,
            server.httpUrl,
            e.proc.child.pid!,
            { rate: RATE, seconds: SECONDS },
            floor,
          );
          console.log(
            `bare run ${run} floor=${floor} with ${path.basename(e.dir)}: ${fmt(x)}; page ratio ${(x.frames / c.frames).toFixed(2)}`,
          );
        }
      }
    }
    for (const [dir, r] of ratios)
      console.log(
        `${path.basename(dir)}: page ratios ${r.map((v) => v.toFixed(2)).join(', ')}; median ${[...r].sort((a, b) => a - b)[Math.floor(r.length / 2)]!.toFixed(2)}`,
      );
  } finally {
    for (const p of [plain, ...exts.map((e) => e.proc)]) p.child.kill();
    await server.close();
    await sleep(200);
    for (const p of [plain, ...exts.map((e) => e.proc)]) rmSync(p.profile, { recursive: true, force: true });
  }
  process.exit(0);
}
const browsers = [];
for (const dir of extDirs) {
  const proc = await startChromium(dir);
  const browser = await chromium.connectOverCDP(proc.endpoint);
  const extContext = browser.contexts()[0]!;
  const plainContext = await browser.newContext();
  browsers.push({ dir, proc, browser, extContext, plainContext });
}
await sleep(1500); // the service workers start
const rows: Record<string, { with: Cost[]; without: Cost[] }> = {};
try {
  for (let run = 1; run <= RUNS; run++) {
    for (const b of browsers) {
      const w = await streamCost(
        b.extContext,
        server.httpUrl,
        b.proc.child.pid!,
        PROFILE && run === 1,
        '',
        TRACE && run === 1,
      );
      const wo = await streamCost(b.plainContext, server.httpUrl, b.proc.child.pid!, false, '', TRACE && run === 1);
      if (wo.topSelf) console.log(`  trace, page without the extension:\n${wo.topSelf}`);
      (rows[b.dir] ??= { with: [], without: [] }).with.push(w);
      rows[b.dir]!.without.push(wo);
      for (const floor of FLOORS) {
        const c = await streamCost(b.plainContext, server.httpUrl, b.proc.child.pid!, false, floor);
        console.log(
          `run ${run} floor=${floor}: ${c.frames} frames, main ${c.mainUs.toFixed(1)} µs + IO ${c.ioUs.toFixed(1)} µs = ${(c.mainUs + c.ioUs).toFixed(1)} µs/frame`,
        );
        if (floor !== 'page') continue;
        const e = await streamCost(b.extContext, server.httpUrl, b.proc.child.pid!, false, floor);
        console.log(
          `run ${run} floor=${floor} with ${path.basename(b.dir)}: ${e.frames} frames, main ${e.mainUs.toFixed(1)} µs + IO ${e.ioUs.toFixed(1)} µs = ${(e.mainUs + e.ioUs).toFixed(1)} µs/frame; page ratio ${(e.frames / c.frames).toFixed(2)}`,
        );
      }
      const f = (c: Cost) =>
        `${c.frames} frames, main ${c.mainUs.toFixed(1)} µs + IO ${c.ioUs.toFixed(1)} µs = ${(c.mainUs + c.ioUs).toFixed(1)} µs/frame`;
      console.log(
        `run ${run} ${path.basename(b.dir)} (load ${os.loadavg()[0]!.toFixed(1)}): with: ${f(w)} | without: ${f(wo)} | page ratio ${(w.frames / wo.frames).toFixed(2)}`,
      );
      if (w.topSelf) console.log(`  ${TRACE ? 'trace' : 'self time'}, page with the extension:\n${w.topSelf}`);
    }
  }
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
  for (const [dir, r] of Object.entries(rows)) {
    const per = (cs: Cost[]) => median(cs.map((c) => c.mainUs + c.ioUs));
    const ratio = median(r.with.map((w, i) => w.frames / r.without[i]!.frames));
    console.log(
      `${path.basename(dir)}: median main+IO µs/frame with ${per(r.with).toFixed(1)}, without ${per(r.without).toFixed(1)}; median page ratio ${ratio.toFixed(2)}`,
    );
  }
} finally {
  for (const b of browsers) {
    await b.browser.close().catch(() => {});
    b.proc.child.kill();
  }
  await server.close();
  await sleep(200);
  for (const b of browsers) rmSync(b.proc.profile, { recursive: true, force: true });
}
