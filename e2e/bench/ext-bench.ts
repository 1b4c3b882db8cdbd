/**
 * `npm run bench:ext`: what the extension costs a page, and whether its panel keeps up.
 * A benchmark, not a test: it prints figures next to their targets and never fails on them.
 *
 * Headless Chromium (the system binary, started here with a remote-debugging port), with the
 * unpacked production build dist/chrome; for the page cost also a second one without it.
 *
 * 1. Page cost: a page receives `--messages` (100,000) binary messages of `--size` (100)
 *    bytes from a local server that frames them once and writes them in large chunks
 *    (raw-flood.ts), so the page, not the server, sets the pace; messages/s between the
 *    first and the last message, in the page. The pages are opened over a bare CDP
 *    connection that never attaches to them and report their own timing (cdp-targets.ts):
 *    a driver attached to the page would get a CDP event per frame and spend more CPU on it
 *    than the page does. Runs alternate between the browser with the extension and the one
 *    without (`--runs` each, default 5, after one warm-up each); the ratio of the medians is
 *    the page's throughput with the extension (target ≥ 0.95), the pair-by-pair ratios show
 *    the spread. A third series, "floor", runs in the browser without the extension with the
 *    page adding, itself, one listener that reads and copies every message: the least any
 *    capture from the page's world costs, before batching and extension messaging. Also, from /proc: CPU time per message of the page renderer's main thread
 *    and of the whole browser, with and without.
 * 2. The panel-open line, with nothing attached to the page (bare-stream.ts; Playwright enables
 *    the Network domain on every page it knows, so the page's renderer would send each frame's
 *    payload to the driver: ~30 µs of its CPU a frame, with or without the extension, on two
 *    saturated cores): `--runs` interleaved pairs of the stream below, with the extension and
 *    its panel open (both opened over the bare connection), then in the browser without the
 *    extension; the median of the pairs' page ratios (frames the page had when sending ended,
 *    with / without; target ≥ 0.90), the CPU of the page renderer's main and IO threads per
 *    frame, the panel's frames in the end and its longest task.
 *    Playwright then connects to the browser with the extension: one profiled run (where the
 *    page's time goes, by script), and the stream below, `--runs` interleaved pairs: with the
 *    panel open, then without (a second browser context, where extensions do not run). Each
 *    pair's figures are printed, and the median of the pairs' page ratios (diagnostics: the
 *    driver's per-frame events weigh on both sides); the detailed rows are the median pair.
 * 3. Panel: the panel tab (panel.html?tabId=N) is opened first, then a page receives
 *    `--rate` (10,000) frames/s for `--seconds` (10), ~1 KB CBOR / MessagePack (bench:ui's
 *    frames and server). Frames in the panel (the `frame-count` status) against frames sent,
 *    losses the panel reports (`dropped-count`), and the longest main-thread task in the page
 *    (a buffered `longtask` PerformanceObserver added before any page script; target: none
 *    over 100 ms), and in the panel; from /proc, the CPU of every thread while sending, and
 *    the panel's (the extension renderer's threads but its service worker) while sending and
 *    until it held every frame, per frame; at each poll while sending, the frames the panel
 *    showed and those the background held for it under a flood (its status bar's notice), and
 *    on a test build (`--ext-dir dist/chrome-test`) why held frames went out (calm, rate,
 *    request, cap).
 *
 * Flags: --write (the `bench:ext` section of docs/BENCHMARKS.md; --docs-root DIR writes
 * DIR/docs/BENCHMARKS.md instead), --messages N, --size N, --runs N, --rate N, --seconds N,
 * --ext-dir DIR (default: dist/chrome, built if stale), --only-panel (only step 3, with the
 * extension, `--runs` times: the panel's long tasks and, from long animation frames, the
 * panel's script time by function), --profile (with --only-panel: a CPU profile of the
 * panel's threads, profile.ts; build unminified for names; --no-panel: the same stream with no
 * panel open, what the capture path alone costs the extension's renderer), --stream-no-panel (one more
 * stream in the extension's context with no panel open: the capture path's cost alone — the
 * page's frames when sending ended and the CPU by thread — beside the runs with the panel and
 * without the extension).
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core';
import { writeBenchmarkSection } from '../../codecs/bench/report.js';
import { ensureExtensionBuild, newPageWithTabId, REPO } from '../support/ext-env.js';
import { startChromium } from './chromium-process.js';
import { startBenchServer } from './bench-server.js';
import { connectCdp, connectTargets, type CdpTargets } from './cdp-targets.js';
import { bareStreamCost, extensionWorker, type BareCost } from './bare-stream.js';
import { startFloodServer, type FloodServer } from './ext-bench-server.js';
import { cpuBetween, cpuSnapshot, procAvailable, threadSnapshot, threadsBetween } from './proc-cpu.js';
import { framePool } from './payloads.js';
import { installProbes, loafScripts, type Probes } from './page-probes.js';
import { startProfile, stopProfile, type ThreadProfile } from './profile.js';

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(name);
const option = (name: string, fallback: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1]! : fallback);
const MESSAGES = Number(option('--messages', '100000'));
const SIZE = Number(option('--size', '100'));
const RUNS = Math.max(2, Number(option('--runs', '5')));
const RATE = Number(option('--rate', '10000'));
const SECONDS = Number(option('--seconds', '10'));
const TARGET_RATIO = 0.95;
const TARGET_TASK_MS = 100;
/** The panel-open line: the page keeps this share of its frames (when sending ends) with the panel open. */
const TARGET_STREAM_RATIO = 0.9;

const log = (...a: unknown[]) => console.error('[bench:ext]', ...a);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const int = (v: number) => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : '–');
const ms = (v: number) => (Number.isFinite(v) ? `${int(v)} ms` : 'none');
const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** Long tasks of the page, from before its first script (an init script). */
const LONGTASK_PROBE = `(() => {
  const tasks = (window.__longtasks = []);
  try {
    new PerformanceObserver((list) => { for (const e of list.getEntries()) tasks.push([e.startTime, e.duration]); }).observe({ type: 'longtask', buffered: true });
  } catch (e) { window.__longtasks = null; }
})();`;

interface TaskSummary {
  readonly max: number;
  readonly over50: number;
  readonly over100: number;
  readonly supported: boolean;
}

async function longTasks(page: Page, from: number): Promise<TaskSummary> {
  const tasks = (await page.evaluate('window.__longtasks')) as [number, number][] | null;
  if (!tasks) return { max: NaN, over50: 0, over100: 0, supported: false };
  const mine = tasks.filter(([start]) => start >= from);
  return {
    max: mine.reduce((m, [, d]) => Math.max(m, d), 0),
    over50: mine.length,
    over100: mine.filter(([, d]) => d > 100).length,
    supported: true,
  };
}

async function serviceWorker(context: BrowserContext): Promise<Worker> {
  return (
    context.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://')) ??
    (await context.waitForEvent('serviceworker', { timeout: 15_000 }))
  );
}

/** with: the extension on; without: no extension; floor: no extension, the page's own minimal capture listener (flood.html `floor=1`). */
type FloodMode = 'with' | 'without' | 'floor';

interface FloodRun {
  readonly mode: FloodMode;
  readonly n: number;
  readonly msFirstToLast: number;
  readonly rate: number;
  /** CPU of the page renderer's main thread during the run, per message (/proc; NaN without). */
  readonly pageMainUsPerMessage: number;
  /** CPU of every process of the browser during the run, per message. */
  readonly browserUsPerMessage: number;
  /** Whether the extension's content scripts ran in the page (its isolated world was there). */
  readonly extensionRan: boolean;
}

/** One of the page-cost browsers: CDP target control and the pid whose process tree is the browser. */
interface FloodBrowser {
  readonly targets: CdpTargets;
  readonly pid: number;
}

let floodRuns = 0;

/** One timed flood in a page nobody is attached to; the page posts its result to the server. */
async function flood(server: FloodServer, browser: FloodBrowser, mode: FloodMode, count: number): Promise<FloodRun> {
  const id = String(++floodRuns);
  const withExtension = mode === 'with';
  const before = cpuSnapshot(browser.pid);
  const targetId = await browser.targets.open(
    `${server.httpUrl}flood.html?count=${count}&size=${SIZE}&run=${id}${mode === 'floor' ? '&floor=1' : ''}`,
  );
  try {
    const r = await server.waitForResult(id, 180_000);
    const cpu = cpuBetween(before, cpuSnapshot(browser.pid));
    if (r.n !== count || r.bytes !== count * SIZE)
      throw new Error(`flood: the page got ${r.n} messages / ${r.bytes} bytes, expected ${count} / ${count * SIZE}`);
    // Every run proves where the extension ran (after the timed part): its content-script world is in the page.
    const extensionRan = (await browser.targets.contentScriptWorlds(targetId)).includes('wirescope');
    if (withExtension !== extensionRan)
      throw new Error(
        `flood: the extension ${extensionRan ? 'ran' : 'did not run'} in a page ${withExtension ? 'with' : 'without'} it`,
      );
    return {
      mode,
      n: r.n,
      msFirstToLast: r.msFirstToLast,
      rate: ((r.n - 1) / r.msFirstToLast) * 1000,
      pageMainUsPerMessage: (cpu.pageMainSeconds * 1e6) / r.n,
      browserUsPerMessage: (cpu.treeSeconds * 1e6) / r.n,
      extensionRan,
    };
  } finally {
    await browser.targets.close(targetId);
  }
}

interface ScriptCost {
  readonly messages: number;
  /** Sampled main-thread time per message, by script (inclusive: a script and what it calls). */
  readonly usPerMessage: { readonly script: string; readonly us: number }[];
}

/**
 * One more run with the extension under V8's sampling profiler (not timed): where the page's
 * main-thread time goes, by script (hook.js, relay.js, the page), per message.
 */
async function profileFlood(context: BrowserContext, url: string, count: number): Promise<ScriptCost> {
  const page = await context.newPage();
  await page.goto(url);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
  await cdp.send('Profiler.start');
  const r = (await page.evaluate(`__flood(${count}, ${SIZE})`)) as { n: number };
  await sleep(100);
  const { profile } = (await cdp.send('Profiler.stop')) as {
    profile: {
      nodes: { id: number; callFrame: { url: string; functionName: string }; children?: number[] }[];
      samples: number[];
      timeDeltas: number[];
    };
  };
  await cdp.detach();
  await page.close();
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const by = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i + 1] ?? 0; // a sample's time is the gap to the next one
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const n = nodes.get(cur)!;
      const file = n.callFrame.url.replace(/^.*\//, '');
      const key = file
        ? file.startsWith('flood.html')
          ? 'the page (flood.html)'
          : file
        : n.callFrame.functionName === '(program)'
          ? 'browser work outside JS ((program))'
          : n.callFrame.functionName === '(garbage collector)'
            ? 'garbage collector'
            : '';
      if (key && !seen.has(key)) {
        seen.add(key);
        by.set(key, (by.get(key) ?? 0) + dt);
      }
    }
  });
  return {
    messages: r.n,
    usPerMessage: [...by].sort((a, b) => b[1] - a[1]).map(([script, t]) => ({ script, us: t / r.n })),
  };
}

interface StreamResult {
  readonly sent: number;
  readonly sendSeconds: number;
  readonly lateTicks: number;
  readonly maxBuffered: number;
  /** Messages the page had received when the server had sent its last frame, and at the end. */
  readonly pageAtEnd: number;
  readonly pageFinal: number;
  readonly page: TaskSummary;
  readonly meanBytes: number;
  /** CPU seconds by process / thread while the server was sending (/proc; empty without it or without a browser pid), heaviest first. */
  readonly threadsWhileSending: readonly { label: string; seconds: number }[];
  /** The same from the page's connect until the end (the panel held every frame, or stopped progressing). */
  readonly threadsWhole: readonly { label: string; seconds: number }[];
  /** With the panel open (the extension's context) only. */
  readonly panel?: {
    readonly shownAtEnd: number;
    readonly shownFinal: number;
    readonly drainMs: number;
    readonly dropped: string | null;
    readonly droppedCount: number;
    readonly tasks: TaskSummary;
    /** The panel's script time in long animation frames, by function, heaviest first. */
    readonly loaf: readonly string[];
    readonly profile?: ThreadProfile[];
    /**
     * While sending, every poll (~250 ms): frames shown, and the frames the background held
     * (the status bar's flood notice, flood-hold.ts), e.g. "1,200+4,000h": when frames came.
     */
    readonly timeline: readonly string[];
    /**
     * While sending, every poll: the live tail rows the list showed (the newest held frames,
     * sampled: flood-hold.ts), and the age of the newest frame the list showed (its row's
     * time against the panel's clock; null while it listed none), beside the frames the page
     * had received by then (a poll before the first frame reached the page lists nothing).
     */
    readonly live: readonly { readonly sampled: number; readonly ageMs: number | null; readonly pageHad: number }[];
  };
}

/**
 * In the panel: the live tail rows drawn, and how old the newest drawn row's frame is (its
 * time column, HH:MM:SS.mmm local, against now; the list follows its tail, so the newest rows
 * are drawn).
 */
const LIVE_PROBE = `(() => {
  const rows = [...document.querySelectorAll('[data-testid=frame-row]')];
  const now = new Date();
  const nowMs = ((now.getHours() * 60 + now.getMinutes()) * 60 + now.getSeconds()) * 1000 + now.getMilliseconds();
  let newest = -1;
  for (const r of rows) {
    const m = /^(\\d\\d):(\\d\\d):(\\d\\d)\\.(\\d{3})$/.exec(r.querySelector('[data-column=time]')?.textContent ?? '');
    if (m) newest = Math.max(newest, ((+m[1] * 60 + +m[2]) * 60 + +m[3]) * 1000 + +m[4]);
  }
  const age = newest < 0 ? null : (nowMs - newest + 86400000) % 86400000;
  return { sampled: rows.filter((r) => r.hasAttribute('data-sample')).length, ageMs: age };
})()`;

/**
 * A page receiving `RATE` frames/s for `SECONDS` (bench:ui's server and frames); with `panel`,
 * the panel tab for that page is opened first and followed until it holds every frame.
 */
async function stream(
  context: BrowserContext,
  httpUrl: string,
  ext: { worker: Worker; extensionId: string; noPanel?: boolean } | null,
  browserPid: number | null,
  profileWith?: Parameters<typeof startProfile>[0],
): Promise<StreamResult> {
  const pool = framePool();
  const bench = await startBenchServer({
    pool: pool.frames,
    rate: RATE,
    seconds: SECONDS,
    tickMs: 10,
    big: new Uint8Array(1),
    delayMs: 0,
    startDelayMs: 500,
  });
  try {
    const { page, tabId } = ext
      ? await newPageWithTabId(ext.worker, () => context.newPage())
      : { page: await context.newPage(), tabId: -1 };
    await page.addInitScript(LONGTASK_PROBE);
    await page.goto(`${httpUrl}stream.html?ws=${encodeURIComponent(`${bench.url}/stream`)}`);
    let panel: Page | null = null;
    if (ext && !ext.noPanel) {
      panel = await context.newPage();
      await panel.setViewportSize({ width: 1400, height: 900 });
      await panel.addInitScript(LONGTASK_PROBE);
      await panel.addInitScript('globalThis.__name = (f) => f;');
      await panel.addInitScript(installProbes); // long animation frames, with their scripts
      await panel.goto(`chrome-extension://${ext.extensionId}/panel.html?tabId=${tabId}`);
      await panel.getByTestId('frame-count').waitFor({ timeout: 10_000 });
      if (profileWith) await startProfile(profileWith, panel);
    }
    const fromPage = (await page.evaluate('performance.now()')) as number;
    const fromPanel = panel ? ((await panel.evaluate('performance.now()')) as number) : 0;
    const shown = async () => {
      if (!panel) return 0;
      const m = /(\d+) frames/.exec(((await panel.getByTestId('frame-count').textContent()) ?? '').replace(/,/g, ''));
      return m ? Number(m[1]) : 0;
    };
    const received = async () => (await page.evaluate('window.__received')) as number;
    const held = async () => {
      if (!panel) return 0;
      // One read (the notice may go between two): its text or ''.
      const text = (await panel.evaluate(
        "document.querySelector('[data-testid=held-notice]')?.textContent ?? ''",
      )) as string;
      const m = /([\d,]+) frames? held/.exec(text);
      return m ? Number(m[1]!.replace(/,/g, '')) : 0;
    };
    const timeline: string[] = [];
    const live: { sampled: number; ageMs: number | null; pageHad: number }[] = [];
    const threadsFrom = browserPid && procAvailable() ? threadSnapshot(browserPid) : null;
    await page.evaluate('__connect()');
    let stats: Awaited<typeof bench.streamDone> | undefined;
    let threadsWhileSending: StreamResult['threadsWhileSending'] = [];
    // The threads' CPU is read the moment the server has sent its last frame (not at the next poll).
    void bench.streamDone.then((s) => {
      if (threadsFrom) threadsWhileSending = threadsBetween(threadsFrom, threadSnapshot(browserPid!));
      stats = s;
    });
    let shownAtEnd = -1;
    let pageAtEnd = -1;
    let endedAt = 0;
    let last = 0;
    let lastShown = 0;
    let lastChange = Date.now();
    const deadline = Date.now() + (SECONDS + 90) * 1000;
    while (Date.now() < deadline) {
      const [now, got] = [await shown(), await received()];
      const h = await held();
      if (panel && !stats) {
        timeline.push(`${int(now)}${h ? `+${int(h)}h` : ''}`);
        const probe = (await panel.evaluate(LIVE_PROBE)) as { sampled: number; ageMs: number | null };
        live.push({ ...probe, pageHad: got });
      }
      // Frames the background holds for the panel are progress too (they come when the flood calms).
      const progress = panel ? now + h : got;
      if (progress !== last) [last, lastChange] = [progress, Date.now()];
      lastShown = panel ? now : got;
      if (stats && shownAtEnd < 0) [shownAtEnd, pageAtEnd, endedAt] = [now, got, Date.now()];
      if (stats && (lastShown >= stats.sent || Date.now() - lastChange > 5000)) break;
      await sleep(250);
    }
    if (!stats) throw new Error('the stream never ended');
    const drainMs = Date.now() - endedAt;
    const threadsWhole = threadsFrom ? threadsBetween(threadsFrom, threadSnapshot(browserPid!)) : [];
    let panelResult: StreamResult['panel'];
    if (panel) {
      const dropped = (await panel.getByTestId('dropped-count').count())
        ? await panel.getByTestId('dropped-count').textContent()
        : null;
      const profile = profileWith ? await stopProfile(profileWith) : undefined;
      const probes = (await panel.evaluate('window.__bench')) as Probes;
      panelResult = {
        shownAtEnd,
        shownFinal: lastShown,
        drainMs,
        dropped,
        droppedCount: dropped ? Number(/(\d+)/.exec(dropped.replace(/,/g, ''))?.[1] ?? NaN) : 0,
        tasks: await longTasks(panel, fromPanel),
        loaf: loafScripts(probes, fromPanel, 8),
        timeline,
        live,
        ...(profile ? { profile } : {}),
      };
    }
    const result: StreamResult = {
      sent: stats.sent,
      sendSeconds: (stats.endedAt - stats.startedAt) / 1000,
      lateTicks: stats.lateTicks,
      maxBuffered: stats.maxBuffered,
      pageAtEnd,
      pageFinal: await received(),
      page: await longTasks(page, fromPage),
      meanBytes: pool.meanBytes,
      threadsWhileSending,
      threadsWhole,
      panel: panelResult,
    };
    await panel?.close();
    await page.close();
    return result;
  } finally {
    await bench.close();
  }
}

/** One stream with the extension and the panel open, and the one without the extension run right after it. */
interface StreamPair {
  readonly on: StreamResult;
  readonly off: StreamResult;
  readonly loadAverage: number;
}

/** The same stream to pages nothing is attached to (bare-stream.ts): with the extension and its panel, then in the browser without it. */
interface BarePair {
  readonly on: BareCost;
  readonly off: BareCost;
  readonly loadAverage: number;
}

const bareRatio = (pair: { on: BareCost; off: BareCost }) => pair.on.frames / pair.off.frames;

/** "30,000 / 30,000 (1.00); page renderer main + IO thread 20.7 + 8.3 / 17.3 + 7.7 µs per frame; panel: 30,000 frames in the end, longest task 0 ms". */
function barePairText({ on, off }: { on: BareCost; off: BareCost }): string {
  const cpu = (c: BareCost) => `${c.mainUs.toFixed(1)} + ${c.ioUs.toFixed(1)}`;
  const p = on.panel;
  return `page had ${int(on.frames)} / ${int(off.frames)} with the panel / without (${bareRatio({ on, off }).toFixed(2)}); page renderer main + IO thread CPU per frame ${cpu(on)} / ${cpu(off)} µs${p ? `; panel: ${int(p.shownFinal)} of ${int(on.sent)} frames in the end, longest task ${p.longestTaskMs} ms (${p.over100} over 100 ms)` : ''}`;
}

/** "20 20 20 …": the live tail rows the panel listed at each poll while sending. */
const liveRowsText = (p: NonNullable<StreamResult['panel']>): string => p.live.map((l) => l.sampled).join(' ');

/**
 * "0.31 0.52 … s (median 0.42 s, max 0.88 s; none listed at 2 polls, when the page had
 * received 0, 0 frames)": the newest listed frame's age at each poll.
 */
function liveAgeText(p: NonNullable<StreamResult['panel']>): string {
  const ages = p.live.flatMap((l) => (l.ageMs === null ? [] : [l.ageMs]));
  const empty = p.live.filter((l) => l.ageMs === null);
  const none = empty.length
    ? `; none listed at ${empty.length} polls, when the page had received ${empty.map((l) => int(l.pageHad)).join(', ')} frames`
    : '';
  if (!ages.length) return 'no frame listed while sending';
  return `${ages.map((a) => (a / 1000).toFixed(2)).join(' ')} s (median ${(median(ages) / 1000).toFixed(2)} s, max ${(Math.max(...ages) / 1000).toFixed(2)} s${none})`;
}

/** The page's frames when sending ended, with the panel over without (Playwright attached: diagnostics; the panel-open line is the unattached pairs'). */
const pageRatio = (pair: { on: StreamResult; off: StreamResult }) => pair.on.pageAtEnd / pair.off.pageAtEnd;

/** "20,901 / 20,429 (1.02); panel CPU 0.71 s while sending; panel longest task 93 ms (0 over 100 ms)". */
function pairText(on: StreamResult, off: StreamResult): string {
  const p = on.panel!;
  const cpu = on.threadsWhileSending.length
    ? `; panel CPU ${panelSeconds(on.threadsWhileSending).toFixed(2)} s while sending`
    : '';
  return `page had ${int(on.pageAtEnd)} / ${int(off.pageAtEnd)} with the panel / without (${pageRatio({ on, off }).toFixed(2)})${cpu}; panel longest task ${ms(p.tasks.max)} (${p.tasks.over100} over 100 ms); panel while sending, frames shown (+held): ${p.timeline.join(' ')}`;
}

function table(
  runs: readonly FloodRun[],
  cost: ScriptCost,
  pairs: readonly StreamPair[],
  machine: string,
  noPanel: StreamResult | null,
  barePairs: readonly BarePair[],
): string {
  // The detailed stream rows describe the pair whose page ratio is the median (the lower middle one for an even count).
  const byRatio = [...pairs].sort((a, b) => pageRatio(a) - pageRatio(b));
  const { on, off } = byRatio[Math.floor((byRatio.length - 1) / 2)]!;
  const pairRows: [string, string, string][] = [
    [
      `stream, unattached (nothing attached to the page: bare-stream.ts), ${barePairs.length} interleaved pairs (with the extension and the panel open, then in the browser without it): frames the page had received when sending ended, with / without (ratio); CPU of the page renderer's main + IO thread while sending, per frame received; the panel's frames in the end and longest task`,
      barePairs.map((pr, i) => `${i + 1}: ${barePairText(pr)}, load ${pr.loadAverage.toFixed(1)}`).join('; '),
      '',
    ],
    [
      "stream, unattached: the median of the pairs' page ratios (with the panel / without)",
      `${median(barePairs.map(bareRatio)).toFixed(3)} (pairs: ${barePairs.map((pr) => bareRatio(pr).toFixed(2)).join(', ')})`,
      `≥ ${TARGET_STREAM_RATIO}`,
    ],
    [
      'stream, unattached: panel tasks over 100 ms, every pair',
      barePairs.map((pr) => String(pr.on.panel?.over100 ?? '–')).join(', '),
      'none',
    ],
    [
      `stream, Playwright attached (Network events: every frame's payload goes to the driver, ~30 µs of the page renderer's CPU a frame, with or without the extension — diagnostics of the panel, not the page's cost), ${pairs.length} interleaved pairs (with the extension and the panel open, then without): frames the page had received when sending ended, with / without (ratio); panel CPU while sending; panel's longest task`,
      pairs.map((pr, i) => `${i + 1}: ${pairText(pr.on, pr.off)}, load ${pr.loadAverage.toFixed(1)}`).join('; '),
      '',
    ],
    [
      "stream, attached: the median of the pairs' page ratios (with the panel / without); the stream rows below are the attached pair at the median (the lower one of two)",
      `${median(pairs.map(pageRatio)).toFixed(3)} (pairs: ${pairs.map((pr) => pageRatio(pr).toFixed(2)).join(', ')})`,
      '',
    ],
    [
      'stream, attached: panel tasks over 100 ms, every pair',
      pairs.map((pr) => String(pr.on.panel!.tasks.over100)).join(', '),
      'none',
    ],
  ];
  const withExt = runs.filter((r) => r.mode === 'with');
  const without = runs.filter((r) => r.mode === 'without');
  const floor = runs.filter((r) => r.mode === 'floor');
  const rate = (rs: readonly FloodRun[]) => median(rs.map((r) => r.rate));
  const pageCpu = (rs: readonly FloodRun[]) => median(rs.map((r) => r.pageMainUsPerMessage));
  const browserCpu = (rs: readonly FloodRun[]) => median(rs.map((r) => r.browserUsPerMessage));
  const ratio = rate(withExt) / rate(without);
  // Runs alternate with / without: each pair ran back to back, under the same machine state.
  const pairRatios = withExt.map((r, i) => r.rate / without[i]!.rate);
  const p = on.panel!;
  const lossText =
    p.shownFinal >= on.sent ? 'none' : `${int(on.sent - p.shownFinal)} missing, ${int(p.droppedCount)} reported lost`;
  const accounted = p.shownFinal + p.droppedCount >= on.sent;
  const taskText = (t: TaskSummary) =>
    t.supported ? `${ms(t.max)} (${t.over100} over 100 ms, ${t.over50} over 50 ms)` : 'longtask entries not supported';
  const pair = (a: string, b: string) => `${a} / ${b}`;
  const rows: [string, string, string][] = [
    [
      `page receiving ${int(MESSAGES)} × ${SIZE} B binary messages: messages/s with / without the extension (medians)`,
      `${pair(int(rate(withExt)), int(rate(without)))} (runs with: ${withExt.map((r) => int(r.rate)).join(', ')}; without: ${without.map((r) => int(r.rate)).join(', ')})`,
      '',
    ],
    ['throughput with / without (ratio of the medians)', ratio.toFixed(3), `≥ ${TARGET_RATIO}`],
    [
      'the same, pair by pair (each with-run / the without-run after it); their median',
      `${pairRatios.map((x) => x.toFixed(2)).join(', ')}; median ${median(pairRatios).toFixed(3)}`,
      '',
    ],
    [
      'floor of any page-world capture: no extension, the page adds one listener that reads and copies every message — messages/s (median) and ratio to without',
      `${int(rate(floor))} (runs: ${floor.map((r) => int(r.rate)).join(', ')}); ${(rate(floor) / rate(without)).toFixed(3)}`,
      '',
    ],
    ...(procAvailable()
      ? ([
          [
            "CPU time of the page renderer's main thread per message, with / without / floor (medians)",
            `${pageCpu(withExt).toFixed(1)} µs / ${pageCpu(without).toFixed(1)} µs / ${pageCpu(floor).toFixed(1)} µs`,
            '',
          ],
          [
            'CPU time of the whole browser (every Chromium process) per message, with / without / floor (medians)',
            `${browserCpu(withExt).toFixed(1)} µs / ${browserCpu(without).toFixed(1)} µs / ${browserCpu(floor).toFixed(1)} µs`,
            '',
          ],
        ] as [string, string, string][])
      : []),
    [
      `where it goes, with the extension (V8 samples, ${int(cost.messages)} messages, per message)`,
      cost.usPerMessage.map((c) => `${c.script} ${c.us.toFixed(1)} µs`).join(', '),
      '',
    ],
    ...pairRows,
    [
      `stream: frames sent (with the panel open / without the extension)`,
      `${pair(int(on.sent), int(off.sent))} in ${pair(on.sendSeconds.toFixed(1), off.sendSeconds.toFixed(1))} s (mean ${int(on.meanBytes)} B, CBOR : MessagePack 1 : 1)`,
      `${int(RATE)}/s for ${SECONDS} s`,
    ],
    [
      'stream: frames the page had received when sending ended, with / without',
      pair(int(on.pageAtEnd), int(off.pageAtEnd)),
      '',
    ],
    ...(noPanel
      ? ([
          [
            'stream (--stream-no-panel): frames the page had received when sending ended, with the extension but no panel',
            `${int(noPanel.pageAtEnd)} of ${int(noPanel.sent)}`,
            '',
          ],
          [
            'stream (--stream-no-panel): CPU while sending, by process / thread, with the extension and no panel',
            threadText(noPanel.threadsWhileSending),
            '',
          ],
        ] as [string, string, string][])
      : []),
    [
      'stream: server send-buffer peak, with / without',
      pair(`${int(on.maxBuffered / 1024)} KB`, `${int(off.maxBuffered / 1024)} KB`),
      '',
    ],
    [
      'stream: CPU while sending, by process / thread, with the extension and the panel (the heaviest ten)',
      threadText(on.threadsWhileSending),
      '',
    ],
    ['stream: the same without the extension', threadText(off.threadsWhileSending), ''],
    [
      "stream: CPU of the panel (the extension's renderer: panel page, decode worker, raster; without its service-worker thread) while sending / until the panel held every frame; per frame shown",
      panelCpuText(on, p),
      '',
    ],
    ['frames in the panel when sending ended', int(p.shownAtEnd), ''],
    [
      'live tail while sending, every poll (~250 ms): sampled rows the list showed (the newest held frames of each connection)',
      liveRowsText(p),
      '> 0 while held',
    ],
    ["live tail while sending, every poll: the newest listed frame's age", liveAgeText(p), '≤ 1 s'],
    [
      'frames in the panel at the end',
      `${int(p.shownFinal)} (${(p.drainMs / 1000).toFixed(1)} s after sending ended)`,
      'all',
    ],
    ['frames lost', `${lossText}${p.dropped ? ` — panel: “${p.dropped}”` : ''}`, 'none, or all counted'],
    [
      'longest main-thread task in the page, with the extension and the panel',
      taskText(on.page),
      `≤ ${TARGET_TASK_MS} ms`,
    ],
    ['longest main-thread task in the page, without the extension', taskText(off.page), ''],
    ['longest main-thread task in the panel', taskText(p.tasks), ''],
  ];
  const streamMet =
    median(barePairs.map(bareRatio)) >= TARGET_STREAM_RATIO &&
    barePairs.every(
      (pr) => pr.on.panel !== undefined && pr.on.panel.over100 === 0 && pr.on.panel.shownFinal >= pr.on.sent,
    ) &&
    pairs.every((pr) => pr.on.panel!.tasks.over100 === 0);
  const met = ratio >= TARGET_RATIO && accounted && on.page.supported && on.page.over100 === 0 && streamMet;
  return [
    `Measured ${new Date().toISOString().slice(0, 10)} on ${machine}. Extension: the production build (dist/chrome); the panel is panel.html?tabId=N in a tab. Targets: page throughput with the extension ≥ ${TARGET_RATIO} of without; with the panel open the page keeps ≥ ${TARGET_STREAM_RATIO} of the frames it has without the extension when sending ends (median unattached pair, every frame in the panel) and no panel task exceeds ${TARGET_TASK_MS} ms; at ${int(RATE)} frames/s every frame reaches the panel (or is counted as lost) and no page task exceeds ${TARGET_TASK_MS} ms. ${met ? 'All targets met.' : 'Not all targets met.'}`,
    '',
    '| measure | result | target |',
    '| --- | --- | --- |',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

/** CPU seconds of the panel: the extension renderer's threads but its service-worker thread (the background). */
const panelSeconds = (threads: readonly { label: string; seconds: number }[]) =>
  threads
    .filter((t) => t.label.startsWith('extension renderer') && !/ServiceWorker/.test(t.label))
    .reduce((sum, t) => sum + t.seconds, 0);

/** "0.52 s while sending (34 µs per frame shown then) / 1.10 s in all (37 µs per frame)". */
function panelCpuText(r: StreamResult, p: NonNullable<StreamResult['panel']>): string {
  if (!r.threadsWhole.length) return '(no /proc)';
  const sending = panelSeconds(r.threadsWhileSending);
  const whole = panelSeconds(r.threadsWhole);
  const per = (seconds: number, frames: number) =>
    frames > 0 ? `${((seconds * 1e6) / frames).toFixed(0)} µs per frame` : '–';
  return `${sending.toFixed(2)} s while sending (${per(sending, p.shownAtEnd)} shown then) / ${whole.toFixed(2)} s in all (${per(whole, p.shownFinal)})`;
}

/** Threads' CPU as "label 1.23 s", the heaviest ten. */
const threadText = (threads: readonly { label: string; seconds: number }[]) =>
  threads
    .slice(0, 10)
    .map((t) => `${t.label} ${t.seconds.toFixed(2)} s`)
    .join('; ') || '(no /proc)';

/** The `bench:ext` section of `<root>/docs/BENCHMARKS.md`, appended with its heading and markers the first time. */

/** `--only-panel`: the stream with the panel open, `RUNS` times, and where the panel's time went. */
async function onlyPanel(): Promise<void> {
  const extDir = flag('--ext-dir') ? path.resolve(option('--ext-dir', '')) : await ensureExtensionBuild('chrome');
  const server = await startFloodServer();
  const withBrowser = await startChromium(extDir);
  const browser = await chromium.connectOverCDP(withBrowser.endpoint);
  try {
    const extContext = browser.contexts()[0]!;
    const worker = await serviceWorker(extContext);
    const extensionId = new URL(worker.url()).host;
    for (let run = 1; run <= RUNS; run++) {
      const r = await stream(
        extContext,
        server.httpUrl,
        { worker, extensionId, noPanel: flag('--no-panel') },
        withBrowser.child.pid!,
        flag('--profile') ? browser : undefined,
      );
      if (!r.panel) {
        console.log(
          `run ${run} without a panel (load average ${os.loadavg()[0]!.toFixed(1)}): page had ${int(r.pageAtEnd)} of ${int(r.sent)} when sending ended; extension renderer (no panel) while sending: ${panelSeconds(r.threadsWhileSending).toFixed(2)} s`,
        );
        console.log(
          `  CPU while sending (${r.sendSeconds.toFixed(1)} s), by process / thread: ${threadText(r.threadsWhileSending)}`,
        );
        continue;
      }
      const p = r.panel;
      console.log(
        `run ${run} (load average ${os.loadavg()[0]!.toFixed(1)}): page had ${int(r.pageAtEnd)} of ${int(r.sent)} when sending ended; panel ${int(p.shownFinal)} (${int(p.droppedCount)} lost), drained ${ms(p.drainMs)} after; panel tasks > 100 ms: ${p.tasks.over100}, > 50 ms: ${p.tasks.over50}, longest ${ms(p.tasks.max)}; page longest ${ms(r.page.max)}`,
      );
      console.log(
        `  CPU while sending (${r.sendSeconds.toFixed(1)} s), by process / thread: ${threadText(r.threadsWhileSending)}`,
      );
      console.log(`  panel CPU (extension renderer without its service worker): ${panelCpuText(r, p)}`);
      console.log(`  panel while sending, every poll: frames shown (+held in the background): ${p.timeline.join(' ')}`);
      console.log(`  live tail while sending, every poll: sampled rows listed: ${liveRowsText(p)}`);
      console.log(`  live tail while sending, every poll: newest listed frame's age: ${liveAgeText(p)}`);
      // Test builds (build-ext.ts --test-build) expose the background's flood hold: why held frames went out.
      const releases = await worker.evaluate(
        'globalThis.wirescopeHold ? JSON.stringify({ ...wirescopeHold.releases, recent: wirescopeHold.recentReleases.splice(0) }) : ""',
      );
      if (releases) console.log(`  flood hold releases (test build): ${String(releases)}`);
      console.log(`  panel script time in long animation frames:\n    ${p.loaf.join('\n    ') || '(none)'}`);
      for (const t of p.profile ?? []) {
        console.log(
          `  profile ${t.thread}: ${ms(t.busyMs)} busy; by self time: ${t.self
            .slice(0, 10)
            .map((row) => `${row.fn} ${ms(row.selfMs)}`)
            .join('; ')}`,
        );
        for (const task of t.longTasks.slice(0, 8))
          console.log(
            `    task ${ms(task.ms)} [${task.phases}]: ${task.self.map((row) => `${row.fn} ${ms(row.selfMs)}`).join('; ')}`,
          );
      }
    }
  } finally {
    await browser.close().catch(() => {});
    withBrowser.child.kill();
    await server.close();
    await sleep(200);
    rmSync(withBrowser.profile, { recursive: true, force: true });
  }
}

function writeSection(root: string, md: string): void {
  const file = path.join(root, 'docs/BENCHMARKS.md');
  const doc = readFileSync(file, 'utf8');
  if (!doc.includes('<!-- bench:ext:begin -->')) {
    const intro =
      "The browser extension in headless Chromium (`e2e/bench/ext-bench.ts`): one browser, the extension on in its default context and off in a second one; pages fed by local `ws` servers. Long tasks come from a buffered `longtask` PerformanceObserver installed before the page's scripts.";
    writeFileSync(
      file,
      `${doc.replace(/\n*$/, '')}\n\n## Extension in Chromium (\`npm run bench:ext\`)\n\n${intro}\n\n<!-- bench:ext:begin -->\n<!-- bench:ext:end -->\n`,
    );
  }
  writeBenchmarkSection(root, 'ext', md);
}

if (flag('--only-panel')) {
  await onlyPanel();
  process.exit(0);
}
const extDir = flag('--ext-dir') ? path.resolve(option('--ext-dir', '')) : await ensureExtensionBuild('chrome');
const server = await startFloodServer();
// Two Chromiums from the same binary with the same flags, one with the extension: pages in
// the same kind of browser context on both sides (a second context in one browser is not
// the same: it ran the plain page ~8% faster or slower from run to run, without any extension).
const withBrowser = await startChromium(extDir);
const plainBrowser = await startChromium(null);
let browser: Awaited<ReturnType<typeof chromium.connectOverCDP>> | null = null;
try {
  // Page cost first, before Playwright connects: nothing is attached to the timed pages.
  const floodWith: FloodBrowser = { targets: await connectTargets(withBrowser.endpoint), pid: withBrowser.child.pid! };
  const floodWithout: FloodBrowser = {
    targets: await connectTargets(plainBrowser.endpoint),
    pid: plainBrowser.child.pid!,
  };
  await sleep(1000); // the extension's service worker starts with the browser
  log('page cost: warm-up …');
  await flood(server, floodWith, 'with', Math.min(MESSAGES, 10_000));
  await flood(server, floodWithout, 'without', Math.min(MESSAGES, 10_000));
  const runs: FloodRun[] = [];
  for (let i = 0; i < RUNS; i++) {
    for (const mode of ['with', 'without', 'floor'] as const) {
      const r = await flood(server, mode === 'with' ? floodWith : floodWithout, mode, MESSAGES);
      runs.push(r);
      log(
        `run ${runs.length}: ${mode.padEnd(7)} ${int(r.rate)} messages/s (${ms(r.msFirstToLast)} first → last); CPU per message: page main thread ${r.pageMainUsPerMessage.toFixed(1)} µs, browser ${r.browserUsPerMessage.toFixed(1)} µs; extension ${r.extensionRan ? 'ran' : 'absent'}`,
      );
    }
  }
  floodWith.targets.disconnect();
  floodWithout.targets.disconnect();
  // The panel-open line, measured with nothing attached to the page (bare-stream.ts: Playwright's
  // Network events would cost the page ~30 µs a frame, with or without the extension).
  const barePairs: BarePair[] = [];
  {
    const withCdp = await connectCdp(withBrowser.endpoint);
    const plainCdp = await connectCdp(plainBrowser.endpoint);
    const sw = await extensionWorker(withCdp);
    for (let i = 1; i <= RUNS; i++) {
      log(
        `unattached stream pair ${i} of ${RUNS}: with the extension, panel open / without: ${int(RATE)} frames/s for ${SECONDS} s …`,
      );
      const on = await bareStreamCost(
        withCdp,
        server.httpUrl,
        withBrowser.child.pid!,
        { rate: RATE, seconds: SECONDS },
        '',
        sw,
      );
      const off = await bareStreamCost(plainCdp, server.httpUrl, plainBrowser.child.pid!, {
        rate: RATE,
        seconds: SECONDS,
      });
      barePairs.push({ on, off, loadAverage: os.loadavg()[0]! });
      log(`unattached stream pair ${i}: ${barePairText({ on, off })} (load average ${os.loadavg()[0]!.toFixed(1)})`);
    }
    withCdp.close();
    plainCdp.close();
  }
  plainBrowser.child.kill();

  browser = await chromium.connectOverCDP(withBrowser.endpoint);
  const extContext = browser.contexts()[0]!;
  const plainContext = await browser.newContext();
  const worker = await serviceWorker(extContext);
  const extensionId = new URL(worker.url()).host;
  const machine = `${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, Chromium ${browser.version()} (headless), ${os.platform()} ${os.arch()}, load average ${os.loadavg()[0]!.toFixed(1)} at the start (other processes share the cores: task lengths swing with it)`;
  log(machine);
  log('page cost: one more run with the extension, profiled …');
  const cost = await profileFlood(extContext, `${server.httpUrl}flood.html`, Math.min(MESSAGES, 30_000));
  // `RUNS` interleaved pairs (with the panel, then without), so no single noisy pair decides the line.
  const pairs: StreamPair[] = [];
  for (let i = 1; i <= RUNS; i++) {
    log(`stream pair ${i} of ${RUNS}: with the extension, panel open: ${int(RATE)} frames/s for ${SECONDS} s …`);
    const on = await stream(extContext, server.httpUrl, { worker, extensionId }, withBrowser.child.pid!);
    log(`stream pair ${i} of ${RUNS}: without the extension …`);
    const off = await stream(plainContext, server.httpUrl, null, withBrowser.child.pid!);
    pairs.push({ on, off, loadAverage: os.loadavg()[0]! });
    log(`stream pair ${i}: ${pairText(on, off)} (load average ${os.loadavg()[0]!.toFixed(1)})`);
  }
  let noPanel: StreamResult | null = null;
  if (flag('--stream-no-panel')) {
    log(`stream with the extension, no panel: ${int(RATE)} frames/s for ${SECONDS} s …`);
    noPanel = await stream(extContext, server.httpUrl, { worker, extensionId, noPanel: true }, withBrowser.child.pid!);
  }
  const md = table(runs, cost, pairs, machine, noPanel, barePairs);
  console.log(md);
  if (flag('--write')) writeSection(path.resolve(option('--docs-root', REPO)), md);
} finally {
  await browser?.close().catch(() => {});
  for (const b of [withBrowser, plainBrowser]) {
    b.child.kill();
  }
  await server.close();
  await sleep(200);
  for (const b of [withBrowser, plainBrowser]) rmSync(b.profile, { recursive: true, force: true });
}
