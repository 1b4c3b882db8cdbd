/**
 * Socket.IO text framing vs the JSON walker on the same JSON bytes (issue 15: framing adds
 * ≤ 10 %): `42["event",{…}]` indexed whole by the Socket.IO walker against `["event",{…}]`
 * indexed whole by the JSON walker, several sizes, contenders interleaved in one run, CPU
 * time (`process.cpuUsage`) beside wall time, the lowest sample of each.
 */
import { SpanIndex } from '../core/span-index.js';
import { jsonWalker } from '../json/walker.js';
import { socketIoWalker } from '../protocols/socketio-walker.js';
import { generateDocument } from './generate.js';
import { fmtTime, measureTimings } from './measure.js';

export const FRAMING_SIZES = [100, 1_000, 10_000, 100_000, 1_000_000];
export const FRAMING_TARGET = 1.1;
/** Rounds per size: the small frames' difference is a few hundred ns, so their lowest sample needs more tries than a ratio of 2x did. */
export const ROUNDS = 21;
const WARM_MS = 60;

export interface FramingRow {
  readonly bytes: number;
  readonly json: { cpu: number; wall: number };
  readonly socketio: { cpu: number; wall: number };
  readonly cpuRatio: number;
  readonly wallRatio: number;
}

export function runFramingBench(options: { quick?: boolean; sizes?: readonly number[] } = {}): { rows: FramingRow[]; table: string } {
  const rows: FramingRow[] = [];
  for (const size of options.sizes ?? FRAMING_SIZES) {
    const json = new TextEncoder().encode(JSON.stringify(['update', generateDocument(size, 7)]));
    const frame = new Uint8Array(json.length + 2);
    frame.set([0x34, 0x32]);
    frame.set(json, 2);
    // The same bytes to both: one framing function is measured on its frame, the other on the JSON inside it.
    const contenders = [
      { name: 'json', run: () => new SpanIndex(json, jsonWalker) },
      { name: 'socketio', run: () => new SpanIndex(frame, socketIoWalker) },
    ];
    // Warmed first, each on its frame: the first (smallest) size otherwise timed code the JIT
    // was still settling (383 B read 1.1x-1.7x from one run to the next; warmed, 1.1x-1.2x).
    for (const c of contenders) {
      const t0 = performance.now();
      while (performance.now() - t0 < WARM_MS) c.run();
    }
    const [j, s] = measureTimings(json, contenders, options.quick ? 5 : ROUNDS);
    rows.push({ bytes: frame.length, json: { cpu: j.cpuMin, wall: j.wallMin }, socketio: { cpu: s.cpuMin, wall: s.wallMin }, cpuRatio: s.cpuMin / j.cpuMin, wallRatio: s.wallMin / j.wallMin });
  }
  const worst = Math.max(...rows.map((r) => r.cpuRatio));
  const table = [
    '| frame | JSON walker (CPU / wall) | Socket.IO walker (CPU / wall) | ratio CPU | ratio wall |',
    '|---:|---:|---:|---:|---:|',
    ...rows.map((r) => `| ${r.bytes.toLocaleString('en-US')} B | ${fmtTime(r.json.cpu)} / ${fmtTime(r.json.wall)} | ${fmtTime(r.socketio.cpu)} / ${fmtTime(r.socketio.wall)} | ${r.cpuRatio.toFixed(2)}x | ${r.wallRatio.toFixed(2)}x |`),
    '',
    `Socket.IO framing over the JSON walker, worst CPU ratio ${worst.toFixed(2)}x (target ≤ ${FRAMING_TARGET.toFixed(2)}x): ${worst <= FRAMING_TARGET ? 'met' : 'NOT met'}.`,
  ].join('\n');
  return { rows, table };
}
