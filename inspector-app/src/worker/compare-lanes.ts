/**
 * The decode worker's comparison lanes: Workers the **page** starts for it (lane-host.ts),
 * min(2, hardwareConcurrency) of them, for a large value (codecs/compare/lanes.ts decides).
 * The decode worker does not start them itself: Firefox builds a worker started from a
 * worker by waiting, blocked, for the main thread, and that wait sometimes never ended
 * (Firefox ESR 153: `new Worker` in the decode worker hung in 5 of 159 trials under
 * load, freezing the whole inspector: no row read, no comparison, nothing said). So the
 * decode worker makes a MessageChannel, sends one end to the page with `lane-open`, and
 * talks to the lane over the other: requests and rows go straight between the two workers;
 * only the start, the end (`lane-close`) and a failure (`lane-failed`) pass the page.
 * Lanes are kept between comparisons (codecs/compare/lane-pool.ts: the next large
 * comparison finds them warm) and ended after IDLE_MS without one. Without a host (tests,
 * the in-process worker) one lane: the comparison runs in the decode worker.
 */
import { laneCount, type LanePool } from '../../../codecs/compare/lanes.js';
import type { LaneReply } from '../../../codecs/compare/lane-protocol.js';
import { reusedLanes, type LaneWorker, type ReusedLanes } from '../../../codecs/compare/lane-pool.js';

/** Idle lanes hold an isolate each (~10–20 MB): ended after this long without a comparison. */
export const IDLE_MS = 60_000;

/** The decode worker's way to the page that starts its lanes (the dispatcher's post, and its `lane-failed` routing). */
export interface LaneHostLink {
  /** Asks the page to start a lane worker serving `port`; returns the lane's id. */
  open(port: MessagePort): number;
  /** Asks the page to end that lane worker. */
  close(laneId: number): void;
  /** The page reports that lane failed (an error in it, or it could not load). */
  onFailure(laneId: number, handler: (reason: string) => void): void;
}

/** The messages a LaneHostLink sends, and the routing of the page's `lane-failed` back to each lane. */
export class LaneLinks implements LaneHostLink {
  private nextId = 1;
  private readonly failures = new Map<number, (reason: string) => void>();

  constructor(
    private readonly post: (
      message:
        | { readonly type: 'lane-open'; readonly laneId: number; readonly port: MessagePort }
        | { readonly type: 'lane-close'; readonly laneId: number },
      transfer?: Transferable[],
    ) => void,
  ) {}

  open(port: MessagePort): number {
    const laneId = this.nextId++;
    this.post({ type: 'lane-open', laneId, port }, [port]);
    return laneId;
  }

  close(laneId: number): void {
    this.failures.delete(laneId);
    this.post({ type: 'lane-close', laneId });
  }

  onFailure(laneId: number, handler: (reason: string) => void): void {
    this.failures.set(laneId, handler);
  }

  /** The page's `lane-failed`. */
  failed(laneId: number, reason: string): void {
    const handler = this.failures.get(laneId);
    this.failures.delete(laneId);
    handler?.(reason);
  }
}

function hostedWorker(host: LaneHostLink, onIdle: () => void, onBusy: () => void): LaneWorker {
  const channel = new MessageChannel();
  const port = channel.port1;
  const laneId = host.open(channel.port2);
  let ended = false;
  return {
    post: (request) => port.postMessage(request),
    onReply: (handler) => (port.onmessage = (event: MessageEvent<LaneReply>) => handler(event.data)),
    onFailure: (handler) => {
      host.onFailure(laneId, (reason) => handler(`the lane failed: ${reason}`));
      port.onmessageerror = () => handler('the lane failed: a message from it could not be read');
    },
    terminate: () => {
      if (ended) return;
      ended = true;
      port.close();
      host.close(laneId);
    },
    idle: onIdle,
    busy: onBusy,
  };
}

/** One pool per host (the decode worker has one). */
const pools = new WeakMap<LaneHostLink, ReusedLanes>();

export function workerLanes(env: { readonly host?: LaneHostLink; readonly cores?: number } = {}): LanePool {
  const { host } = env;
  const count = host ? laneCount(env.cores) : 1;
  if (!host || count < 2)
    return {
      open: () => {
        throw new Error('no lanes here');
      },
      count,
    };
  let pool = pools.get(host);
  if (!pool) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const made: ReusedLanes = reusedLanes(
      () =>
        hostedWorker(
          host,
          () => {
            clearTimeout(timer);
            timer = setTimeout(() => made.endIdle(), IDLE_MS);
          },
          () => clearTimeout(timer),
        ),
      count,
    );
    pool = made;
    pools.set(host, pool);
  }
  return pool;
}
