/**
 * bench:ui's treemap phase: the Bytes tab's treemap of a 2.27 MB CBOR record set (the Text
 * tab's frame, over the 2 MB the target names). In Chromium: the Bytes tab clicked → the
 * first rectangle painted (the worker's layout, then the SVG), then "by field" clicked →
 * painted, the longest main-thread task meanwhile. In Node, the same layouts as the worker
 * runs them, wall time beside CPU time (process.cpuUsage).
 */
import type { Browser, Page } from 'playwright-core';
import { decodeFrame, fieldByteMap, nodeByteMap } from '../../codecs/index.js';
import { armWatch, awaitWatch, pageNow, readProbes } from './page-probes.js';
import { procAvailable, threadSnapshot, threadsBetween } from './proc-cpu.js';

export const TARGET_TREEMAP_MS = 200;

export interface TreemapResult {
  readonly bytes: number;
  readonly rects: number;
  readonly width: number;
  readonly height: number;
  /** Bytes tab clicked → first rectangle painted (layout + SVG). */
  readonly tabToMap: number;
  /** CPU time of the page's renderer (main thread, decode worker, compositor …) over that time, from /proc; NaN elsewhere. */
  readonly tabToMapCpu: number;
  /** "by field" clicked → its first rectangle painted (layout + SVG; the index is built). */
  readonly byField: number;
  /** Longest main-thread task from the Bytes tab click on. */
  readonly longestTask: number;
  readonly node: {
    readonly layoutWall: number;
    readonly layoutCpu: number;
    readonly fieldWall: number;
    readonly fieldCpu: number;
    readonly indexWall: number;
    readonly indexCpu: number;
  };
}

const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

function timed<T>(f: () => T): { value: T; wall: number; cpu: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = f();
  return { value, wall: performance.now() - t0, cpu: cpuMs(process.cpuUsage(c0)) };
}

/**
 * The worker's work in Node, from the one level the list row recorded: the by-node layout
 * (which reads only the containers it opens), then the full index and the by-field layout,
 * at the size the page drew.
 */
function inNode(frame: Uint8Array, width: number, height: number) {
  const index = decodeFrame(frame, { format: 'cbor', depth: 1 }).index!;
  const node = timed(() => nodeByteMap(index, { width, height }));
  const built = timed(() => index.expandAll(index.root));
  const field = timed(() => fieldByteMap(index, { width, height }));
  return {
    indexWall: built.wall,
    indexCpu: built.cpu,
    layoutWall: node.wall,
    layoutCpu: node.cpu,
    fieldWall: field.wall,
    fieldCpu: field.cpu,
  };
}

/** `open` gives a page on the inspector connected to the record-set endpoint. */
export async function treemapPhase(
  open: () => Promise<Page>,
  frame: Uint8Array,
  _browser: Browser,
): Promise<TreemapResult> {
  const page = await open();
  await page.locator('[data-testid=frame-row]').first().waitFor({ timeout: 60_000 });
  await page.locator('[data-testid=frame-row]').first().click();
  await page.locator('[data-testid=tree-row]').first().waitFor({ timeout: 60_000 });
  await new Promise((r) => setTimeout(r, 1000)); // the tree and the worker settle
  const from = await pageNow(page);
  await armWatch(page, 'map', '[data-testid=bytes-map-node] [data-testid=bytes-map-rect]');
  const clickAt = await pageNow(page);
  // (Playwright's Chromium is a child of this process: its renderers are under our pid.)
  const threadsFrom = procAvailable() ? threadSnapshot(process.pid) : null;
  await page.getByTestId('tab-bytes').click();
  const map = await awaitWatch(page, 'map', 60_000);
  const tabToMapCpu = threadsFrom
    ? threadsBetween(threadsFrom, threadSnapshot(process.pid))
        .filter((t) => t.label.startsWith('renderer '))
        .reduce((sum, t) => sum + t.seconds * 1000, 0)
    : NaN;
  await new Promise((r) => setTimeout(r, 500));
  await armWatch(page, 'field', '[data-testid=bytes-map-field] [data-testid=bytes-map-rect]');
  const fieldAt = await pageNow(page);
  await page.getByTestId('bytes-map-by-field').check();
  const field = await awaitWatch(page, 'field', 60_000);
  await new Promise((r) => setTimeout(r, 500));
  const probes = await readProbes(page);
  const svg = await page.getByTestId('bytes-map-svg').evaluate((el) => ({
    width: Number(el.getAttribute('width')),
    height: Number(el.getAttribute('height')),
  }));
  await page.getByTestId('bytes-map-by-node').check();
  await page.locator('[data-testid=bytes-map-node] [data-testid=bytes-map-rect]').first().waitFor();
  const rects = await page.locator('[data-testid=bytes-map-node] [data-testid=bytes-map-rect]').count();
  await page.close();
  return {
    bytes: frame.length,
    rects,
    width: svg.width,
    height: svg.height,
    tabToMap: map.painted - clickAt,
    tabToMapCpu,
    byField: field.painted - fieldAt,
    longestTask: probes.longtasks.filter((t) => t.start >= from).reduce((m, t) => Math.max(m, t.duration), 0),
    node: inNode(frame, svg.width, svg.height),
  };
}

const ms = (v: number) => (Number.isFinite(v) ? `${Math.round(v).toLocaleString('en-US')} ms` : 'timed out');

export function treemapRows(t: TreemapResult): [string, string, string][] {
  const mb = (t.bytes / 1024 / 1024).toFixed(2);
  return [
    [
      `Bytes tab treemap of a ${mb} MB CBOR record set: click → first rectangle painted (layout, SVG)`,
      `${ms(t.tabToMap)}, renderer CPU ${ms(t.tabToMapCpu)} (${t.rects.toLocaleString('en-US')} rectangles, ${t.width}×${t.height} px)`,
      `≤ ${TARGET_TREEMAP_MS} ms`,
    ],
    ['treemap: "by field" clicked → painted', ms(t.byField), `≤ ${TARGET_TREEMAP_MS} ms`],
    ['treemap: longest main-thread task from the click', ms(t.longestTask), `≤ ${TARGET_TREEMAP_MS} ms`],
    [
      "treemap in Node (the worker's code): by-node layout / full index / by-field layout, wall (CPU)",
      `${ms(t.node.layoutWall)} (${ms(t.node.layoutCpu)}) / ${ms(t.node.indexWall)} (${ms(t.node.indexCpu)}) / ${ms(t.node.fieldWall)} (${ms(t.node.fieldCpu)})`,
      '',
    ],
  ];
}
