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
import type { ValueFeatures } from './features.js';

export type LaneRequest =
  | { readonly type: 'start'; readonly packed: PackedValue; readonly features: ValueFeatures; readonly settings: LaneSettings; readonly codecs: readonly string[] }
  | { readonly type: 'measure'; readonly id: number; readonly codecs: readonly string[]; readonly keep: readonly string[] }
  /** The comparison is over: drop the value and what was prepared (the worker waits for the next start). */
  | { readonly type: 'release' }
  /**
   * Before any comparison: warm these codecs on a small sample of the value the user is
   * looking at (lane-sample.ts), so the comparison asked for next meets a warm JIT. Any
   * other request stops it where it is (the comparison never waits for a warm-up).
   */
  | { readonly type: 'warm'; readonly packed: PackedValue; readonly features: ValueFeatures; readonly codecs: readonly string[] };

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
  /** Warm-ups asked for and not ended: any other request stops them. */
  const warming = new Set<AbortController>();
  signal?.addEventListener('abort', () => warming.forEach((w) => w.abort()), { once: true });
  return (request) => {
    if (request.type === 'warm') {
      const controller = new AbortController();
      warming.add(controller);
      chain = chain.then(async () => {
        const t0 = performance.now();
        let done = false;
        try {
          if (!controller.signal.aborted) done = await warmLane(unpackValue(request.packed), request.features, request.codecs, controller.signal);
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
    // Every request in arrival order, each after the one before has finished.
    if (request.type === 'release') {
      chain = chain.then(() => {
        runner = null;
      });
      return;
    }
    if (request.type === 'start') {
      chain = chain.then(() => {
        try {
          // The sender's scan of the value (a plain object of counts) saves the lane a second one.
          runner = new LaneRunner(unpackValue(request.packed), request.settings, request.codecs, request.features);
          startError = null;
        } catch (e) {
          // Kept for the measures that follow: each answers with it (a rejected chain would answer nothing).
          runner = null;
          startError = `the lane could not take the value: ${e instanceof Error ? e.message : String(e)}`;
        }
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

/** Sends the value (packed) to a started worker; throws when it cannot be cloned. */
export function portLane(port: LanePort, start: LaneStart): Lane {
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
  port.post({ type: 'start', packed: packValue(start.value, start.features), features: start.features, settings: start.settings, codecs: start.codecs });
  return {
    async *measure(codecs, options) {
      if (terminated) return;
      if (failed) throw new Error(failed);
      const job = { id: nextId++, rows: [] as Row[], end: false, error: null as string | null, wake: null as (() => void) | null };
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
