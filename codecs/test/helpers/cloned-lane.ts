/**
 * A lane that runs in this process but talks through lane-protocol.ts with every message
 * structured-cloned, as postMessage does: the value arrives as a worker would receive it.
 */
import type { OpenLane } from '../../compare/lane.js';
import { portLane, serveLane, type LaneReply, type LaneRequest } from '../../compare/lane-protocol.js';

export const clonedLane: OpenLane = (start) => {
  let replyTo: ((reply: LaneReply) => void) | null = null;
  let terminated = false;
  const stop = new AbortController();
  const handle = serveLane((reply) => {
    if (!terminated) replyTo?.(structuredClone(reply));
  }, stop.signal);
  return portLane(
    {
      post: (request: LaneRequest) => {
        const copy = structuredClone(request);
        setTimeout(() => !terminated && handle(copy), 0);
      },
      onReply: (handler) => (replyTo = handler),
      onFailure: () => {},
      terminate: () => {
        terminated = true;
        stop.abort();
      },
    },
    start,
  );
};
