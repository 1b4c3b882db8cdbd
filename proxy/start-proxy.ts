/**
 * Starts `wirescope proxy`: the hub, the recorder (with `record`) and the server, listening.
 * Everything from the outside world (the sink, the clock, the app's directory) is passed in.
 */
import { createHub, type Hub } from './hub.js';
import { createRecorder, type Recorder, type RecordSink } from './recorder.js';
import { createProxyServer } from './server.js';

export interface StartProxyOptions {
  readonly target: URL;
  readonly host: string;
  readonly port: number;
  readonly insecure?: boolean;
  readonly sink?: RecordSink | null;
  readonly appDir: string | null;
  readonly warn: (line: string) => void;
  readonly highWater?: number;
  /** Recording characters waiting to be written past which relays stop reading (default 64 Mi). */
  readonly recordHighWaterChars?: number;
  readonly historyBytes?: number;
}

export interface RunningProxy {
  /** http://host:port/ — the inspector page; ws://host:port/… is the proxy. */
  readonly url: string;
  readonly port: number;
  readonly hub: Hub;
  readonly recorder: Recorder | null;
  /** Stops listening, closes every connection and writes what is still pending. */
  stop(): Promise<void>;
}

export async function startProxy(options: StartProxyOptions): Promise<RunningProxy> {
  const recorder = options.sink
    ? createRecorder({ sink: options.sink, warn: options.warn, highWaterChars: options.recordHighWaterChars })
    : null;
  const hub = createHub({ recorder, historyBytes: options.historyBytes });
  const proxy = createProxyServer({
    target: options.target,
    insecure: options.insecure ?? false,
    hub,
    appDir: options.appDir,
    highWater: options.highWater,
    warn: options.warn,
  });
  const address = await proxy.listen(options.host, options.port);
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}/`,
    port: address.port,
    hub,
    recorder,
    async stop() {
      await proxy.close();
      hub.flush();
      await recorder?.drained();
    },
  };
}
