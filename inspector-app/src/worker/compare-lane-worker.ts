/**
 * A comparison lane (codecs/compare/lane.ts): a Worker the page starts for the decode worker
 * (lane-host.ts), which sends it one message, the port to serve; requests and replies then
 * go over that port, straight between the decode worker and this lane (compare-lanes.ts).
 * Vite bundles it as its own chunk in dist/app/assets, so the extension pages load it from
 * 'self' like the decode worker.
 */
import { serveLane, type LaneReply, type LaneRequest } from '../../../codecs/compare/lane-protocol.js';
import type { LaneStartMessage } from './lane-host.js';

const scope = self as unknown as { onmessage: ((event: MessageEvent<LaneStartMessage>) => void) | null };
scope.onmessage = (event) => {
  scope.onmessage = null;
  const port = event.data.port;
  const handle = serveLane((reply: LaneReply) => port.postMessage(reply));
  port.onmessage = (e: MessageEvent<LaneRequest>) => handle(e.data);
};
