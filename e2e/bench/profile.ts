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
  id?: string;
  args?: { name?: string; data?: { cpuProfile?: { nodes?: ChunkNode[]; samples?: number[] }; timeDeltas?: number[] } };
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
}

export const startProfile = (browser: Browser, page: Page): Promise<void> =>
  browser.startTracing(page, { categories: ['disabled-by-default-v8.cpu_profiler', 'v8', 'devtools.timeline', '__metadata'] });

const nameOf = (f: CallFrame) => `${f.functionName || '(anonymous)'}${f.url ? ` ${f.url.replace(/^.*\//, '')}:${f.lineNumber + 1}` : ''}`;
const SKIP = /^\((idle|program|garbage collector|root)\)/;

export async function stopProfile(browser: Browser, top = 12): Promise<ThreadProfile[]> {
  const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
  const threadName = new Map<string, string>();
  const profiles = new Map<string, { thread: string; nodes: Map<number, ChunkNode>; samples: number[]; deltas: number[] }>();
  for (const e of trace.traceEvents) {
    if (e.ph === 'M' && e.name === 'thread_name') threadName.set(`${e.pid}:${e.tid}`, e.args?.name ?? '?');
  }
  for (const e of trace.traceEvents) {
    if ((e.name !== 'Profile' && e.name !== 'ProfileChunk') || !e.id) continue;
    const key = `${e.pid}:${e.id}`;
    let p = profiles.get(key);
    if (!p) profiles.set(key, (p = { thread: threadName.get(`${e.pid}:${e.tid}`) ?? `${e.pid}:${e.tid}`, nodes: new Map(), samples: [], deltas: [] }));
    const data = e.args?.data;
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
    const rows = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([fn]) => ({ fn, selfMs: self.get(fn) ?? 0, totalMs: total.get(fn) ?? 0 }));
    out.push({ thread: p.thread, busyMs, total: rows(total), self: rows(self) });
  }
  return out.sort((a, b) => b.busyMs - a.busyMs);
}
