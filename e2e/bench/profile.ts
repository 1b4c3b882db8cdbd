/**
 * `--profile`: a Chrome trace with V8's sampling profiler for one phase, reduced per thread
 * (the page's main thread and the decode worker) to the functions with the most time.
 * Build the app unminified for readable names:
 *   npx vite build --config inspector-app/vite.config.ts --minify false --outDir /tmp/wsapp-dev
 * and pass `--app-dir /tmp/wsapp-dev`.
 */
import type { Browser, Page } from 'playwright-core';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ChunkNode {
  id: number;
  callFrame: CallFrame;
  parent?: number;
}
interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts?: number;
  dur?: number;
  id?: string;
  args?: {
    name?: string;
    data?: { cpuProfile?: { nodes?: ChunkNode[]; samples?: number[] }; timeDeltas?: number[]; startTime?: number };
  };
}

export interface ProfileRow {
  readonly fn: string;
  readonly selfMs: number;
  readonly totalMs: number;
}

export interface ThreadProfile {
  readonly thread: string;
  /** Sampled non-idle time. */
  readonly busyMs: number;
  /** Heaviest by inclusive time (a function counted once per sample). */
  readonly total: ProfileRow[];
  readonly self: ProfileRow[];
  /** Tasks over `longTaskMs` on this thread, longest first: their length and the functions with the most self time in them. */
  readonly longTasks: { readonly ms: number; readonly self: ProfileRow[]; readonly phases: string }[];
}

export const startProfile = (browser: Browser, page: Page): Promise<void> =>
  browser.startTracing(page, {
    categories: ['disabled-by-default-v8.cpu_profiler', 'v8', 'devtools.timeline', 'toplevel', '__metadata'],
  });

const nameOf = (f: CallFrame) =>
  `${f.functionName || '(anonymous)'}${f.url ? ` ${f.url.replace(/^.*\//, '')}:${f.lineNumber + 1}` : ''}`;
const SKIP = /^\((idle|program|garbage collector|root)\)/;
/** Renderer phases reported per long task. */
const PHASES = new Set([
  'UpdateLayoutTree',
  'Layout',
  'PrePaint',
  'Paint',
  'Layerize',
  'Commit',
  'MajorGC',
  'MinorGC',
  'V8.GC_MARK_COMPACTOR',
  'HitTest',
  'ScrollLayer',
  'EventDispatch',
  'FunctionCall',
  'TimerFire',
  'FireAnimationFrame',
  'RunMicrotasks',
  'ParseHTML',
]);

export async function stopProfile(browser: Browser, top = 12, longTaskMs = 100): Promise<ThreadProfile[]> {
  const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
  const threadName = new Map<string, string>();
  const profiles = new Map<
    string,
    {
      thread: string;
      threadKey: string;
      start: number;
      nodes: Map<number, ChunkNode>;
      samples: number[];
      deltas: number[];
    }
  >();
  // Top-level tasks per thread (µs): the long ones get their own breakdown.
  const tasks = new Map<string, [number, number][]>();
  for (const e of trace.traceEvents) {
    if (
      e.ph !== 'X' ||
      (e.name !== 'RunTask' && e.name !== 'ThreadControllerImpl::RunTask') ||
      e.ts === undefined ||
      (e.dur ?? 0) < longTaskMs * 1000
    )
      continue;
    const key = `${e.pid}:${e.tid}`;
    if (!tasks.has(key)) tasks.set(key, []);
    tasks.get(key)!.push([e.ts, e.ts + e.dur!]);
  }
  for (const e of trace.traceEvents) {
    if (e.ph === 'M' && e.name === 'thread_name') threadName.set(`${e.pid}:${e.tid}`, e.args?.name ?? '?');
  }
  for (const e of trace.traceEvents) {
    if ((e.name !== 'Profile' && e.name !== 'ProfileChunk') || !e.id) continue;
    const key = `${e.pid}:${e.id}`;
    let p = profiles.get(key);
    if (!p)
      profiles.set(
        key,
        (p = {
          thread: threadName.get(`${e.pid}:${e.tid}`) ?? `${e.pid}:${e.tid}`,
          threadKey: `${e.pid}:${e.tid}`,
          start: 0,
          nodes: new Map(),
          samples: [],
          deltas: [],
        }),
      );
    const data = e.args?.data;
    if (e.name === 'Profile' && typeof data?.startTime === 'number') p.start = data.startTime;
    for (const n of data?.cpuProfile?.nodes ?? []) p.nodes.set(n.id, n);
    p.samples.push(...(data?.cpuProfile?.samples ?? []));
    p.deltas.push(...(data?.timeDeltas ?? []));
  }
  const out: ThreadProfile[] = [];
  for (const p of profiles.values()) {
    const self = new Map<string, number>();
    const total = new Map<string, number>();
    let busyMs = 0;
    p.samples.forEach((id, i) => {
      const dt = (p.deltas[i + 1] ?? 0) / 1000; // a sample lasts until the next one
      const leaf = p.nodes.get(id);
      if (!leaf || SKIP.test(nameOf(leaf.callFrame))) return;
      busyMs += dt;
      self.set(nameOf(leaf.callFrame), (self.get(nameOf(leaf.callFrame)) ?? 0) + dt);
      const seen = new Set<string>();
      for (let n: ChunkNode | undefined = leaf; n; n = n.parent === undefined ? undefined : p.nodes.get(n.parent)) {
        const name = nameOf(n.callFrame);
        if (seen.has(name) || SKIP.test(name)) continue;
        seen.add(name);
        total.set(name, (total.get(name) ?? 0) + dt);
      }
    });
    if (busyMs < 1) continue;
    const rows = (m: Map<string, number>) =>
      [...m]
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(([fn]) => ({ fn, selfMs: self.get(fn) ?? 0, totalMs: total.get(fn) ?? 0 }));
    // Samples inside each long task, by self time (a sample's time stamp: the profile's start plus the deltas so far).
    const long = (tasks.get(p.threadKey) ?? []).sort((a, b) => b[1] - b[0] - (a[1] - a[0]));
    const inTask = long.map(() => new Map<string, number>());
    let at = p.start;
    p.samples.forEach((id, i) => {
      at += p.deltas[i] ?? 0;
      const leaf = p.nodes.get(id);
      if (!leaf) return;
      const k = long.findIndex(([from, to]) => at >= from && at < to);
      if (k < 0) return;
      const name = nameOf(leaf.callFrame);
      inTask[k]!.set(name, (inTask[k]!.get(name) ?? 0) + (p.deltas[i + 1] ?? 0) / 1000);
    });
    // The renderer's own phases inside each long task (style, layout, paint, GC …), summed by name.
    const phases = long.map(([from, to]) => {
      const by = new Map<string, number>();
      for (const e of trace.traceEvents) {
        if (
          e.ph !== 'X' ||
          `${e.pid}:${e.tid}` !== p.threadKey ||
          e.ts === undefined ||
          e.ts < from ||
          e.ts >= to ||
          !PHASES.has(e.name)
        )
          continue;
        by.set(e.name, (by.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
      }
      return [...by]
        .sort((a, b) => b[1] - a[1])
        .map(([n, v]) => `${n} ${Math.round(v)} ms`)
        .join(', ');
    });
    const longTasks = long.map(([from, to], k) => ({
      ms: (to - from) / 1000,
      phases: phases[k]!,
      self: [...inTask[k]!]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 6)
        .map(([fn, v]) => ({ fn, selfMs: v, totalMs: v })),
    }));
    out.push({ thread: p.thread, busyMs, total: rows(total), self: rows(self), longTasks });
  }
  return out.sort((a, b) => b.busyMs - a.busyMs);
}
