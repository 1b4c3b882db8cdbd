/**
 * `npm run bench:ui`: the web inspector in Chromium under load. A benchmark, not a test:
 * it prints figures next to their targets and never fails on time.
 *
 * 1. Ingest: a local `ws` server sends `--rate` (10,000) ~1 KB CBOR / MessagePack frames
 *    per second for `--seconds` (10) in bursts every 10 ms; the inspector is connected with
 *    `?connect=`. Frames shown, long tasks, and whether the frame list still scrolls.
 * 2. A ~10 MB CBOR frame (100k small maps): arrival → row shown, and mousedown on the row →
 *    first tree row painted.
 * 3. The Text tab on a 2.27 MB CBOR record set: the frame selected (tree shown), then the
 *    Text tab opened: longest main-thread task from the click until the whole text is in
 *    the view, and the time to the first text line.
 * 4. The Bytes tab's treemap of the same 2.27 MB frame: click → painted, "by field" → painted,
 *    the longest task; the layouts in Node, wall beside CPU (treemap-bench.ts).
 * 5. Text search: a `--search-mb` (100) MB capture of the same ~1 KB frames; a rare and a
 *    common needle typed into the filter: first matches on screen and the whole capture
 *    searched (from the search's start, i.e. the typing debounce), longest task meanwhile.
 *    The same search run by the worker's code in Node, CPU (process.cpuUsage) beside wall.
 *
 * Flags: --write (docs/BENCHMARKS.md section `bench:ui`), --only-search, --only-text, --only-treemap, --profile (CPU profile of the
 * main thread per phase, top functions), --seconds N, --rate N, --app-dir DIR.
 */
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startDemoServer } from '../../demo-server/server.js';
import { APP_DIR, REPO, launchChromium } from '../support/env.js';
import { startBenchServer, type StreamStats } from './bench-server.js';
import { bigCborFrame, framePool } from './payloads.js';
import {
  armWatch,
  awaitWatch,
  installProbes,
  loafScripts,
  pageNow,
  readProbes,
  scrollList,
  shownFrames,
  type LongTask,
  type ScrollProbe,
} from './page-probes.js';
import { startProfile, stopProfile, type ThreadProfile } from './profile.js';
import { writeUiSection } from './write-section.js';
import { TARGET_TREEMAP_MS, treemapPhase, treemapRows, type TreemapResult } from './treemap-bench.js';
import { needles, searchCapture, searchInNode, type NodeSearchRun } from './search-in-node.js';

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(name);
const option = (name: string, fallback: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
const SECONDS = Number(option('--seconds', '10'));
const RATE = Number(option('--rate', '10000'));
const APP = path.resolve(option('--app-dir', APP_DIR));
const PROFILE = flag('--profile');
const TICK_MS = 10;
const TARGET_TASK_MS = 100;
const TARGET_TREE_MS = 500;
const SEARCH_MB = Number(option('--search-mb', '100'));
const TARGET_FIRST_MATCH_MS = 100;
const TARGET_SEARCH_MS = 2000;
const TARGET_TEXT_TAB_TASK_MS = 200;
/** The Text tab's frame: the size first measured (2.27 MB). */
const RECORD_SET_BYTES = Math.round(2.27 * 1024 * 1024);
/** The filter bar waits this long after the last keystroke (FilterBar.tsx). */
const DEBOUNCE_MS = 200;

const log = (...a: unknown[]) => console.error('[bench:ui]', ...a);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (v: number) => (Number.isFinite(v) ? `${Math.round(v).toLocaleString('en-US')} ms` : 'timed out');
const int = (v: number) => Math.round(v).toLocaleString('en-US');

async function newPage(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  // tsx (esbuild keepNames) wraps functions in __name(); functions sent to the page need it too.
  await page.addInitScript('globalThis.__name = (f) => f;');
  await page.addInitScript(installProbes);
  page.on('pageerror', (e) => log('page error:', e.message));
  await page.goto(url);
  return page;
}

const summarize = (tasks: readonly LongTask[]) => ({
  max: tasks.reduce((m, t) => Math.max(m, t.duration), 0),
  over100: tasks.filter((t) => t.duration > 100).length,
  over50: tasks.length,
  blocked: tasks.reduce((s, t) => s + Math.max(0, t.duration - 50), 0),
});

interface IngestResult {
  stats: StreamStats;
  shownAtEnd: number;
  shownFinal: number;
  drainMs: number;
  tasks: ReturnType<typeof summarize>;
  scrolls: ScrollProbe[];
  slowestEvaluate: number;
  loaf: string[];
  profile?: ThreadProfile[];
}

async function ingest(
  browser: Browser,
  httpUrl: string,
  wsUrl: string,
  streamDone: Promise<StreamStats>,
): Promise<IngestResult> {
  const page = await newPage(browser, `${httpUrl}index.html?connect=${encodeURIComponent(`${wsUrl}/stream`)}`);
  await page.locator('[data-testid=connection-status][data-status=open]').waitFor({ timeout: 10_000 });
  const from = await pageNow(page);
  if (PROFILE) await startProfile(browser, page);
  let stats: StreamStats | undefined;
  void streamDone.then((s) => (stats = s));
  const scrolls: ScrollProbe[] = [];
  let shownAtEnd = -1;
  let last = 0;
  let lastChange = Date.now();
  let slowestEvaluate = 0;
  let endedAt = 0;
  let lastScroll = Date.now();
  const deadline = Date.now() + (SECONDS + 40) * 1000;
  while (Date.now() < deadline) {
    const t = Date.now();
    const shown = await shownFrames(page);
    slowestEvaluate = Math.max(slowestEvaluate, Date.now() - t);
    if (shown !== last) [last, lastChange] = [shown, Date.now()];
    if (stats && shownAtEnd < 0) [shownAtEnd, endedAt] = [shown, Date.now()];
    if (stats && (shown >= stats.sent || Date.now() - lastChange > 5000)) break;
    if (!stats && last > 0 && Date.now() - lastScroll >= 1000) {
      lastScroll = Date.now();
      scrolls.push(await scrollList(page, scrolls.length % 2 === 0));
    }
    await sleep(250);
  }
  const drainMs = Date.now() - endedAt;
  const profile = PROFILE ? await stopProfile(browser) : undefined;
  const probes = await readProbes(page);
  await page.close();
  return {
    stats: stats!,
    shownAtEnd,
    shownFinal: last,
    drainMs,
    tasks: summarize(probes.longtasks.filter((t) => t.start >= from)),
    scrolls,
    slowestEvaluate,
    loaf: loafScripts(probes, from),
    profile,
  };
}

interface BigResult {
  bytes: number;
  arrivalToRow: number;
  downToFirstRow: number;
  downToChildren: number;
  tasks: ReturnType<typeof summarize>;
  loaf: string[];
  profile?: ThreadProfile[];
}

async function bigFrame(browser: Browser, httpUrl: string, wsUrl: string): Promise<BigResult> {
  const page = await newPage(browser, `${httpUrl}index.html?connect=${encodeURIComponent(`${wsUrl}/big`)}`);
  const from = await pageNow(page);
  await armWatch(page, 'row', '[data-testid=frame-row]');
  const row = await awaitWatch(page, 'row', 60_000);
  const { big } = await readProbes(page);
  if (!big.length) throw new Error('the 10 MB frame never reached the page');
  await sleep(500); // let the list settle (the worker has summarized the frame)
  if (PROFILE) await startProfile(browser, page);
  await armWatch(page, 'tree', '[data-testid=tree-row]');
  await armWatch(page, 'children', '[data-testid=tree-row]', 2);
  const box = (await page.locator('[data-testid=frame-row]').first().boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.up();
  const tree = await awaitWatch(page, 'tree', 60_000);
  const children = await awaitWatch(page, 'children', 120_000);
  await sleep(300);
  const profile = PROFILE ? await stopProfile(browser) : undefined;
  const probes = await readProbes(page);
  await page.close();
  return {
    bytes: big[0].size,
    arrivalToRow: row.painted - big[0].t,
    downToFirstRow: tree.painted - tree.down,
    downToChildren: children.painted - children.down,
    tasks: summarize(probes.longtasks.filter((t) => t.start >= from)),
    loaf: loafScripts(probes, from),
    profile,
  };
}

interface TextTabResult {
  bytes: number;
  /** Characters of text the view holds at the end, and whether that is all of it. */
  chars: number;
  clickToFirstLine: number;
  clickToAllText: number;
  tasks: ReturnType<typeof summarize>;
  loaf: string[];
  profile?: ThreadProfile[];
}

/** The inspector connected to the endpoint that sends the 2.27 MB record set. */
const recordSetPage = (browser: Browser, httpUrl: string, wsUrl: string) =>
  newPage(browser, `${httpUrl}index.html?connect=${encodeURIComponent(`${wsUrl}/record-set`)}`);

/** The 2.27 MB frame selected with its tree shown, then the Text tab clicked. */
async function textTab(browser: Browser, httpUrl: string, wsUrl: string, bytes: number): Promise<TextTabResult> {
  const page = await newPage(browser, `${httpUrl}index.html?connect=${encodeURIComponent(`${wsUrl}/record-set`)}`);
  await armWatch(page, 'row', '[data-testid=frame-row]');
  await awaitWatch(page, 'row', 60_000);
  await page.locator('[data-testid=frame-row]').first().click();
  await page.locator('[data-testid=tree-row]').first().waitFor({ timeout: 60_000 });
  await sleep(1000); // the tree and the worker settle: only the Text tab's own work is measured
  const from = await pageNow(page);
  if (PROFILE) await startProfile(browser, page);
  await armWatch(page, 'line', '[data-testid=text-view] .view-line, [data-testid=text-view] [data-testid=text-line]');
  await page.getByTestId('tab-text').click();
  const clickAt = from;
  const line = await awaitWatch(page, 'line', 60_000);
  // The view is complete when its model (or plain view) holds the whole text: poll, then a quiet second.
  const deadline = Date.now() + 60_000;
  let chars = 0;
  let completeAt = NaN;
  while (Date.now() < deadline) {
    const state = await page.evaluate(() => {
      const view = document.querySelector('[data-testid=text-view]') as HTMLElement | null;
      return {
        done: view?.dataset.complete === 'true',
        chars: Number(view?.dataset.chars ?? 0),
        at: Number(view?.dataset.completeAt ?? NaN),
      };
    });
    chars = state.chars;
    if (state.done) {
      completeAt = state.at;
      break;
    }
    await sleep(100);
  }
  await sleep(1000);
  const profile = PROFILE ? await stopProfile(browser) : undefined;
  const probes = await readProbes(page);
  await page.screenshot({ path: path.join(REPO, 'e2e/artifacts/bench-ui-text-tab.png') });
  await page.close();
  return {
    bytes,
    chars,
    clickToFirstLine: line.painted - clickAt,
    clickToAllText: completeAt - clickAt,
    tasks: summarize(probes.longtasks.filter((t) => t.start >= from)),
    loaf: loafScripts(probes, from),
    profile,
  };
}

function textTabRows(t: TextTabResult): [string, string, string][] {
  return [
    [
      `Text tab on a ${(t.bytes / 1024 / 1024).toFixed(2)} MB CBOR record set: click → first text line painted`,
      ms(t.clickToFirstLine),
      '',
    ],
    ['Text tab: click → the whole text in the view', `${ms(t.clickToAllText)} (${int(t.chars)} characters)`, ''],
    [
      'Text tab: longest main-thread task from the click',
      `${ms(t.tasks.max)} (${t.tasks.over100} over 100 ms)`,
      `≤ ${TARGET_TEXT_TAB_TASK_MS} ms`,
    ],
  ];
}

interface SearchRun {
  needle: string;
  matches: number;
  firstMs: number;
  doneMs: number;
  longestTask: number;
}

interface SearchResult {
  frames: number;
  bytes: number;
  runs: SearchRun[];
  node: NodeSearchRun[];
}

async function textSearch(browser: Browser, httpUrl: string, wsUrl: string): Promise<SearchResult> {
  const { count, bytes } = searchCapture(pool.frames, SEARCH_MB);
  const page = await newPage(
    browser,
    `${httpUrl}index.html?connect=${encodeURIComponent(`${wsUrl}/search?count=${count}`)}`,
  );
  const deadline = Date.now() + 240_000;
  while ((await shownFrames(page)) < count && Date.now() < deadline) await sleep(500);
  const runs: SearchRun[] = [];
  for (const needle of needles(pool.frames)) {
    const from = await pageNow(page);
    if (PROFILE) await startProfile(browser, page);
    const timing = await page.evaluate(
      ({ needle, debounce }) =>
        new Promise<{ firstMs: number; doneMs: number; count: string }>((resolve) => {
          const input = document.querySelector<HTMLInputElement>('[data-testid=filter-input]')!;
          let started = 0;
          let first = 0;
          const check = () => {
            const now = performance.now();
            const progress = document.querySelector('[data-testid=filter-progress]');
            const text = document.querySelector('[data-testid=frame-count]')?.textContent ?? '';
            const shown = /^([\d,]+) of/.exec(text);
            if (!started && progress) started = now;
            if (started && !first && shown && Number(shown[1].replace(/,/g, '')) > 0) first = now;
            if (started && !progress) {
              observer.disconnect();
              resolve({ firstMs: (first || now) - started, doneMs: now - started, count: text });
            }
          };
          const observer = new MutationObserver(check);
          observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
          // React's onChange listens to input events; set the value the way typing does.
          Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, needle);
          input.dispatchEvent(new Event('input', { bubbles: true }));
          void debounce;
        }),
      { needle, debounce: DEBOUNCE_MS },
    );
    if (PROFILE) printProfile(`text search "${needle}"`, await stopProfile(browser));
    const probes = await readProbes(page);
    const matches = Number(/^([\d,]+) of/.exec(timing.count)?.[1].replace(/,/g, '') ?? 0);
    runs.push({
      needle,
      matches,
      firstMs: timing.firstMs,
      doneMs: timing.doneMs,
      longestTask: summarize(probes.longtasks.filter((t) => t.start >= from)).max,
    });
    await page.getByTestId('filter-input').fill('');
    await sleep(1500);
  }
  await page.close();
  return { frames: count, bytes, runs, node: await searchInNode(pool.frames, count) };
}

function searchRows(search: SearchResult): [string, string, string][] {
  return [
    [
      'text search capture',
      `${int(search.frames)} frames, ${(search.bytes / 1024 / 1024).toFixed(1)} MB`,
      `${SEARCH_MB} MB`,
    ],
    ...search.runs.flatMap((r): [string, string, string][] => [
      [
        `text search "${r.needle}" (${int(r.matches)} frames match): first matches on screen`,
        ms(r.firstMs),
        `≤ ${TARGET_FIRST_MATCH_MS} ms`,
      ],
      [`text search "${r.needle}": whole capture searched`, ms(r.doneMs), `≤ ${TARGET_SEARCH_MS} ms`],
      [`text search "${r.needle}": longest main-thread task`, ms(r.longestTask), `≤ ${TARGET_TASK_MS} ms`],
    ]),
    ...search.node.map((n): [string, string, string] => [
      `text search "${n.needle}", the worker's code in Node`,
      `${ms(n.wallMs)} wall, ${ms(n.cpuMs)} CPU (${int(n.matches)} matches)`,
      '',
    ]),
  ];
}

const searchLines = (search: SearchResult) =>
  searchRows(search)
    .map((r) => `| ${r.join(' | ')} |`)
    .join('\n');

function table(
  i: IngestResult,
  b: BigResult,
  machine: string,
  meanBytes: number,
  text: TextTabResult,
  treemap: TreemapResult,
  search: SearchResult,
): string {
  const sendS = (i.stats.endedAt - i.stats.startedAt) / 1000;
  const moved = i.scrolls.filter((s) => s.moved && s.rowsInView > 0).length;
  const rows: [string, string, string][] = [
    [
      'frames sent',
      `${int(i.stats.sent)} in ${sendS.toFixed(1)} s (${int(i.stats.sent / sendS)}/s, mean ${int(meanBytes)} B, CBOR : MessagePack 1 : 1)`,
      `${int(RATE)}/s for ${SECONDS} s`,
    ],
    ['frames in the list when sending ended', int(i.shownAtEnd), ''],
    [
      'frames in the list at the end',
      `${int(i.shownFinal)} (${i.shownFinal >= i.stats.sent ? 'all' : `${int(i.stats.sent - i.shownFinal)} missing`}, ${(i.drainMs / 1000).toFixed(1)} s after sending ended)`,
      'all',
    ],
    [
      'frames/s shown (while sending)',
      int(i.shownAtEnd / sendS),
      'reported (bounded by what the browser delivers: see below)',
    ],
    ['longest main-thread task (ingest)', ms(i.tasks.max), `≤ ${TARGET_TASK_MS} ms`],
    [
      'long tasks > 100 ms / > 50 ms (ingest)',
      `${i.tasks.over100} / ${i.tasks.over50} (blocking ${ms(i.tasks.blocked)})`,
      '0 / –',
    ],
    [
      'frame list scrolls during ingest',
      `${moved} of ${i.scrolls.length} scrolls moved and drew rows; slowest ${ms(Math.max(0, ...i.scrolls.map((s) => s.ms)))}; slowest status read ${ms(i.slowestEvaluate)}`,
      'every one',
    ],
    ['server send buffer peak', `${int(i.stats.maxBuffered / 1024)} KB`, ''],
    [`${(b.bytes / 1024 / 1024).toFixed(1)} MB CBOR frame: arrival → row painted`, ms(b.arrivalToRow), ''],
    ['10 MB frame: mousedown → first tree row painted', ms(b.downToFirstRow), `≤ ${TARGET_TREE_MS} ms`],
    ['10 MB frame: mousedown → root children painted', ms(b.downToChildren), ''],
    ['longest main-thread task (10 MB frame)', ms(b.tasks.max), `≤ ${TARGET_TASK_MS} ms`],
    ...textTabRows(text),
    ...treemapRows(treemap),
    ...searchRows(search),
  ];
  const met =
    i.tasks.over100 === 0 &&
    b.downToFirstRow <= TARGET_TREE_MS &&
    b.tasks.over100 === 0 &&
    text.tasks.max <= TARGET_TEXT_TAB_TASK_MS &&
    treemap.tabToMap <= TARGET_TREEMAP_MS &&
    treemap.byField <= TARGET_TREEMAP_MS &&
    search.runs.every(
      (r) => r.firstMs <= TARGET_FIRST_MATCH_MS && r.doneMs <= TARGET_SEARCH_MS && r.longestTask <= TARGET_TASK_MS,
    );
  return [
    `Measured ${new Date().toISOString().slice(0, 10)} on ${machine}. Targets: at 10,000 frames/s no main-thread task over 100 ms; a 10 MB frame's tree within 500 ms; opening the Text tab on a 2.27 MB frame: no task over 200 ms; its Bytes tab treemap drawn within 200 ms; text search: first matches within 100 ms, ${SEARCH_MB} MB searched within 2 s. ${met ? 'All targets met.' : 'Not all targets met.'}`,
    '',
    '| measure | result | target |',
    '| --- | --- | --- |',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

function printProfile(phase: string, threads: ThreadProfile[] | undefined): void {
  for (const t of threads ?? []) {
    console.log(
      `\nCPU profile, ${phase}, thread ${t.thread}: ${ms(t.busyMs)} busy (idle excluded)\n\n| function (inclusive order) | self | total |\n| --- | ---: | ---: |`,
    );
    for (const r of t.total) console.log(`| ${r.fn} | ${ms(r.selfMs)} | ${ms(r.totalMs)} |`);
    console.log(
      `\nby self time: ${t.self
        .slice(0, 8)
        .map((r) => `${r.fn} ${ms(r.selfMs)}`)
        .join('; ')}`,
    );
  }
}

const pool = framePool();
const big = bigCborFrame();
const recordSet = bigCborFrame(RECORD_SET_BYTES);
const bench = await startBenchServer({
  pool: pool.frames,
  rate: RATE,
  seconds: SECONDS,
  tickMs: TICK_MS,
  big,
  recordSet,
  delayMs: 1500,
  startDelayMs: 1500,
});
const demo = await startDemoServer({ port: 0, staticDir: APP, messagesPerSecond: 1 }); // serves the app (its own endpoints stay unused)
const browser = await launchChromium(APP);
try {
  const machine = `${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, Chromium ${browser.version()} (headless), ${os.platform()} ${os.arch()}, load average ${os.loadavg()[0]!.toFixed(1)} at the start (other processes share the cores: task lengths swing with it)`;
  if (flag('--only-text')) {
    const runs = Number(option('--runs', '1'));
    for (let r = 0; r < runs; r++) {
      const t = await textTab(browser, demo.httpUrl, bench.url, recordSet.length);
      console.log(
        textTabRows(t)
          .map((row) => `| ${row.join(' | ')} |`)
          .join('\n'),
      );
      console.log(`Long animation frames, script time by function (Text tab):\n  ${t.loaf.join('\n  ') || '(none)'}`);
      printProfile('Text tab, from the click', t.profile);
    }
  } else if (flag('--only-treemap')) {
    const runs = Number(option('--runs', '1'));
    for (let r = 0; r < runs; r++) {
      const t = await treemapPhase(() => recordSetPage(browser, demo.httpUrl, bench.url), recordSet, browser);
      console.log(
        treemapRows(t)
          .map((row) => `| ${row.join(' | ')} |`)
          .join('\n'),
      );
      console.log(`load average ${os.loadavg()[0]!.toFixed(1)} (1 min) after run ${r + 1}`);
    }
  } else if (flag('--only-search')) {
    const search = await textSearch(browser, demo.httpUrl, bench.url);
    console.log(searchLines(search));
    process.exitCode = 0;
  } else {
    log(`ingest: ${int(RATE)} frames/s for ${SECONDS} s …`);
    const i = await ingest(browser, demo.httpUrl, bench.url, bench.streamDone);
    log('10 MB frame …');
    const b = await bigFrame(browser, demo.httpUrl, bench.url);
    log('Text tab on a 2.27 MB frame …');
    const text = await textTab(browser, demo.httpUrl, bench.url, recordSet.length);
    log('Bytes tab treemap of the 2.27 MB frame …');
    const treemap = await treemapPhase(() => recordSetPage(browser, demo.httpUrl, bench.url), recordSet, browser);
    log(`text search over ${SEARCH_MB} MB …`);
    const search = await textSearch(browser, demo.httpUrl, bench.url);
    const md = `${table(i, b, machine, pool.meanBytes, text, treemap, search)}\n\nLoad average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')} (1 / 5 / 15 min).`;
    console.log(md);
    console.log(
      `\nScroll probes (before → target → after, rows in view, ms): ${i.scrolls.map((s) => `${int(s.before)}→${int(s.target)}→${int(s.after)} ${s.rowsInView} ${int(s.ms)}`).join('; ')}`,
    );
    console.log(`\nLong animation frames, script time by function (ingest):\n  ${i.loaf.join('\n  ') || '(none)'}`);
    console.log(`Long animation frames, script time by function (10 MB frame):\n  ${b.loaf.join('\n  ') || '(none)'}`);
    console.log(`Long animation frames, script time by function (Text tab):\n  ${text.loaf.join('\n  ') || '(none)'}`);
    printProfile('ingest', i.profile);
    printProfile('10 MB frame, from mousedown', b.profile);
    printProfile('Text tab, from the click', text.profile);
    if (flag('--write')) writeUiSection(REPO, md);
  }
} finally {
  await browser.close();
  await bench.close();
  await demo.close();
}
