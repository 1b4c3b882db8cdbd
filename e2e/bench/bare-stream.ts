/**
 * bench:ext's stream (bench:ui's ~1 KB frames and server) to a page opened over a bare CDP
 * connection (cdp-targets.ts) that never enables the Network domain: Playwright enables it on
 * every page it knows, so the page's renderer then sends a CDP event with the payload
 * (base64) for every frame it receives, and the browser's DevTools thread and the driver
 * handle it — at 10,000 frames/s about 30 µs of the page renderer's CPU per frame (measured
 * in Chromium 156, more than the page's own work), with or without the extension, on a
 * machine whose two cores the stream saturates. With the extension's service worker given,
 * the extension's panel for that page is open too, opened over the same connection.
 */
import type { CdpConnection } from './cdp-targets.js';
import { startBenchServer } from './bench-server.js';
import { framePool } from './payloads.js';
import { threadSnapshot, threadsBetween } from './proc-cpu.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface StreamOptions {
  readonly rate: number;
  readonly seconds: number;
}

const LONGTASK_PROBE = `(() => { const t = (window.__longtasks = []); try { new PerformanceObserver((l) => { for (const e of l.getEntries()) t.push([e.startTime, e.duration]); }).observe({ type: 'longtask', buffered: true }); } catch {} })();`;

export interface BareCost {
  /** Frames the server sent, and those the page had received when it had sent the last one. */
  readonly sent: number;
  readonly frames: number;
  /** CPU of the page renderer's main thread and IO thread while sending, per frame received. */
  readonly mainUs: number;
  readonly ioUs: number;
  /** The browser's DevTools thread while sending (CDP traffic), when over 10 ms. */
  readonly topSelf?: string;
  readonly panel?: PanelResult;
}

export interface PanelResult {
  readonly shownFinal: number;
  readonly longestTaskMs: number;
  readonly over100: number;
}

export interface BareTarget {
  readonly sessionId: string;
  evaluate(expression: string): Promise<unknown>;
  navigate(url: string): Promise<void>;
  close(): Promise<void>;
}

/** A target opened at about:blank, attached for Runtime (never Network), with `initScript` run in every new document. */
export async function openBare(cdp: CdpConnection, initScript = ''): Promise<BareTarget> {
  const { targetId } = await cdp.send<{ targetId: string }>('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
  await cdp.send('Page.enable', {}, sessionId);
  if (initScript) await cdp.send('Page.addScriptToEvaluateOnNewDocument', { source: initScript }, sessionId);
  return {
    sessionId,
    evaluate: async (expression) =>
      (
        await cdp.send<{ result: { value?: unknown } }>(
          'Runtime.evaluate',
          { expression, awaitPromise: true, returnByValue: true },
          sessionId,
        )
      ).result.value,
    async navigate(url) {
      let onLoad: (p: unknown, from?: string) => void = () => {};
      const loaded = new Promise<void>((resolve) => (onLoad = (_p, from) => from === sessionId && resolve()));
      cdp.onSession('Page.loadEventFired', onLoad);
      try {
        await cdp.send('Page.navigate', { url }, sessionId);
        await loaded;
      } finally {
        cdp.offSession('Page.loadEventFired', onLoad);
      }
    },
    close: async () => void (await cdp.send('Target.closeTarget', { targetId }).catch(() => {})),
  };
}

/** The extension's id and a way to evaluate in its service worker (over `cdp`, attached for Runtime only). */
export async function extensionWorker(
  cdp: CdpConnection,
): Promise<{ extensionId: string; evaluate(expression: string): Promise<unknown> }> {
  for (let i = 0; i < 100; i++) {
    const { targetInfos } = await cdp.send<{ targetInfos: { targetId: string; type: string; url: string }[] }>(
      'Target.getTargets',
    );
    const sw = targetInfos.find((t) => t.type === 'service_worker' && t.url.startsWith('chrome-extension://'));
    if (sw) {
      const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', {
        targetId: sw.targetId,
        flatten: true,
      });
      const evaluate = async (expression: string) =>
        (
          await cdp.send<{ result: { value?: unknown } }>(
            'Runtime.evaluate',
            { expression, awaitPromise: true, returnByValue: true },
            sessionId,
          )
        ).result.value;
      return { extensionId: new URL(sw.url).host, evaluate };
    }
    await sleep(100);
  }
  throw new Error('no extension service worker');
}

/** The stream to a page opened over `cdp` (attached for Runtime only: no Network events); with `ext`, its panel open too. */
export async function bareStreamCost(
  cdp: CdpConnection,
  httpUrl: string,
  pid: number,
  stream: StreamOptions,
  floor = '',
  ext?: Awaited<ReturnType<typeof extensionWorker>>,
): Promise<BareCost> {
  const pool = framePool();
  const bench = await startBenchServer({
    pool: pool.frames,
    rate: stream.rate,
    seconds: stream.seconds,
    tickMs: 10,
    big: new Uint8Array(1),
    delayMs: 0,
    startDelayMs: 300,
  });
  // The page's tab: the one that was not there before (tab URLs need the tabs permission).
  const tabIds = async () =>
    ext
      ? (JSON.parse(
          (await ext.evaluate('chrome.tabs.query({}).then((t) => JSON.stringify(t.map((x) => x.id)))')) as string,
        ) as number[])
      : [];
  const tabsBefore = new Set(await tabIds());
  const page = await openBare(cdp);
  const evaluate = page.evaluate;
  let panel: BareTarget | null = null;
  try {
    const pageUrl = `${httpUrl}stream.html?ws=${encodeURIComponent(`${bench.url}/stream`)}${floor ? `&floor=${floor}` : ''}`;
    await page.navigate(pageUrl);
    await cdp.send('Page.disable', {}, page.sessionId);
    if (ext) {
      const fresh = (await tabIds()).filter((id) => !tabsBefore.has(id));
      if (fresh.length !== 1) throw new Error(`cannot tell the stream page's tab (new tabs: ${fresh.join(', ')})`);
      const tabId = fresh[0]!;
      panel = await openBare(cdp, LONGTASK_PROBE);
      await panel.navigate(`chrome-extension://${ext.extensionId}/panel.html?tabId=${tabId}`);
      for (let i = 0; i < 100 && !(await panel.evaluate("!!document.querySelector('[data-testid=frame-count]')")); i++)
        await sleep(100);
    }
    // The panel's long tasks count from here (not its start-up).
    const panelFrom = panel ? ((await panel.evaluate('performance.now()')) as number) : 0;
    const before = threadSnapshot(pid);
    let atEnd = -1;
    let threads: { label: string; seconds: number }[] = [];
    let sent = 0;
    const done = bench.streamDone.then(async (stats) => {
      sent = stats.sent;
      threads = threadsBetween(before, threadSnapshot(pid));
      atEnd = (await evaluate('window.__received')) as number;
    });
    await evaluate('__connect()');
    await done;
    const ios = threads.filter((t) => /^renderer \d+ \/ Chrome_ChildIOT/.test(t.label));
    const rendererPid = ios[0] ? /renderer (\d+)/.exec(ios[0].label)![1] : '';
    const io = ios[0];
    const main = threads.find(
      (t) => t.label === `renderer ${rendererPid} / chromium` || t.label === `renderer ${rendererPid} / CrRendererMain`,
    );
    const devtools = threads.find((t) => t.label === 'browser / Chrome_DevTools');
    let panelResult: PanelResult | undefined;
    if (panel) {
      const shown = async () =>
        Number(
          (
            /([\d,]+) frames/.exec(
              String(await panel!.evaluate("document.querySelector('[data-testid=frame-count]')?.textContent ?? ''")),
            )?.[1] ?? '0'
          ).replace(/,/g, ''),
        );
      let last = -1;
      let lastChange = Date.now();
      for (;;) {
        const now = await shown();
        if (now !== last) [last, lastChange] = [now, Date.now()];
        if (now >= stream.rate * stream.seconds || Date.now() - lastChange > 8000) break;
        await sleep(250);
      }
      const entries = (await panel.evaluate('window.__longtasks')) as [number, number][] | null;
      if (!Array.isArray(entries)) throw new Error('the long-task probe did not run in the panel');
      const tasks = entries.filter(([start]) => start >= panelFrom).map(([, duration]) => duration);
      panelResult = {
        shownFinal: last,
        longestTaskMs: Math.round(Math.max(0, ...tasks)),
        over100: tasks.filter((d) => d > 100).length,
      };
    }
    return {
      panel: panelResult,
      sent,
      frames: atEnd,
      mainUs: ((main?.seconds ?? NaN) * 1e6) / atEnd,
      ioUs: ((io?.seconds ?? 0) * 1e6) / atEnd,
      topSelf: devtools ? `    browser DevTools thread ${devtools.seconds.toFixed(2)} s` : undefined,
    };
  } finally {
    await panel?.close();
    await page.close();
    await bench.close();
  }
}
