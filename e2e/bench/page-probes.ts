/**
 * What the benchmark measures inside the page. `installProbes` runs before the app (an init
 * script): long tasks and long animation frames (buffered PerformanceObservers), and the
 * time each large WebSocket message reaches the page. The other functions run through
 * page.evaluate.
 */
import type { Page } from 'playwright-core';

export interface LongTask {
  readonly start: number;
  readonly duration: number;
}

export interface LoafScript {
  readonly fn: string;
  readonly url: string;
  readonly invoker: string;
  readonly duration: number;
}

export interface Loaf extends LongTask {
  readonly blocking: number;
  readonly scripts: readonly LoafScript[];
}

export interface Probes {
  longtasks: LongTask[];
  loafs: Loaf[];
  /** performance.now() of WebSocket messages over 1 MB, with their size. */
  big: { t: number; size: number }[];
}

/** Serialized into the page: no closures over module scope. */
export function installProbes(): void {
  const w = window as unknown as { __bench: Probes; WebSocket: typeof WebSocket };
  const probes: Probes = { longtasks: [], loafs: [], big: [] };
  w.__bench = probes;
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) probes.longtasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // not supported: reported as missing
  }
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as unknown as {
        startTime: number;
        duration: number;
        blockingDuration: number;
        scripts: { sourceFunctionName: string; sourceURL: string; invoker: string; duration: number }[];
      }[]) {
        probes.loafs.push({
          start: e.startTime,
          duration: e.duration,
          blocking: e.blockingDuration,
          scripts: e.scripts.map((s) => ({
            fn: s.sourceFunctionName,
            url: s.sourceURL,
            invoker: s.invoker,
            duration: s.duration,
          })),
        });
      }
    }).observe({ type: 'long-animation-frame', buffered: true });
  } catch {
    // older browsers
  }
  const Native = w.WebSocket;
  w.WebSocket = class extends Native {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.addEventListener('message', (e: MessageEvent) => {
        const size =
          e.data instanceof ArrayBuffer
            ? e.data.byteLength
            : e.data instanceof Blob
              ? e.data.size
              : String(e.data).length;
        if (size > 1e6) probes.big.push({ t: performance.now(), size });
      });
    }
  };
}

export const readProbes = (page: Page): Promise<Probes> =>
  page.evaluate(() => (window as unknown as { __bench: Probes }).__bench);
export const pageNow = (page: Page): Promise<number> => page.evaluate(() => performance.now());

/** The number in the status bar's `frame-count` ("1234 frames" / "12 of 1234 frames"). */
export async function shownFrames(page: Page): Promise<number> {
  const text = (await page.getByTestId('frame-count').textContent()) ?? '';
  const m = /(\d+) frames/.exec(text.replace(/,/g, ''));
  return m ? Number(m[1]) : 0;
}

export interface ScrollProbe {
  readonly before: number;
  readonly target: number;
  readonly after: number;
  /** scrollTop changed (and was not pulled back by the list following its tail). */
  readonly moved: boolean;
  /** frame-rows drawn inside the list's viewport two frames after the scroll. */
  readonly rowsInView: number;
  /** From setting scrollTop to the second animation frame after it. */
  readonly ms: number;
}

/** Scrolls the frame list 4000 px up, or back to its end, and checks that it moved and drew rows. */
export function scrollList(page: Page, up: boolean): Promise<ScrollProbe> {
  return page.evaluate((up) => {
    const el = document.querySelector('[data-testid=frame-list]') as HTMLElement;
    const before = el.scrollTop;
    const max = el.scrollHeight - el.clientHeight;
    // Up: away from the tail (the list stops following it); down: back to the tail (it follows again).
    const target = up ? (before >= 4000 ? before - 4000 : Math.min(max, before + 4000)) : max;
    const t = performance.now();
    el.scrollTop = target;
    return new Promise<ScrollProbe>((resolve) =>
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          const box = el.getBoundingClientRect();
          const rowsInView = [...el.querySelectorAll('[data-testid=frame-row]')].filter((r) => {
            const b = r.getBoundingClientRect();
            return b.bottom > box.top + 22 && b.top < box.bottom;
          }).length;
          const after = el.scrollTop;
          resolve({
            before,
            target,
            after,
            moved: Math.abs(after - before) >= 1,
            rowsInView,
            ms: performance.now() - t,
          });
        }),
      ),
    );
  }, up);
}

/**
 * Arms a watcher: resolves (in `window.__watch[key]`) with the performance.now() of the first
 * mutation after which `selector` matches at least `count` elements, and of the task after
 * the next animation frame (≈ painted). Also records the first mousedown's time.
 */
export function armWatch(page: Page, key: string, selector: string, count = 1): Promise<void> {
  return page.evaluate(
    ({ key, selector, count }) => {
      const w = window as unknown as { __watch?: Record<string, Promise<Watched>> };
      let down = NaN;
      document.addEventListener('mousedown', () => (down = performance.now()), { capture: true, once: true });
      (w.__watch ??= {})[key] = new Promise((resolve) => {
        const check = () => {
          if (document.querySelectorAll(selector).length < count) return false;
          const seen = performance.now();
          observer.disconnect();
          requestAnimationFrame(() => {
            const ch = new MessageChannel();
            ch.port1.onmessage = () => resolve({ down, seen, painted: performance.now() });
            ch.port2.postMessage(0);
          });
          return true;
        };
        const observer = new MutationObserver(() => void check());
        observer.observe(document.body, { childList: true, subtree: true });
        check();
      });
    },
    { key, selector, count },
  );
}

export interface Watched {
  /** First mousedown after arming (NaN if none). */
  readonly down: number;
  /** The mutation that made the selector match. */
  readonly seen: number;
  /** The task after the next animation frame: the change is painted. */
  readonly painted: number;
}

/** The watcher's times; `painted` is NaN when nothing matched within `timeoutMs`. */
export const awaitWatch = (page: Page, key: string, timeoutMs: number): Promise<Watched> =>
  page.evaluate(
    ({ key, timeoutMs }) =>
      Promise.race([
        (window as unknown as { __watch: Record<string, Promise<Watched>> }).__watch[key],
        new Promise<Watched>((resolve) => setTimeout(() => resolve({ down: NaN, seen: NaN, painted: NaN }), timeoutMs)),
      ]),
    { key, timeoutMs },
  );

/** Main-thread script time in long animation frames from `from` on, by function, heaviest first. */
export function loafScripts(p: Probes, from: number, top = 6): string[] {
  const by = new Map<string, number>();
  for (const f of p.loafs)
    if (f.start >= from)
      for (const s of f.scripts) {
        const key = `${s.invoker} → ${s.fn || '(anonymous)'} ${s.url.replace(/^.*\//, '')}`;
        by.set(key, (by.get(key) ?? 0) + s.duration);
      }
  return [...by]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k, v]) => `${Math.round(v).toLocaleString('en-US')} ms ${k}`);
}
