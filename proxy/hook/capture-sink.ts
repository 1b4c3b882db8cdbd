/**
 * Where the hook's events go: a capture file (line layout), a running proxy's ingest
 * socket, or both. File lines gather in memory and are written synchronously every 100 ms
 * and at process exit, so every message the process saw is in the file when it ends, in
 * order; nothing here waits on the app's event loop.
 *
 * A frame's bytes may be the app's own buffer: each sink turns them into base64 (Node's
 * native encoder) before `frame` returns, which is the one copy the hook makes.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { captureLinesHeader, closedLine, connectionLine } from '../../codecs/capture/capture-lines.js';
import { encodeLiveEvent } from '../../codecs/capture/live-feed.js';
import type { ConnectionInfo, WireFrame } from '../../codecs/capture/types.js';

/**
 * One frame as the JSON object both the capture's line layout and the live feed use
 * (`{"c","d","t","o","b64"}`), written directly: ids are the hook's own (`pid12-3`), times
 * numbers, and base64 needs no escaping.
 */
export function frameJson(f: WireFrame): string {
  const bytes = Buffer.from(f.data.buffer, f.data.byteOffset, f.data.byteLength);
  return `{"c":${JSON.stringify(f.connectionId)},"d":"${f.direction === 'sent' ? 's' : 'r'}","t":${f.time},"o":"${f.opcode === 'text' ? 't' : 'b'}","b64":"${bytes.toString('base64')}"}`;
}

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
  // Lines are copied into one reused buffer (no per-batch join / encode of a large string).
  const chunk = Buffer.allocUnsafe(4 * 1024 * 1024);
  let used = 0;
  const writeAll = (bytes: Buffer, length: number): void => {
    if (fd === null) return;
    try {
      let offset = 0;
      while (offset < length) offset += writeSync(fd, bytes, offset, length - offset);
    } catch (e) {
      warn(`wirescope: recording stopped: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      closeSync(fd);
      fd = null;
    }
  };
  const flushNow = (): void => {
    if (used === 0) return;
    writeAll(chunk, used);
    used = 0;
  };
  const put = (line: string): void => {
    if (fd === null) return;
    const size = Buffer.byteLength(line);
    if (used + size > chunk.length) flushNow();
    if (size > chunk.length) writeAll(Buffer.from(line), size);
    else used += chunk.write(line, used, 'utf8');
  };
  put(captureLinesHeader());
  setInterval(flushNow, 100).unref();
  return {
    opened: (info) => put(connectionLine(info)),
    frame(f) {
      if (fd === null) return;
      const line = `${frameJson(f)}\n`;
      // Frame lines are ASCII (the hook's ids, numbers, base64): one byte per character.
      if (used + line.length > chunk.length) flushNow();
      if (line.length > chunk.length) writeAll(Buffer.from(line, 'latin1'), line.length);
      else used += chunk.write(line, used, 'latin1');
    },
    closed: (id, code, reason, _wasClean, time) => put(closedLine(id, code, reason, time)),
    flushNow,
  };
}

/** Streams events to a proxy's ingest socket, queued until it is open, batched by `flushMs`. */
export function feedHookSink(connect: (onOpen: (socket: FeedSocket) => void) => void): HookSink {
  let socket: FeedSocket | null = null;
  // Feed messages ready to send, and the frames (as JSON) gathering for the next one.
  let queue: string[] = [];
  let frames: string[] = [];
  const takeFrames = (): void => {
    if (frames.length) queue.push(`{"type":"frames","frames":[${frames.join(',')}]}`);
    frames = [];
  };
  const flushNow = (): void => {
    takeFrames();
    if (!socket) return;
    for (const message of queue) socket.send(message);
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
      queue.push(encodeLiveEvent({ type: 'connection-opened', ...info }));
    },
    frame(f) {
      frames.push(frameJson(f));
    },
    closed(connectionId, code, reason, wasClean, time) {
      takeFrames();
      queue.push(encodeLiveEvent({ type: 'connection-closed', connectionId, code, reason, wasClean, time }));
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
