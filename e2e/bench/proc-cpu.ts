/**
 * CPU time of a browser's processes from /proc (Linux): the whole browser (browser, network,
 * renderer and extension processes) and the main threads of its page renderers, while a
 * page works. CPU time, unlike the wall time of tasks, does not grow when another process
 * takes the core, so it is the steadier measure of what a page costs on a busy 2-core
 * machine. Elsewhere `procAvailable()` is false and the benchmark prints no CPU figures.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ: 100 on every Linux this runs on

export const procAvailable = (): boolean => existsSync('/proc/self/stat');

export interface CpuSnapshot {
  /** Seconds of CPU (user + system) of each process under the browser's (and its own), by pid. */
  readonly processSeconds: ReadonlyMap<number, number>;
  /** Seconds of CPU of each page renderer's main thread (the thread whose id is the process id), by pid. */
  readonly rendererMainSeconds: ReadonlyMap<number, number>;
}

/** utime + stime in seconds, and the parent pid, from a /proc stat file. */
function readStat(file: string): { ppid: number; seconds: number } | null {
  try {
    // Fields after the command name (which may hold spaces): state ppid … utime(14) stime(15).
    const fields = readFileSync(file, 'utf8').split(') ')[1]!.split(' ');
    return { ppid: Number(fields[1]), seconds: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND };
  } catch {
    return null; // exited meanwhile
  }
}

export function cpuSnapshot(browserPid: number): CpuSnapshot {
  const parentOf = new Map<number, number>();
  const seconds = new Map<number, number>();
  for (const entry of procAvailable() ? readdirSync('/proc') : []) {
    if (!/^\d+$/.test(entry)) continue;
    const s = readStat(`/proc/${entry}/stat`);
    if (s) [parentOf.set(Number(entry), s.ppid), seconds.set(Number(entry), s.seconds)];
  }
  const processSeconds = new Map<number, number>();
  const rendererMainSeconds = new Map<number, number>();
  for (const [pid, s] of seconds) {
    let under = false;
    for (let p: number | undefined = pid; p !== undefined && p > 1; p = parentOf.get(p)) {
      if (p === browserPid) {
        under = true;
        break;
      }
    }
    if (!under) continue;
    processSeconds.set(pid, s);
    let cmdline = '';
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (!cmdline.includes('--type=renderer') || cmdline.includes('--extension-process')) continue;
    const main = readStat(`/proc/${pid}/task/${pid}/stat`);
    if (main) rendererMainSeconds.set(pid, main.seconds);
  }
  return { processSeconds, rendererMainSeconds };
}

/**
 * CPU used between two snapshots: the whole browser's, and the busiest page renderer's
 * main thread (the page under test: the others are idle). Per process, over the processes
 * alive at the end: a process that exited meanwhile (the last run's renderer) must not
 * subtract its whole life from the sum.
 */
export function cpuBetween(before: CpuSnapshot, after: CpuSnapshot): { treeSeconds: number; pageMainSeconds: number } {
  let treeSeconds = procAvailable() ? 0 : NaN;
  for (const [pid, s] of after.processSeconds) treeSeconds += s - (before.processSeconds.get(pid) ?? 0);
  let pageMainSeconds = procAvailable() ? 0 : NaN;
  for (const [pid, s] of after.rendererMainSeconds)
    pageMainSeconds = Math.max(pageMainSeconds, s - (before.rendererMainSeconds.get(pid) ?? 0));
  return { treeSeconds, pageMainSeconds };
}

/** One thread's CPU and what it is: the process kind (from its command line) and the thread's name. */
export interface ThreadCpu {
  readonly label: string;
  readonly seconds: number;
}

function processKind(pid: number, browserPid: number): string {
  if (pid === browserPid) return 'browser';
  let cmdline = '';
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return 'gone';
  }
  const type = /--type=([\w-]+)/.exec(cmdline)?.[1] ?? 'other';
  if (type === 'renderer')
    return cmdline.includes('--extension-process') ? `extension renderer ${pid}` : `renderer ${pid}`;
  if (type === 'utility')
    return `utility ${/--utility-sub-type=([\w.]+)/.exec(cmdline)?.[1]?.replace(/^.*\./, '') ?? ''}`.trim();
  return type;
}

/**
 * CPU of every thread of the browser's process tree, by "process kind / thread name"
 * (CrRendererMain, DedicatedWorker thread, ServiceWorker thread, …): during the panel
 * flood, where the cores go — the page, the panel, its decode worker, the service worker.
 */
export function threadSnapshot(browserPid: number): Map<string, ThreadCpu> {
  const out = new Map<string, ThreadCpu>();
  for (const pid of cpuSnapshot(browserPid).processSeconds.keys()) {
    const kind = processKind(pid, browserPid);
    let tids: string[] = [];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      const s = readStat(`/proc/${pid}/task/${tid}/stat`);
      if (!s) continue;
      let name = '';
      try {
        name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      } catch {
        continue;
      }
      out.set(`${pid}/${tid}`, { label: `${kind} / ${name}`, seconds: s.seconds });
    }
  }
  return out;
}

/** CPU seconds between two thread snapshots, summed by label, heaviest first (threads under 10 ms left out). */
export function threadsBetween(
  before: ReadonlyMap<string, ThreadCpu>,
  after: ReadonlyMap<string, ThreadCpu>,
): { label: string; seconds: number }[] {
  const by = new Map<string, number>();
  for (const [key, t] of after) by.set(t.label, (by.get(t.label) ?? 0) + t.seconds - (before.get(key)?.seconds ?? 0));
  return [...by]
    .map(([label, seconds]) => ({ label, seconds }))
    .filter((t) => t.seconds >= 0.01)
    .sort((a, b) => b.seconds - a.seconds);
}
