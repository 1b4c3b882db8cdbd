/**
 * The worker's text search (dispatcher + content-search.ts) on bench:ui's capture, in this
 * process: CPU (process.cpuUsage) beside wall, no browser. ui-bench.ts prints it beside the
 * browser's figures; `npx tsx e2e/bench/search-in-node.ts [--mb 100] [--runs 3]` runs it alone.
 */
import { pathToFileURL } from 'node:url';
import { createDispatcher } from '../../inspector-app/src/worker/dispatcher.js';
import { framePool } from './payloads.js';

export interface NodeSearchRun {
  readonly needle: string;
  readonly matches: number;
  readonly wallMs: number;
  readonly cpuMs: number;
}

/** A needle in a few frames (the start of the first order id), and one in nearly all of them (a payloads.ts word). */
export function needles(frames: readonly Uint8Array[]): string[] {
  const text = new TextDecoder().decode(frames.find((f) => new TextDecoder().decode(f).includes('ord-'))!);
  return [/ord-\d{5}/.exec(text)![0], 'juliet'];
}

/** Frames of the pool, in order, until `mb` MB: the capture searched. */
export function searchCapture(frames: readonly Uint8Array[], mb: number): { count: number; bytes: number } {
  let bytes = 0;
  let count = 0;
  while (bytes < mb * 1024 * 1024) bytes += frames[count++ % frames.length].length;
  return { count, bytes };
}

export async function searchInNode(frames: readonly Uint8Array[], count: number): Promise<NodeSearchRun[]> {
  let onDone: (matches: number) => void = () => {};
  let matches = 0;
  const dispatch = createDispatcher(
    (m) => {
      if (m.type !== 'filter-progress') return;
      matches += m.matches.length;
      if (m.done) onDone(matches);
      // As the browser's worker does (a MessageChannel turn): no timer clamp between slices.
    },
    { yieldTo: (next) => setImmediate(next) },
  );
  const ingest = Array.from({ length: count }, (_, i) => ({
    frameId: i + 1,
    connectionId: 'c',
    direction: 'received' as const,
    time: 0,
    opcode: 'binary' as const,
    data: frames[i % frames.length],
  }));
  for (let i = 0; i < ingest.length; i += 10_000) dispatch({ type: 'ingest', frames: ingest.slice(i, i + 10_000) });
  const out: NodeSearchRun[] = [];
  let generation = 0;
  for (const needle of needles(frames)) {
    matches = 0;
    const done = new Promise<number>((r) => (onDone = r));
    const cpu = process.cpuUsage();
    const t = performance.now();
    dispatch({ type: 'filter', generation: ++generation, text: needle, path: '' });
    const found = await done;
    out.push({ needle, matches: found, wallMs: performance.now() - t, cpuMs: process.cpuUsage(cpu).user / 1000 });
  }
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const argv = process.argv.slice(2);
  const option = (name: string, fallback: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
  const pool = framePool();
  const { count, bytes } = searchCapture(pool.frames, Number(option('--mb', '100')));
  console.log(`${count} frames, ${(bytes / 2 ** 20).toFixed(1)} MB`);
  for (let run = 0; run < Number(option('--runs', '3')); run++) {
    for (const r of await searchInNode(pool.frames, count))
      console.log(
        `"${r.needle}": ${r.matches} matches, ${Math.round(r.wallMs)} ms wall, ${Math.round(r.cpuMs)} ms CPU`,
      );
  }
}
