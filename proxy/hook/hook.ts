/**
 * The preload `wirescope run` gives a Node process (`--import` through NODE_OPTIONS):
 * captures every WebSocket of the process (the `ws` package's client and server sockets,
 * Node's global WebSocket) and sends them where the environment says:
 *   WIRESCOPE_RECORD=file   a capture file (line layout), complete when the process exits
 *   WIRESCOPE_PROXY=url     a running `wirescope proxy` (its inspector page shows them)
 * Its own connection to the proxy is a bundled copy of `ws` the patch never sees.
 */
import WebSocket from 'ws';
import { bothSinks, feedHookSink, fileHookSink, type HookSink } from './capture-sink.js';
import { hookGlobalWebSocket } from './patch-global.js';
import { hookWsModules } from './patch-ws.js';
import { createTap } from './tap.js';

const INGEST_PATH = '/__wirescope/ingest';
const warn = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

function sinksFromEnvironment(): HookSink[] {
  const sinks: HookSink[] = [];
  const record = process.env.WIRESCOPE_RECORD;
  const proxy = process.env.WIRESCOPE_PROXY;
  // Node processes this one starts inherit NODE_OPTIONS; they must not write over its file.
  delete process.env.WIRESCOPE_RECORD;
  delete process.env.WIRESCOPE_PROXY;
  if (record) sinks.push(fileHookSink(record, warn));
  if (proxy) {
    const url = new URL(INGEST_PATH, proxy.replace(/^http/, 'ws'));
    sinks.push(
      feedHookSink((onOpen) => {
        const socket = new WebSocket(url);
        socket.on('open', () => {
          (socket as unknown as { _socket?: { unref(): void } })._socket?.unref();
          onOpen(socket);
        });
        socket.on('error', (e) => warn(`wirescope: cannot stream to the proxy at ${proxy}: ${e.message}`));
      }),
    );
  }
  return sinks;
}

const sinks = sinksFromEnvironment();
if (sinks.length > 0) {
  const sink = sinks.length === 1 ? sinks[0] : bothSinks(sinks);
  const tap = createTap(sink);
  hookWsModules(tap);
  hookGlobalWebSocket(tap);
  process.on('exit', () => sink.flushNow());
}
