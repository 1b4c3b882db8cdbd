/**
 * Where everything the proxy sees goes: the connections it relays and those a hooked Node
 * process streams in. Each event is recorded (when recording) and passed to every inspector
 * page watching the feed; a page that opens later first gets the recent history (bounded by
 * bytes: the oldest frames go first, and the page is told how many it missed).
 *
 * Frames gather for `flushMs` into one feed message. A page that cannot keep up (its socket
 * buffer over `viewerHighWater`) misses frames rather than growing the proxy's memory; it is
 * told how many with a `dropped` event.
 */
import type { ConnectionInfo, WireFrame } from '../codecs/capture/types.js';
import { encodeLiveEvent, type LiveEvent } from '../codecs/capture/live-feed.js';
import type { Recorder } from './recorder.js';

/** The parts of a feed page's socket the hub uses (`ws`'s WebSocket fits). */
export interface Viewer {
  readonly bufferedAmount: number;
  send(text: string): void;
}

export interface HubOptions {
  readonly recorder?: Recorder | null;
  /** Frame bytes kept for pages that open later (default 64 MiB). */
  readonly historyBytes?: number;
  /** Frames kept for pages that open later (default 50,000: small frames cost more in objects than in bytes). */
  readonly historyFrames?: number;
  readonly viewerHighWater?: number;
  readonly flushMs?: number;
  readonly setTimer?: (callback: () => void, ms: number) => unknown;
}

export interface Hub {
  opening(connectionId: string, url: string, time: number): void;
  opened(info: ConnectionInfo): void;
  frame(frame: WireFrame): void;
  closed(connectionId: string, code: number, reason: string, wasClean: boolean, time: number): void;
  error(connectionId: string, message: string, time: number): void;
  /** Passes on an event that came in already made (a hooked process). */
  publish(event: LiveEvent): void;
  addViewer(viewer: Viewer): () => void;
  /** Sends gathered frames now. */
  flush(): void;
  /** The recording cannot keep up: relays stop reading until `whenCaughtUp` calls back. */
  readonly backlogged: () => boolean;
  whenCaughtUp(callback: () => void): void;
}

export function createHub(options: HubOptions = {}): Hub {
  const recorder = options.recorder ?? null;
  const historyBytes = options.historyBytes ?? 64 * 1024 * 1024;
  const historyFrames = options.historyFrames ?? 50_000;
  const viewerHighWater = options.viewerHighWater ?? 16 * 1024 * 1024;
  const flushMs = options.flushMs ?? 50;
  const setTimer = options.setTimer ?? ((callback: () => void, ms: number) => setTimeout(callback, ms).unref());

  const history: LiveEvent[] = [];
  let historyFrameBytes = 0;
  let historyFrameCount = 0;
  let historyDropped = 0;
  let batch: WireFrame[] = [];
  let timerSet = false;
  const viewers = new Map<Viewer, { missed: number }>();

  function toViewers(event: LiveEvent): void {
    if (viewers.size === 0) return;
    const text = encodeLiveEvent(event);
    for (const [viewer, state] of viewers) {
      if (viewer.bufferedAmount > viewerHighWater) {
        if (event.type === 'frames') state.missed += event.frames.length;
        else viewer.send(text); // connection events are small and keep the list right
        continue;
      }
      if (state.missed > 0) {
        viewer.send(
          encodeLiveEvent({
            type: 'dropped',
            count: state.missed,
            reason: 'this page fell behind the proxy; the proxy kept forwarding and recording them',
          }),
        );
        state.missed = 0;
      }
      viewer.send(text);
    }
  }

  function remember(event: LiveEvent): void {
    history.push(event);
    if (event.type === 'frames') {
      for (const f of event.frames) historyFrameBytes += f.data.length;
      historyFrameCount += event.frames.length;
    }
    if (historyFrameBytes <= historyBytes && historyFrameCount <= historyFrames) return;
    // Oldest frames go first; connection events stay so the list keeps every connection.
    const kept: LiveEvent[] = [];
    for (const old of history) {
      if (old.type === 'frames' && (historyFrameBytes > historyBytes || historyFrameCount > historyFrames)) {
        for (const f of old.frames) historyFrameBytes -= f.data.length;
        historyFrameCount -= old.frames.length;
        historyDropped += old.frames.length;
      } else kept.push(old);
    }
    history.length = 0;
    for (const e of kept) history.push(e);
  }

  function emit(event: LiveEvent): void {
    if (event.type !== 'frames') flush(); // keep order: frames before it go first
    remember(event);
    toViewers(event);
  }

  function flush(): void {
    timerSet = false;
    if (batch.length === 0) return;
    const event: LiveEvent = { type: 'frames', frames: batch };
    batch = [];
    remember(event);
    toViewers(event);
  }

  function frame(f: WireFrame): void {
    recorder?.frame(f);
    batch.push(f);
    if (!timerSet) {
      timerSet = true;
      setTimer(flush, flushMs);
    }
  }

  return {
    opening: (connectionId, url, time) => emit({ type: 'connection-opening', connectionId, url, time }),
    opened(info) {
      recorder?.connection(info);
      emit({ type: 'connection-opened', ...info });
    },
    frame,
    closed(connectionId, code, reason, wasClean, time) {
      recorder?.closed(connectionId, code, reason, time);
      emit({ type: 'connection-closed', connectionId, code, reason, wasClean, time });
    },
    error: (connectionId, message, time) => emit({ type: 'connection-error', connectionId, message, time }),
    publish(event) {
      switch (event.type) {
        case 'frames':
          for (const f of event.frames) frame(f);
          return;
        case 'connection-opened':
          recorder?.connection(event);
          break;
        case 'connection-closed':
          recorder?.closed(event.connectionId, event.code, event.reason, event.time);
          break;
      }
      emit(event);
    },
    addViewer(viewer) {
      flush();
      if (historyDropped > 0)
        viewer.send(
          encodeLiveEvent({
            type: 'dropped',
            count: historyDropped,
            reason: 'older than the history the proxy keeps for pages that open later (see --record for everything)',
          }),
        );
      for (const event of history) viewer.send(encodeLiveEvent(event));
      viewers.set(viewer, { missed: 0 });
      return () => viewers.delete(viewer);
    },
    flush,
    backlogged: () => recorder?.backlogged() ?? false,
    whenCaughtUp: (callback) => (recorder ? recorder.whenCaughtUp(callback) : callback()),
  };
}
