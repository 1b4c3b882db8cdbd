/**
 * A comparison lane in a Node worker thread (node-lane.ts starts it): serves lane-protocol.ts
 * requests from the parent. Bundled as dist/cli/compare-lane.js for the CLI.
 */
import { parentPort } from 'node:worker_threads';
import { serveLane, type LaneReply, type LaneRequest } from './lane-protocol.js';

const port = parentPort!;
const handle = serveLane((reply: LaneReply) => port.postMessage(reply));
port.on('message', (request: LaneRequest) => handle(request));
