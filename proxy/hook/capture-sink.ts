/**
 * Where the hook's events go: a capture file (line layout), a running proxy's ingest
 * socket, or both. File lines gather in memory and are written synchronously every
 * `flushMs` and at process exit, so every message the process saw is in the file when it
 * ends, in order; nothing here waits on the app's event loop.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { captureLinesHeader, closedLine, connectionLine, frameLine } from '../../codecs/capture/capture-lines.js';
import { encodeLiveEvent, type LiveEvent } from '../../codecs/capture/live-feed.js';
import type { ConnectionInfo, WireFrame } from '../../codecs/capture/types.js';

export interface HookSink {
  opened(info: ConnectionInfo): void;
  frame(frame: WireFrame): void;
  closed(connectionId: string, code: number, reason: string, wasClean: boolean, time: number): void;
  /** Writes everything pending now (process exit). */
  flushNow(): void;
}

export interface FeedSocket {
  send(text: string): void;
}

export function fileHookSink(path: string, warn: (line: string) => void): HookSink {
  let fd: number | null = openSync(path, 'w');
  let lines: string[] = [captureLinesHeader()];
  let frames: WireFrame[] = [];
  const flushNow = (): void => {
    if (fd === null) return;
    for (const f of frames) lines.push(frameLine(f));
    frames = [];
    if (lines.length === 0) return;
    const bytes = Buffer.from(lines.join(''));
    lines = [];
    try {
      let offset = 0;
      while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
    } catch (e) {
      warn(`wirescope: recording stopped: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      closeSync(fd);
      fd = null;
    }
  };
  setInterval(flushNow, 100).unref();
  return {
    opened(info) {
      for (const f of frames) lines.push(frameLine(f));
      frames = [];
      lines.push(connectionLine(info));
    },
    // Frames are kept as bytes and turned into text at flush time: the app's send path only pays a copy.
    frame: (f) => {
      frames.push(f);
    },
    closed(id, code, reason, _wasClean, time) {
      for (const f of frames) lines.push(frameLine(f));
      frames = [];
      lines.push(closedLine(id, code, reason, time));
    },
    flushNow,
  };
}

/** Streams events to a proxy's ingest socket, queued until it is open, batched by `flushMs`. */
export function feedHookSink(connect: (onOpen: (socket: FeedSocket) => void) => void): HookSink {
  let socket: FeedSocket | null = null;
  let queue: LiveEvent[] = [];
  let frames: WireFrame[] = [];
  const takeFrames = (): void => {
    if (frames.length) queue.push({ type: 'frames', frames });
    frames = [];
  };
  const flushNow = (): void => {
    takeFrames();
    if (!socket) return;
    for (const event of queue) socket.send(encodeLiveEvent(event));
    queue = [];
  };
  connect((open) => {
    socket = open;
    flushNow();
  });
  setInterval(flushNow, 50).unref();
  return {
    opened(info) {
      takeFrames();
      queue.push({ type: 'connection-opened', ...info });
    },
    frame: (f) => {
      frames.push(f);
    },
    closed(connectionId, code, reason, wasClean, time) {
      takeFrames();
      queue.push({ type: 'connection-closed', connectionId, code, reason, wasClean, time });
    },
    flushNow,
  };
}

export function bothSinks(sinks: readonly HookSink[]): HookSink {
  return {
    opened(info) {
      for (const s of sinks) s.opened(info);
    },
    frame(f) {
      for (const s of sinks) s.frame(f);
    },
    closed(...a) {
      for (const s of sinks) s.closed(...a);
    },
    flushNow() {
      for (const s of sinks) s.flushNow();
    },
  };
}
