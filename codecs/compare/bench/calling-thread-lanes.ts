/**
 * `--calling-thread` in the benches: the pool's lanes with this thread as one of them. Of
 * every `count` lanes a comparison opens (it opens exactly `count`, in one go), the first
 * measures on this thread (lane.ts `inProcessLane`: the value it holds, no clone, no worker
 * start) and the rest are the pool's own. The product measures on workers only: a quiet run
 * read this plan's warm json-pack phase at 1,217 ms against 762 ms on workers
 * (docs/BENCHMARKS.md); the bench keeps it to measure again.
 */
import { inProcessLane, type OpenLane } from '../lane.js';
import type { LanePool } from '../lanes.js';

export function withCallingThread<P extends LanePool>(pool: P): P {
  let opened = 0;
  const open: OpenLane = (start) => (opened++ % pool.count === 0 ? inProcessLane(start) : pool.open(start));
  return { ...pool, open };
}
