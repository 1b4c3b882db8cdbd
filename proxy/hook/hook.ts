/**
 * The preload `wirescope run` gives a Node process (`--import` through NODE_OPTIONS):
 * captures every WebSocket of the process (the `ws` package's client and server sockets,
 * Node's global WebSocket) into the capture file WIRESCOPE_RECORD names (records layout,
 * complete when the process ends: written at exit and, when the app leaves a signal to its
 * default action, before the signal ends it). `wirescope run --proxy` reads that file from
 * its own process and streams it to the proxy.
 */
import { fileHookSink } from './capture-sink.js';
import { flushOnExit } from './flush-on-exit.js';
import { hookGlobalWebSocket } from './patch-global.js';
import { hookWsModules } from './patch-ws.js';
import { createTap } from './tap.js';

const record = process.env.WIRESCOPE_RECORD;
// Node processes this one starts inherit NODE_OPTIONS; they must not write over its file.
delete process.env.WIRESCOPE_RECORD;
if (record) {
  const sink = fileHookSink(record, (line) => {
    process.stderr.write(`${line}\n`);
  });
  const tap = createTap(sink);
  hookWsModules(tap);
  hookGlobalWebSocket(tap);
  flushOnExit(process, sink.flushNow);
}
