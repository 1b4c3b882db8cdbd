/**
 * The chart's data: cumulative message bytes over the session, per codec,
 * sampled at up to `points` message positions. Each codec's last point equals its total
 * row's `size` (the frames' own bytes, or each value re-encoded), so the chart and the
 * table agree. Codecs this module cannot encode (rows another module adds) are listed in
 * `notCharted` with why, never silently left out.
 */
import { codecByName, encodedBytes } from '../codecs.js';
import { frameValue } from '../compare.js';
import { scanValue } from '../features.js';
import type { CodecSizes, SessionMessage } from './session.js';

export interface CumulativeSeries {
  readonly codec: string;
  readonly label: string;
  /** Cumulative bytes after message `at[i]` (1-based count of messages so far). */
  readonly bytes: readonly number[];
  /**
   * Messages the codec left out (absent: none). Its line then sums fewer messages than the
   * others, so it reads cheaper than it is: the views say "N of M messages" and mark the line.
   */
  readonly left?: number;
  /** Messages it encoded (with `left`: its total row's `messages`). */
  readonly messages?: number;
}

export interface SessionChartData {
  /** Messages counted at each sample (ascending; the last is the session's length). */
  readonly at: readonly number[];
  readonly series: readonly CumulativeSeries[];
  /** Codecs with no line: their row's label (as the table names them) and why, in the table's words. */
  readonly notCharted: readonly NotCharted[];
}

export interface NotCharted {
  readonly codec: string;
  readonly label: string;
  readonly why: string;
}

export interface CumulativeOptions {
  readonly points?: number;
  readonly signal?: AbortSignal;
  /** Messages between event-loop turns (default 500). */
  readonly yieldEvery?: number;
}

const nextTick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** Which message counts to sample: about `points` of them, evenly spaced, always the last. */
export function samplePositions(total: number, points: number): number[] {
  if (total <= 0) return [];
  const n = Math.max(1, Math.min(total, points));
  const out: number[] = [];
  for (let i = 1; i <= n; i++) out.push(Math.round((i * total) / n));
  return out;
}

/**
 * `codecs`: name and label of each codec row ('captured' = the frames' bytes). Data frames
 * only (opcode 1 / 2), as compareSession counts them. Returns null when aborted.
 */
export async function cumulativeBytes(
  messages: readonly SessionMessage[],
  codecs: readonly { readonly codec: string; readonly label: string }[],
  options: CumulativeOptions = {},
): Promise<SessionChartData | null> {
  const data = messages.filter((m) => m.opcode === 1 || m.opcode === 2);
  const at = samplePositions(data.length, options.points ?? 120);
  const yieldEvery = options.yieldEvery ?? 500;
  const charted = codecs.filter((c) => c.codec === 'captured' || codecByName(c.codec));
  const notCharted = codecs
    .filter((c) => !charted.includes(c))
    .map((c) => ({
      codec: c.codec,
      label: c.label,
      why: 'its sizes come from a schema inferred from the whole session',
    }));
  const needsValues = charted.some((c) => c.codec !== 'captured');
  const running = charted.map(() => 0);
  const series = charted.map(() => [] as number[]);
  let next = 0;
  for (let i = 0; i < data.length; i++) {
    if (i % yieldEvery === yieldEvery - 1) {
      await nextTick();
      if (options.signal?.aborted) return null;
    }
    const m = data[i];
    let value: unknown;
    let decoded = false;
    if (needsValues) {
      try {
        value = frameValue(m.data, { isText: m.opcode === 1 }).value;
        decoded = true;
      } catch {
        // A frame that does not decode counts only for 'captured' (compareSession leaves it out of the others too).
      }
    }
    const features = decoded ? scanValue(value) : null;
    charted.forEach((c, k) => {
      if (c.codec === 'captured') running[k] += m.data.length;
      else if (decoded && features) {
        const codec = codecByName(c.codec)!;
        if (codec.represent(value, features)) return;
        try {
          running[k] += encodedBytes(codec.write(codec.prepare(value, features, new Map()))).length;
        } catch {
          // compareSession leaves a message its encoder throws on out of the sums as well.
        }
      }
    });
    while (next < at.length && at[next] === i + 1) {
      charted.forEach((_, k) => {
        series[k].push(running[k]);
      });
      next++;
    }
  }
  return { at, series: charted.map((c, k) => ({ codec: c.codec, label: c.label, bytes: series[k] })), notCharted };
}

/**
 * The chart from the sizes compareSession reports per codec (`onCodecSizes`): no second
 * decode and re-encode, and the schema codecs are charted too. A codec that carried no
 * message (e.g. a schema codec this runtime cannot run) is listed in `notCharted` with
 * `why` (its total row's reason), not drawn as a flat line.
 */
export function chartFromSizes(
  perCodec: readonly CodecSizes[],
  notCarried: ReadonlyMap<string, string>,
  points = 120,
): SessionChartData {
  const total = perCodec[0]?.sizes.length ?? 0;
  const at = samplePositions(total, points);
  const series: CumulativeSeries[] = [];
  const notCharted: NotCharted[] = [];
  for (const { codec, label, sizes } of perCodec) {
    const why = notCarried.get(codec);
    if (why !== undefined) {
      notCharted.push({ codec, label, why });
      continue;
    }
    const bytes: number[] = [];
    let running = 0;
    let next = 0;
    for (let i = 0; i < sizes.length && next < at.length; i++) {
      running += sizes[i];
      while (next < at.length && at[next] === i + 1) {
        bytes.push(running);
        next++;
      }
    }
    series.push({ codec, label, bytes });
  }
  return { at, series, notCharted };
}

/**
 * The session's chart, as the inspector's worker and the CLI's report both draw it (one
 * encoding of the session, so the CLI charts the schema codecs too):
 * each codec's sizes from `compareSession`'s `onCodecSizes`, and a codec that carried no
 * message listed with its total row's reason instead of a flat line.
 */
export function sessionChart(
  perCodec: readonly CodecSizes[],
  totals: readonly {
    readonly codec: string;
    readonly messages: number;
    readonly left: number;
    readonly leftReason: string | null;
  }[],
  points = 120,
): SessionChartData {
  const notCarried = new Map<string, string>();
  for (const t of totals)
    if (t.messages === 0 && t.left > 0)
      notCarried.set(t.codec, t.leftReason?.replace(/^message \d+: /, '') ?? 'no message in this codec');
  const chart = chartFromSizes(perCodec, notCarried, points);
  // A line that sums only some messages carries how many (Protobuf's 67 of 157 read as the cheapest codec).
  const left = new Map(totals.filter((t) => t.left > 0).map((t) => [t.codec, t]));
  return {
    ...chart,
    series: chart.series.map((s) =>
      left.has(s.codec) ? { ...s, left: left.get(s.codec)!.left, messages: left.get(s.codec)!.messages } : s,
    ),
  };
}
