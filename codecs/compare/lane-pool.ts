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
import type { LanePool } from './lanes.js';
import type { OpenLane } from './lane.js';
import { portLane, type LanePort, type LaneReply, type LaneRequest } from './lane-protocol.js';

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
}

export interface ReusedLanes extends LanePool {
  /** Workers waiting for the next comparison. */
  readonly idleCount: () => number;
  /** Ends every idle worker (a browser pool calls it after a quiet while). */
  readonly endIdle: () => void;
}

export function reusedLanes(start: () => LaneWorker, count: number): ReusedLanes {
  const idle: Pooled[] = [];
  const take = (): Pooled => {
    while (idle.length) {
      const p = idle.pop()!;
      if (!p.dead) {
        p.worker.busy?.();
        return p;
      }
    }
    const p: Pooled = { worker: start(), dead: false, reply: null, failure: null };
    p.worker.onReply((reply) => p.reply?.(reply));
    p.worker.onFailure((reason) => {
      p.dead = true;
      p.failure?.(reason);
    });
    return p;
  };
  const open: OpenLane = (laneStart) => {
    const p = take();
    let given = false;
    const port: LanePort = {
      post: (request) => p.worker.post(request),
      onReply: (handler) => (p.reply = handler),
      onFailure: (handler) => (p.failure = handler),
      terminate: () => {
        p.dead = true;
        p.worker.terminate();
      },
      release: () => {
        if (given || p.dead) return;
        given = true;
        p.reply = null;
        p.failure = null;
        p.worker.idle?.();
        idle.push(p);
      },
    };
    try {
      return portLane(port, laneStart);
    } catch (e) {
      port.terminate();
      throw e;
    }
  };
  return {
    open,
    count,
    idleCount: () => idle.filter((p) => !p.dead).length,
    endIdle: () => {
      for (const p of idle.splice(0)) {
        p.dead = true;
        p.worker.terminate();
      }
    },
  };
}
