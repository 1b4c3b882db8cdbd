/**
 * A comparison lane: a place that holds one value and measures codecs on it when asked —
 * a worker thread (node-lane.ts), a Web Worker the page starts for the decode worker
 * (inspector-app/src/worker/compare-lanes.ts), or this process (`inProcessLane`, for tests). lanes.ts hands codecs to
 * two lanes from one queue. Pure: no worker API here.
 *
 * `LaneRunner` is what runs inside every lane: the same measureCodec as the single lane,
 * with the lane's own prepare cache (a json-joy model is built once per lane and clock) and
 * its own warm-up (each lane is a fresh isolate, so each warms its own codecs: warmTogether
 * first, then every operation's own warm-up in timing.ts, as in compareValue).
 */
import { codecByName, type Codec, type PrepareCache } from './codecs.js';
import type { CompareOptions, Row } from './compare-types.js';
import { measureCodec, nextTick, warmSampleOf, warmTogether, type WarmSample } from './measure.js';
import { CompressedSizer } from './compressed-size.js';
import { scanValue, type ValueFeatures } from './features.js';
import type { LaneSettings, OpenLane } from './compare-types.js';
export type { LaneSettings, LaneMeasureOptions, Lane, LaneStart, OpenLane } from './compare-types.js';

function registryCodec(name: string): Codec {
  const codec = codecByName(name);
  if (!codec) throw new RangeError(`unknown codec ${name}`);
  return codec;
}

/** The measuring side of a lane, over the value it received. */
export class LaneRunner {
  private readonly features: ValueFeatures;
  private readonly cache: PrepareCache = new Map();
  private readonly sizer = new CompressedSizer();
  private warmed = false;
  private warmSample: WarmSample | undefined;

  constructor(
    private readonly value: unknown,
    private readonly settings: LaneSettings,
    private readonly codecs: readonly string[],
    features?: ValueFeatures,
    /**
     * Codecs that already ran in this isolate (a warm-up, an earlier comparison): their JIT is
     * warm, so they skip the warm-up on a sample. One set per worker (lane-protocol.ts).
     */
    private readonly warmCodecs: Set<string> = new Set(),
  ) {
    this.features = features ?? scanValue(value);
  }

  async *measure(
    names: readonly string[],
    keep: readonly string[],
    signal?: AbortSignal,
  ): AsyncGenerator<Row, void, undefined> {
    const codecs = names.map(registryCodec);
    const options: CompareOptions = { ...this.settings, signal };
    if (!this.warmed) {
      this.warmed = true;
      if ((this.settings.warmup ?? 1) > 0) {
        // The sender's probe found the value large (jointWarmup false), or the joint warm-up finds out.
        const warmed =
          this.settings.jointWarmup === false
            ? 'large'
            : await warmTogether(this.codecs.map(registryCodec), this.value, this.features, this.cache, options);
        if (warmed === 'aborted') return;
        if (warmed === 'large' && this.settings.sampleWarmup !== false) this.warmSample = warmSampleOf(this.value);
      }
    }
    for (const [i, codec] of codecs.entries()) {
      if (signal?.aborted) return;
      const warmSample = this.warmCodecs.has(codec.name) ? undefined : this.warmSample;
      const row = measureCodec(codec, this.value, {
        ...options,
        features: this.features,
        cache: this.cache,
        sizer: this.sizer,
        warmSample,
      });
      if (!row) return;
      this.warmCodecs.add(codec.name);
      this.release(codecs.slice(i + 1), keep);
      yield row;
      // Between codecs a cancel gets through; after the last one the measure ends at once, so
      // its `done` leaves with the row (lane-done-with-last-row.test.ts: a lane whose loop then
      // stalled in a collection held a Firefox run at 16 / 16 codecs for seconds).
      if (i + 1 < codecs.length) await nextTick();
    }
  }

  /** Drops prepared values no later codec of this call and nothing still queued shares (prepare-release.ts). */
  private release(later: readonly Codec[], keep: readonly string[]): void {
    const needed = new Set(keep);
    for (const c of later) if (c.shares !== undefined) needed.add(c.shares);
    for (const key of [...this.cache.keys()]) if (!needed.has(key)) this.cache.delete(key);
  }
}

/**
 * How a lane warms up on a sample (lane-sample.ts) before a comparison: each codec measured
 * as a row would be (encode, the deflate sizer, decode, the round-trip diff), one short run
 * after timing.ts's own warm-up. Measured (bench-1mb-phase.ts --lanes --warm, 2026-11-28):
 * the joint warm-up (250 ms) and two runs under a 20 ms budget cost 1.0 s and 0.85 s of
 * wall time against 0.61–0.67 s for this, and the 1 MB phase after them read the same
 * (0.71–0.80 s). docs/BENCHMARKS.md, "lanes warmed before the click".
 */
export const WARM_SETTINGS: LaneSettings = {
  runs: 1,
  warmup: 1,
  budgetMs: 5,
  compress: true,
  jointWarmup: false,
  sampleWarmup: false,
};

/**
 * Warms `codecs` in this isolate on `sample` (rows discarded). False when `signal` stopped it
 * part-way (a comparison was asked for: it goes first).
 */
export async function warmLane(
  sample: unknown,
  features: ValueFeatures,
  codecs: readonly string[],
  signal: AbortSignal,
  warmCodecs?: Set<string>,
): Promise<boolean> {
  const runner = new LaneRunner(sample, WARM_SETTINGS, codecs, features, warmCodecs);
  for await (const _row of runner.measure(codecs, [], signal)) {
    // A sample's rows are not shown: only the JIT's state is kept.
  }
  return !signal.aborted;
}

/** A lane in this process (tests; no isolate of its own, so timings share this one's JIT). */
export const inProcessLane: OpenLane = (start) => {
  const controller = new AbortController();
  const runner = new LaneRunner(start.value, start.settings, start.codecs, start.features);
  return {
    measure: (codecs, options) => runner.measure(codecs, options.keep, controller.signal),
    terminate: () => controller.abort(),
  };
};
