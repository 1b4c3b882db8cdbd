/**
 * In-process lane workers for lane-pool tests: each speaks lane-protocol.ts through
 * structured clones (as postMessage does) and records what was asked of it.
 */
import type { LaneWorker } from '../../compare/lane-pool.js';
import { serveLane, type LaneReply, type LaneRequest } from '../../compare/lane-protocol.js';

export interface FakeWorkerLog {
  readonly id: number;
  readonly requests: string[];
  terminated: boolean;
  idle: number;
  busy: number;
}

/** An in-process worker speaking the protocol through structured clones; records what happened to it. */
export function fakeWorkers(): { start: () => LaneWorker; log: FakeWorkerLog[] } {
  const log: FakeWorkerLog[] = [];
  const start = (): LaneWorker => {
    const me: FakeWorkerLog = { id: log.length, requests: [], terminated: false, idle: 0, busy: 0 };
    log.push(me);
    let reply: ((r: LaneReply) => void) | null = null;
    const stop = new AbortController();
    const handle = serveLane((r) => !me.terminated && reply?.(structuredClone(r)), stop.signal);
    return {
      post: (request: LaneRequest) => {
        me.requests.push(request.type);
        const copy = structuredClone(request);
        setTimeout(() => !me.terminated && handle(copy), 0);
      },
      onReply: (h) => (reply = h),
      onFailure: () => {},
      terminate: () => {
        me.terminated = true;
        stop.abort();
      },
      idle: () => me.idle++,
      busy: () => me.busy++,
    };
  };
  return { start, log };
}
