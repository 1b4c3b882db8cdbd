/**
 * Lane workers kept between comparisons. A lane is a fresh isolate: started for every
 * comparison, it times every codec on a cold JIT and pays its start (~115 ms) again, so a
 * second large comparison cost as much as the first. A comparison that ends normally gives
 * its lanes back (the lane drops the value and its prepared models); the next one takes
 * them warm. A cancel or a failure terminates them (a worker mid-measure cannot be
 * stopped otherwise); the pool then starts new ones. Idle workers are `idle()`d (a Node
 * worker is unref'd so it keeps no process alive; a browser pool may end them after a
 * while). Pure: the worker is passed in.
 */
import type { LanePool, LaneWarm, LaneWarmReport } from './lanes.js';
import type { OpenLane } from './lane.js';
import { portLane, type LanePort, type LaneReply, type LaneRequest } from './lane-protocol.js';
import { packValue } from './lane-value.js';

/** A started worker as the pool drives it. */
export interface LaneWorker {
  post(request: LaneRequest): void;
  /** Called once: every reply from the worker. */
  onReply(handler: (reply: LaneReply) => void): void;
  /** Called once: the worker failed or exited. */
  onFailure(handler: (reason: string) => void): void;
  terminate(): void;
  /** The worker waits in the pool / is taken from it (Node: unref / ref). */
  idle?(): void;
  busy?(): void;
}

interface Pooled {
  readonly worker: LaneWorker;
  dead: boolean;
  reply: ((reply: LaneReply) => void) | null;
  failure: ((reason: string) => void) | null;
  /** It ran a warm-up or a comparison: its JIT has met the codecs (warm asks it no more). */
  warm: boolean;
  /** Waiting for its warm-up to end (warm): each gets the worker's answer, or null when it died. */
  warmWaiters: ((answer: { ms: number; interrupted: boolean } | null) => void)[];
  /** The value it was sent ahead (a `hold`), by identity, and that hold's id. */
  held: { readonly value: unknown; readonly id: number } | null;
}

export interface ReusedLanes extends LanePool {
  /** Workers waiting for the next comparison. */
  readonly idleCount: () => number;
  /** Ends every idle worker (a browser pool calls it after a quiet while). */
  readonly endIdle: () => void;
  /**
   * See LanePool.warm: here, `count` workers started (or idle ones taken), each sent the value
   * to hold (a comparison of that very value then sends only its id) and warmed once.
   */
  readonly warm: (value: LaneWarm) => Promise<LaneWarmReport>;
}

export function reusedLanes(start: () => LaneWorker, count: number): ReusedLanes {
  const idle: Pooled[] = [];
  /** Workers a comparison holds now. */
  let taken = 0;
  const endWarm = (p: Pooled, answer: { ms: number; interrupted: boolean } | null): void => {
    for (const w of p.warmWaiters.splice(0)) w(answer);
    // A warm-up kept its worker referenced (a Node worker: the caller may be waiting on it alone).
    if (idle.includes(p) && !p.dead) p.worker.idle?.();
  };
  const startOne = (): Pooled => {
    const p: Pooled = {
      worker: start(),
      dead: false,
      reply: null,
      failure: null,
      warm: false,
      warmWaiters: [],
      held: null,
    };
    p.worker.onReply((reply) => (reply.type === 'warmed' ? endWarm(p, reply) : p.reply?.(reply)));
    p.worker.onFailure((reason) => {
      p.dead = true;
      p.failure?.(reason);
      endWarm(p, null);
    });
    return p;
  };
  const take = (): Pooled => {
    taken++;
    while (idle.length) {
      const p = idle.pop()!;
      if (!p.dead) {
        p.worker.busy?.();
        return p;
      }
    }
    return startOne();
  };
  const open: OpenLane = (laneStart) => {
    const p = take();
    // A comparison warms its lanes as a warm-up would.
    p.warm = true;
    // The value it holds is this one: the start names it. Either way the comparison's release drops it.
    const held = p.held !== null && p.held.value === laneStart.value ? p.held.id : undefined;
    p.held = null;
    let given = false;
    let counted = true;
    const uncount = (): void => {
      if (counted) taken--;
      counted = false;
    };
    const port: LanePort = {
      post: (request) => p.worker.post(request),
      onReply: (handler) => (p.reply = handler),
      onFailure: (handler) => (p.failure = handler),
      terminate: () => {
        uncount();
        p.dead = true;
        p.worker.terminate();
      },
      release: () => {
        if (given || p.dead) return;
        uncount();
        given = true;
        p.reply = null;
        p.failure = null;
        // Still warming (a comparison that took it mid warm-up ended first: tests): stays referenced until then.
        if (p.warmWaiters.length === 0) p.worker.idle?.();
        idle.push(p);
      },
    };
    try {
      return portLane(port, laneStart, held);
    } catch (e) {
      port.terminate();
      throw e;
    }
  };
  let nextHold = 0;
  const warm = async (sent: LaneWarm): Promise<LaneWarmReport> => {
    const t0 = performance.now();
    // A comparison under way holds the lanes and warms them itself.
    if (taken > 0) return { started: 0, warmed: 0, interrupted: 0, ms: 0 };
    let started = 0;
    for (let alive = idle.filter((p) => !p.dead).length; alive < count; alive++) {
      idle.push(startOne());
      started++;
    }
    const asked: Promise<{ ms: number; interrupted: boolean } | null>[] = [];
    let packed: ReturnType<typeof packValue> | null = null;
    for (const p of idle) {
      if (p.dead) continue;
      if (p.held?.value !== sent.value) {
        packed ??= packValue(sent.value, sent.features);
        p.held = { value: sent.value, id: nextHold++ };
        p.worker.post({ type: 'hold', id: p.held.id, packed, features: sent.features });
      }
      if (p.warm) continue;
      p.warm = true;
      p.worker.busy?.();
      asked.push(new Promise((resolve) => p.warmWaiters.push(resolve)));
      p.worker.post({ type: 'warm', codecs: sent.codecs });
    }
    const answers = await Promise.all(asked);
    return {
      started,
      warmed: answers.filter((a) => a !== null && !a.interrupted).length,
      interrupted: answers.filter((a) => a === null || a.interrupted).length,
      ms: performance.now() - t0,
    };
  };
  return {
    open,
    count,
    warm,
    idleCount: () => idle.filter((p) => !p.dead).length,
    endIdle: () => {
      for (const p of idle.splice(0)) {
        p.dead = true;
        p.worker.terminate();
      }
    },
  };
}
