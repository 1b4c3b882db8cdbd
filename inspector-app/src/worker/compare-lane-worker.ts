/**
 * A comparison lane (codecs/compare/lane.ts): a nested Worker the decode worker starts for
 * a large value (compare-lanes.ts). Vite bundles it as its own chunk in dist/app/assets, so
 * the extension pages load it from 'self' like the decode worker.
 */
import { serveLane, type LaneRequest } from '../../../codecs/compare/lane-protocol.js';

const scope = self as unknown as { postMessage(message: unknown): void; onmessage: ((event: MessageEvent<LaneRequest>) => void) | null };
const handle = serveLane((reply) => scope.postMessage(reply));
scope.onmessage = (event) => handle(event.data);
