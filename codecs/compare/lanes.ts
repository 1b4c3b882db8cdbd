/**
 * A large value compared on two lanes. One comparison of
 * a ~1 MB value is ~1 s of json-pack rows and ~5 s of json-joy rows on one thread, above
 * json-joy's own floor; two lanes (workers) measure rows in parallel. Codecs are taken from
 * one queue in the comparison's order, so both lanes work on the json-pack rows first and
 * those are on screen first; within that phase a free lane takes the costliest codec left
 * (LANE_COST), in the json-joy phase a queued codec whose prepared value (a json-joy model:
 * `Codec.shares`) it already holds. Rows are yielded in
 * codec order (the Compare tab and the CLI show them as they come); progress counts rows
 * as they finish, in any lane. An abort terminates every lane at once and yields nothing
 * more. A lane that fails or dies turns the codec it was measuring into a "—" row that
 * says why and takes no more; when no lane is left, the codecs still queued get such rows.
 *
 * Small values keep one lane (compareValue), whose timings are the most precise: lanes are
 * used when the first codec's encoding is LANE_MIN_BYTES or more, or its encode took
 * LANE_MIN_ENCODE_MS or more (one probe call). Pure: the lanes are passed in (lane.ts).
 */
import { CODECS, MAX_DEPTH, codecByName, encodedSize, type Codec } from './codecs.js';
import type { CompareOptions, Row, UnsupportedRow } from './compare-types.js';
import { scanValue, type ValueFeatures } from './features.js';
import type { Lane } from './lane.js';
import { JOINT_WARMUP_MAX_CALL_MS } from './measure.js';
import type { LanePool } from './compare-types.js';
import type { LaneWarmReport } from './compare-types.js';
export type { LaneWarm, LaneWarmReport } from './compare-types.js';
export type { LanePool } from './compare-types.js';

/**
 * Sends `value` to `pool`'s lanes before its comparison is asked for, and warms them on a
 * sample of it (a first comparison on fresh lanes met a cold JIT in every
 * encoder, decoder and the deflate sizer, and paid the lanes' start and the value's clone
 * after the click: its json-pack phase read 1.1–1.6 s against 0.7–0.9 s on warm lanes). The
 * json-pack / JSON codecs only: theirs is the phase shown first. Null (nothing done) when
 * the pool cannot warm or the value would not go to lanes anyway.
 */
export function warmLanes(pool: LanePool | undefined, value: unknown): Promise<LaneWarmReport> | null {
  if (!pool?.warm || pool.count < 2) return null;
  const features = scanValue(value);
  if (features.unknowns > 0 || features.depth > MAX_DEPTH) return null;
  return pool.warm({ value, features, codecs: WARM_CODECS });
}

/** The codecs a warm-up runs: the json-pack phase's. */
export const WARM_CODECS: readonly string[] = CODECS.filter((c) => c.family !== 'json-joy').map((c) => c.name);

/**
 * The Compare tab's timing settings, and bench-1mb.ts's defaults, so the bench measures what
 * the tab runs. A 100 ms budget per operation: a 1 MB value's json-joy rows (calls of
 * 50–550 ms) then take one or two timed calls; with 300 ms the whole 1 MB comparison read
 * 1.24x json-joy's own floor against 0.94x (quiet, 2026-11-25 04:16, two lanes).
 */
export const INTERACTIVE_TIMING = { runs: 5, warmup: 1, budgetMs: 100 } as const;

/** The first codec's encoding at or above this size makes a value large (lanes pay off; measured in docs/BENCHMARKS.md). */
export const LANE_MIN_BYTES = 256 * 1024;
/** …or its encode taking this long. */
export const LANE_MIN_ENCODE_MS = 20;
/**
 * A node this large (its bytes in the frame) is likely a large value: the Compare tab shown
 * on it warms the lanes (warmLanes). Below LANE_MIN_BYTES, since a frame's own encoding may
 * be smaller than JSON's (the lanes' own decision, wantsLanes, looks at JSON's size).
 */
export const LANE_WARM_MIN_BYTES = LANE_MIN_BYTES / 2;
export const MAX_LANES = 2;

/** min(MAX_LANES, cores): the callers pass their runtime's core count. */
export const laneCount = (cores: number | undefined): number =>
  Math.max(1, Math.min(MAX_LANES, Math.floor(cores ?? 1)));

const phaseOf = (codec: Codec): 'json-pack' | 'json-joy' => (codec.family === 'json-joy' ? 'json-joy' : 'json-pack');

/**
 * What each json-pack codec's row costs on a large value, relative (ms of one cold row on the
 * ~1 MB document: encodes and decodes of the CPU profile in docs/BENCHMARKS.md, "third
 * pass"). Lanes take that phase costliest first, so its end is not one lane measuring Ion
 * while the other has nothing left (greedy list scheduling: the last codec handed out is a
 * cheap one). A codec missing here costs 0 (taken last, in comparison order).
 */
export const LANE_COST: Readonly<Record<string, number>> = {
  ion: 310,
  json: 198,
  ubjson: 179,
  bson: 164,
  cbor: 147,
  msgpack: 122,
  'cbor-dag': 105,
  'cbor-fast': 88,
  'cbor-stable': 65,
};

/** Where in `queue` the costliest codec of the json-pack phase is (the first on a tie). */
function costliest(queue: readonly number[], codecs: readonly Codec[]): number {
  let at = -1;
  let most = -1;
  for (const [q, i] of queue.entries()) {
    if (phaseOf(codecs[i]) !== 'json-pack') continue;
    const cost = LANE_COST[codecs[i].name] ?? 0;
    if (cost > most) {
      most = cost;
      at = q;
    }
  }
  return at;
}

/**
 * Whether this comparison goes to lanes: enough lanes, every codec the registry's own (a
 * lane rebuilds codecs by name), a value a lane can receive, and a large value.
 */
export function wantsLanes(
  value: unknown,
  features: ValueFeatures,
  codecs: readonly Codec[],
  pool: LanePool | undefined,
  clock: () => number,
): LaneProbe | null {
  if (!pool || pool.count < 2 || codecs.length < 2) return null;
  if (codecs.some((c) => codecByName(c.name) !== c)) return null;
  // Functions and the like cannot be cloned, and values this deep overflow a clone's recursion; every codec refuses both anyway.
  if (features.unknowns > 0 || features.depth > MAX_DEPTH) return null;
  const first = codecs.find((c) => c.represent(value, features) === null);
  if (!first) return null;
  try {
    const prepared = first.prepare(value, features, new Map());
    const t0 = clock();
    const encoded = first.write(prepared);
    const encodeMs = clock() - t0;
    return encodeMs >= LANE_MIN_ENCODE_MS || encodedSize(encoded) >= (pool.minBytes ?? LANE_MIN_BYTES)
      ? { encodeMs }
      : null;
  } catch {
    return null;
  }
}

/** What the probe found: its one encode of the first codec (a lane then needs no joint warm-up to learn the value is large). */
export interface LaneProbe {
  readonly encodeMs: number;
}

const reasonOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

function laneFailedRow(codec: Codec, reason: string): UnsupportedRow {
  return {
    codec: codec.name,
    label: codec.label,
    family: codec.family,
    notes: [],
    unsupported: `not measured: the comparison lane stopped (${reason})`,
  };
}

/**
 * Rows of `codecs` measured on `pool`'s lanes, in codec order. Returns null (nothing
 * started) when a lane cannot be opened: the caller then compares on one lane.
 */
export function compareOnLanes(
  value: unknown,
  features: ValueFeatures,
  codecs: readonly Codec[],
  pool: LanePool,
  options: CompareOptions,
  probe?: LaneProbe,
): AsyncGenerator<Row, void, undefined> | null {
  const lanes: Lane[] = [];
  const jointWarmup = !(probe && probe.encodeMs >= JOINT_WARMUP_MAX_CALL_MS);
  const start = {
    value,
    features,
    codecs: codecs.map((c) => c.name),
    settings: {
      runs: options.runs,
      warmup: options.warmup,
      budgetMs: options.budgetMs,
      compress: options.compress,
      jointWarmup,
    },
  };
  try {
    while (lanes.length < pool.count) lanes.push(pool.open(start));
  } catch {
    for (const lane of lanes) lane.terminate();
    return null;
  }
  return runLanes(lanes, codecs, options);
}

async function* runLanes(
  lanes: readonly Lane[],
  codecs: readonly Codec[],
  options: CompareOptions,
): AsyncGenerator<Row, void, undefined> {
  const { signal } = options;
  const total = codecs.length;
  const rows: (Row | undefined)[] = new Array(total);
  const queue = codecs.map((_, i) => i);
  let done = 0;
  let alive = lanes.length;
  let lastReason = '';
  let wake: (() => void) | null = null;
  const notify = (): void => {
    const w = wake;
    wake = null;
    w?.();
  };
  let stopped = false;
  const stopAll = (): void => {
    if (stopped) return;
    stopped = true;
    for (const lane of lanes) lane.terminate();
    notify();
  };
  signal?.addEventListener('abort', stopAll, { once: true });

  const finish = (i: number, row: Row): void => {
    rows[i] = row;
    done++;
    options.onProgress?.({ done, total, codec: codecs[i].name, phase: phaseOf(codecs[i]) });
    notify();
  };

  /**
   * The next codec for a lane holding `held` (-1: none left): the queue's head, or a
   * same-phase codec sharing what it holds.
   */
  const take = (held: ReadonlySet<string>): number => {
    if (queue.length === 0) return -1;
    const phase = phaseOf(codecs[queue[0]]);
    // json-pack rows are short and share nothing costly (a converted copy at most): costliest
    // first. json-joy rows share a model that takes 0.3–0.5 s to build: a lane keeps to its own.
    let at =
      phase === 'json-pack'
        ? costliest(queue, codecs)
        : queue.findIndex(
            (i) => phaseOf(codecs[i]) === phase && codecs[i].shares !== undefined && held.has(codecs[i].shares!),
          );
    if (at < 0) at = 0;
    return queue.splice(at, 1)[0];
  };

  const runLane = async (lane: Lane): Promise<void> => {
    const held = new Set<string>();
    for (;;) {
      if (stopped) return;
      const i = take(held);
      if (i < 0) return;
      const keep = [...new Set(queue.map((q) => codecs[q].shares).filter((s): s is string => s !== undefined))];
      let answered = false;
      try {
        for await (const row of lane.measure([codecs[i].name], { keep })) {
          if (stopped) return;
          if (answered || row.codec !== codecs[i].name)
            throw new Error(`the lane answered ${row.codec} for ${answered ? 'nothing' : codecs[i].name}`);
          answered = true;
          finish(i, row);
        }
        if (stopped) return;
        if (!answered) throw new Error('the lane ended without a row');
      } catch (e) {
        if (stopped) return;
        lastReason = reasonOf(e);
        if (!answered) finish(i, laneFailedRow(codecs[i], lastReason));
        lane.terminate();
        alive--;
        // No lane left: the codecs still queued cannot be measured; say why.
        if (alive === 0) {
          while (queue.length) {
            const q = queue.shift()!;
            finish(q, laneFailedRow(codecs[q], lastReason));
          }
        }
        return;
      }
      if (codecs[i].shares !== undefined) held.add(codecs[i].shares!);
      for (const key of [...held]) if (!keep.includes(key)) held.delete(key);
    }
  };

  const running = Promise.all(lanes.map(runLane));
  let completed = false;
  try {
    for (let next = 0; next < total; ) {
      if (stopped || signal?.aborted) return;
      const row = rows[next];
      if (row) {
        next++;
        yield row;
        continue;
      }
      await new Promise<void>((resolve) => (wake = resolve));
    }
    await running;
    completed = !stopped;
  } finally {
    signal?.removeEventListener('abort', stopAll);
    if (completed) {
      // Every lane idle: a pool keeps them warm for the next comparison (lane-pool.ts).
      stopped = true;
      for (const lane of lanes) (lane.release ?? lane.terminate).call(lane);
    } else {
      // A consumer that stops early (break, abort) stops the lanes too.
      stopAll();
    }
  }
}
