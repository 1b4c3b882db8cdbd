/**
 * `wirescope run --proxy`: streams the hooked process's capture file to a running proxy's
 * ingest socket from wirescope's own process (the app's process only writes the file). The
 * file is read as it grows, every `pollMs`; `finish` (called once the app has exited, so its
 * last records are written) reads the rest, sends it and waits until the proxy has it (the
 * socket closed cleanly), so an app that exits right after sending still delivers every
 * message. An unreachable proxy is one warning; the app runs on regardless.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import WebSocket from 'ws';
import { createCaptureFollower } from './capture-follower.js';

export const INGEST_PATH = '/__wirescope/ingest';

export interface CaptureStream {
  /** Sends what is left of the file and closes the connection; resolves when the proxy has it all (or gave up). */
  finish(): Promise<void>;
}

export interface CaptureStreamOptions {
  readonly file: string;
  /** The proxy's http:// or ws:// address. */
  readonly proxy: string;
  readonly warn: (line: string) => void;
  readonly pollMs?: number;
  /** Reading pauses while more than this many bytes wait to go out to the proxy. */
  readonly highWater?: number;
  /** How long `finish` waits for the proxy at most (default 30 s). */
  readonly finishTimeoutMs?: number;
}

export function streamCaptureToProxy(options: CaptureStreamOptions): CaptureStream {
  const { file, warn } = options;
  const pollMs = options.pollMs ?? 50;
  const highWater = options.highWater ?? 16 * 1024 * 1024;
  const url = new URL(INGEST_PATH, options.proxy.replace(/^http/, 'ws'));
  const follower = createCaptureFollower();
  const socket = new WebSocket(url, { perMessageDeflate: false });
  let failed = false;
  let fd: number | null = null;
  let offset = 0;
  const queue: string[] = [];
  const readBuffer = Buffer.allocUnsafe(4 * 1024 * 1024);

  socket.on('open', sendQueued);
  socket.on('error', (e) => {
    if (failed) return;
    failed = true;
    warn(`wirescope: cannot stream to the proxy at ${options.proxy}: ${e.message}`);
  });

  function sendQueued(): void {
    if (socket.readyState !== WebSocket.OPEN) return;
    for (const message of queue) socket.send(message);
    queue.length = 0;
  }

  /** Reads and sends what the file has now, when the proxy can take it; the bytes read. */
  function readOnce(): number {
    if (failed || follower.error() || socket.readyState !== WebSocket.OPEN || socket.bufferedAmount > highWater)
      return 0;
    if (fd === null) {
      try {
        fd = openSync(file, 'r');
      } catch {
        return 0; // not created yet
      }
    }
    const n = readSync(fd, readBuffer, 0, readBuffer.length, offset);
    offset += n;
    for (const message of follower.push(readBuffer.subarray(0, n))) queue.push(message);
    const error = follower.error();
    if (error) warn(`wirescope: stopped streaming to the proxy: ${error}`);
    sendQueued();
    return n;
  }

  const timer = setInterval(() => {
    while (readOnce() === readBuffer.length) {
      // the file grew by more than one read
    }
  }, pollMs);
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  return {
    async finish() {
      clearInterval(timer);
      const deadline = Date.now() + (options.finishTimeoutMs ?? 30_000);
      // The app has exited: its file is complete. Read it to the end as fast as the proxy takes it.
      while (!failed && !follower.error() && Date.now() < deadline) {
        const waiting = socket.readyState === WebSocket.CONNECTING || socket.bufferedAmount > highWater;
        if (waiting) await sleep(10);
        else if (socket.readyState !== WebSocket.OPEN || readOnce() === 0) break;
      }
      if (fd !== null) closeSync(fd);
      if (follower.pendingBytes() > 0 && !follower.error())
        warn('wirescope: the recording ends inside a record (the process was killed mid-write)');
      if (socket.readyState !== WebSocket.OPEN) {
        socket.terminate();
        return;
      }
      // The proxy answers a clean close once it has read everything sent before it.
      await new Promise<void>((resolve) => {
        const give = setTimeout(resolve, Math.max(0, deadline - Date.now()));
        socket.once('close', () => {
          clearTimeout(give);
          resolve();
        });
        socket.close(1000, 'done');
      });
    },
  };
}
