/**
 * The messages between a comparison and a lane in a worker (lane.ts), for every kind of
 * worker: `serveLane` is the worker's side, `portLane` the comparison's. The value crosses
 * packed (lane-value.ts) so it arrives exactly as it was sent. A worker that fails (an
 * uncaught error, out of memory, it exited) rejects the measure under way with the reason.
 * Pure: the transport (postMessage, terminate, the failure events) is passed in.
 */
import type { Row } from './compare.js';
import { LaneRunner, warmLane, type Lane, type LaneSettings, type LaneStart } from './lane.js';
import { packValue, unpackValue, type PackedValue } from './lane-value.js';
import { scanValue, type ValueFeatures } from './features.js';
import { laneSample } from './lane-sample.js';

export type LaneRequest =
  | {
      readonly type: 'start';
      readonly packed: PackedValue;
      readonly features: ValueFeatures;
      readonly settings: LaneSettings;
      readonly codecs: readonly string[];
    }
  /** A start on the value the lane holds (`hold`, id `held`): nothing to pack, clone or rebuild when Run is clicked. */
  | {
      readonly type: 'start-held';
      readonly held: number;
      readonly settings: LaneSettings;
      readonly codecs: readonly string[];
    }
  | {
      readonly type: 'measure';
      readonly id: number;
      readonly codecs: readonly string[];
      readonly keep: readonly string[];
    }
  /** The comparison is over: drop the value, what was prepared and any held value (the worker waits for the next start). */
  | { readonly type: 'release' }
  /**
   * Before any comparison: keep this value (replacing one held) for a `start-held`. Sent when
   * the Compare tab is shown on a large node (lanes.ts warmLanes), so its clone happens then.
   */
  | { readonly type: 'hold'; readonly id: number; readonly packed: PackedValue; readonly features: ValueFeatures }
  /**
   * Warm these codecs on a small sample of the held value (lane-sample.ts), so the comparison
   * asked for next meets a warm JIT. A comparison's request stops it where it is (the
   * comparison never waits for a warm-up).
   */
  | { readonly type: 'warm'; readonly codecs: readonly string[] };

export type LaneReply =
  | { readonly type: 'row'; readonly id: number; readonly row: Row }
  | { readonly type: 'done'; readonly id: number }
  | { readonly type: 'error'; readonly id: number; readonly message: string }
  /** A warm request ended: after `ms`, stopped early by another request (`interrupted`) or not. */
  | { readonly type: 'warmed'; readonly ms: number; readonly interrupted: boolean };

/**
 * The worker side: returns the handler for incoming requests. Measures run one after
 * another. `signal` stops them (a worker needs none: terminate ends it).
 */
export function serveLane(post: (reply: LaneReply) => void, signal?: AbortSignal): (request: LaneRequest) => void {
  let runner: LaneRunner | null = null;
  let startError: string | null = null;
  let chain: Promise<void> = Promise.resolve();
  /** The value sent ahead of a comparison (`hold`). */
  let held: { readonly id: number; readonly value: unknown; readonly features: ValueFeatures } | null = null;
  /** Codecs that ran in this worker: warm already (lane.ts LaneRunner). */
  const warmCodecs = new Set<string>();
  /** Warm-ups asked for and not ended: a comparison's request stops them. */
  const warming = new Set<AbortController>();
  signal?.addEventListener(
    'abort',
    () =>
      warming.forEach((w) => {
        w.abort();
      }),
    { once: true },
  );
  const starting = (make: () => LaneRunner): void => {
    chain = chain.then(() => {
      try {
        runner = make();
        startError = null;
      } catch (e) {
        // Kept for the measures that follow: each answers with it (a rejected chain would answer nothing).
        runner = null;
        startError = `the lane could not take the value: ${e instanceof Error ? e.message : String(e)}`;
      }
    });
  };
  return (request) => {
    // Every request in arrival order, each after the one before has finished.
    if (request.type === 'hold') {
      chain = chain.then(() => {
        try {
          held = { id: request.id, value: unpackValue(request.packed), features: request.features };
        } catch {
          // Not held: a start-held for it then says so (the pool sends it only after this).
          held = null;
        }
      });
      return;
    }
    if (request.type === 'warm') {
      const controller = new AbortController();
      warming.add(controller);
      chain = chain.then(async () => {
        const t0 = performance.now();
        let done = false;
        try {
          if (held && !controller.signal.aborted) {
            const sample = laneSample(held.value);
            done = await warmLane(sample, scanValue(sample), request.codecs, controller.signal, warmCodecs);
          }
        } catch {
          // A warm-up that fails leaves the lane as it was; the comparison reports its own errors.
        }
        warming.delete(controller);
        post({ type: 'warmed', ms: performance.now() - t0, interrupted: !done });
      });
      return;
    }
    // A comparison's request goes next: a warm-up under way stops at its next check.
    for (const w of warming) w.abort();
    if (request.type === 'release') {
      chain = chain.then(() => {
        runner = null;
        held = null;
      });
      return;
    }
    if (request.type === 'start') {
      // The sender's scan of the value (a plain object of counts) saves the lane a second one.
      starting(
        () =>
          new LaneRunner(unpackValue(request.packed), request.settings, request.codecs, request.features, warmCodecs),
      );
      return;
    }
    if (request.type === 'start-held') {
      starting(() => {
        if (held?.id !== request.held) throw new Error('it no longer holds the value sent ahead');
        return new LaneRunner(held.value, request.settings, request.codecs, held.features, warmCodecs);
      });
      return;
    }
    const { id, codecs, keep } = request;
    chain = chain.then(async () => {
      try {
        if (!runner) throw new Error(startError ?? 'the lane has no value (no start message)');
        for await (const row of runner.measure(codecs, keep, signal)) post({ type: 'row', id, row });
        post({ type: 'done', id });
      } catch (e) {
        post({ type: 'error', id, message: e instanceof Error ? e.message : String(e) });
      }
    });
  };
}

/** A worker as the comparison sees it. */
export interface LanePort {
  post(request: LaneRequest): void;
  /** Registers the one reply handler. */
  onReply(handler: (reply: LaneReply) => void): void;
  /** Registers the one failure handler (the worker died or failed; the reason as text). */
  onFailure(handler: (reason: string) => void): void;
  terminate(): void;
  /** Takes the worker back after a comparison that ended normally (lane-pool.ts); absent: it is terminated. */
  release?(): void;
}

/**
 * Sends the value (packed) to a started worker, or only its id when the worker holds it
 * already (`held`: lane-pool.ts sent it ahead); throws when it cannot be cloned.
 */
export function portLane(port: LanePort, start: LaneStart, held?: number): Lane {
  let nextId = 0;
  let failed: string | null = null;
  let terminated = false;
  /** The measure under way: its rows so far, and how to wake it. */
  let current: { id: number; rows: Row[]; end: boolean; error: string | null; wake: (() => void) | null } | null = null;
  const wake = (): void => {
    const w = current?.wake;
    if (current) current.wake = null;
    w?.();
  };
  port.onReply((reply) => {
    if (reply.type === 'warmed' || !current || reply.id !== current.id) return;
    if (reply.type === 'row') current.rows.push(reply.row);
    else if (reply.type === 'done') current.end = true;
    else current.error = reply.message;
    wake();
  });
  port.onFailure((reason) => {
    failed ??= reason;
    wake();
  });
  if (held !== undefined) port.post({ type: 'start-held', held, settings: start.settings, codecs: start.codecs });
  else
    port.post({
      type: 'start',
      packed: packValue(start.value, start.features),
      features: start.features,
      settings: start.settings,
      codecs: start.codecs,
    });
  return {
    async *measure(codecs, options) {
      if (terminated) return;
      if (failed) throw new Error(failed);
      const job = {
        id: nextId++,
        rows: [] as Row[],
        end: false,
        error: null as string | null,
        wake: null as (() => void) | null,
      };
      current = job;
      port.post({ type: 'measure', id: job.id, codecs, keep: options.keep });
      for (;;) {
        while (job.rows.length) yield job.rows.shift()!;
        if (terminated) return;
        if (job.error !== null) throw new Error(job.error);
        if (failed) throw new Error(failed);
        if (job.end) return;
        await new Promise<void>((resolve) => (job.wake = resolve));
      }
    },
    terminate() {
      if (terminated) return;
      terminated = true;
      port.terminate();
      wake();
    },
    release() {
      if (terminated) return;
      terminated = true;
      if (failed || !port.release) {
        port.terminate();
      } else {
        port.post({ type: 'release' });
        port.release();
      }
      wake();
    },
  };
}
