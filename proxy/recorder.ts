/**
 * `--record`: writes the capture (line layout, codecs/capture/capture-lines.ts) as traffic
 * flows. Lines gather for `flushMs` and go out as one write, one write in flight at a time,
 * so a slow disk never blocks forwarding. What waits to be written is bounded: past
 * `highWaterChars` the recorder says it is backlogged, and the relay stops reading until it
 * has caught up (below half of that), as it does for a slow side; nothing is dropped and the
 * proxy's memory does not grow with a disk that cannot keep up. When a write fails (a full
 * disk: ENOSPC) recording stops with one warning and forwarding goes on; what was written
 * stays a readable capture.
 *
 * The sink is passed in (a file in the CLI, a failing fake in tests).
 */
import type { ConnectionInfo, WireFrame } from '../codecs/capture/types.js';
import { captureLinesHeader, closedLine, connectionLine, frameLine } from '../codecs/capture/capture-lines.js';

export interface RecordSink {
  /** Appends the text; calls back once it is written or has failed. */
  write(text: string, done: (error?: NodeJS.ErrnoException | null) => void): void;
  /** Appends the text at once (exit path); throws on failure. */
  writeNow(text: string): void;
}

export interface Recorder {
  connection(info: ConnectionInfo): void;
  frame(frame: WireFrame): void;
  closed(connectionId: string, code: number, reason: string, time: number): void;
  /** Writes what is pending now (process exit). */
  flushNow(): void;
  /** Resolves once everything recorded so far is written (or recording stopped). */
  drained(): Promise<void>;
  readonly stopped: () => string | null;
  /** Lines not written because recording had stopped. */
  readonly linesLost: () => number;
  /** More than the high-water mark waits to be written: the relay should stop reading. */
  readonly backlogged: () => boolean;
  /** Calls `callback` once, when the backlog is down to half the high-water mark (at once if it is). */
  whenCaughtUp(callback: () => void): void;
}

export interface RecorderOptions {
  readonly sink: RecordSink;
  /** Told once, when recording stops. */
  readonly warn: (line: string) => void;
  readonly flushMs?: number;
  /** Characters waiting (pending and in the write in flight) past which it is backlogged (default 64 Mi). */
  readonly highWaterChars?: number;
  readonly setTimer?: (callback: () => void, ms: number) => unknown;
}

export function createRecorder(options: RecorderOptions): Recorder {
  const { sink, warn } = options;
  const flushMs = options.flushMs ?? 50;
  const setTimer = options.setTimer ?? ((callback: () => void, ms: number) => setTimeout(callback, ms).unref());
  const highWater = options.highWaterChars ?? 64 * 1024 * 1024;
  let pending: string[] = [captureLinesHeader()];
  // Characters in `pending`, and in the write in flight.
  let pendingChars = pending[0]!.length;
  let writingChars = 0;
  let catchUpWaiters: (() => void)[] = [];
  let writing = false;
  let timerSet = false;
  let stoppedWhy: string | null = null;
  let lost = 0;
  let waiters: (() => void)[] = [];

  function stop(error: NodeJS.ErrnoException): void {
    if (stoppedWhy) return;
    stoppedWhy = error.code === 'ENOSPC' ? 'the disk is full (ENOSPC)' : `${error.code ?? error.message}`;
    lost += pending.length;
    pending = [];
    pendingChars = 0;
    warn(`wirescope: recording stopped: ${stoppedWhy}; forwarding goes on, the file holds what was written before`);
    settle();
  }

  const backlog = (): number => pendingChars + writingChars;

  function callCaughtUp(): void {
    if (catchUpWaiters.length === 0 || backlog() > highWater / 2) return;
    const list = catchUpWaiters;
    catchUpWaiters = [];
    for (const w of list) w();
  }

  function settle(): void {
    callCaughtUp();
    if (writing || pending.length > 0) return;
    const list = waiters;
    waiters = [];
    for (const w of list) w();
  }

  function flush(): void {
    timerSet = false;
    if (writing || stoppedWhy || pending.length === 0) return settle();
    const text = pending.join('');
    const lines = pending.length;
    pending = [];
    writingChars = pendingChars;
    pendingChars = 0;
    writing = true;
    sink.write(text, (error) => {
      writing = false;
      writingChars = 0;
      if (error) {
        lost += lines;
        stop(error);
      } else if (pending.length) flush();
      else settle();
    });
  }

  function add(line: string): void {
    if (stoppedWhy) {
      lost++;
      return;
    }
    pending.push(line);
    pendingChars += line.length;
    if (!timerSet && !writing) {
      timerSet = true;
      setTimer(flush, flushMs);
    }
  }

  // The header goes out at once: a recording where nothing happens is an empty capture, not an empty file.
  timerSet = true;
  setTimer(flush, 0);
  return {
    connection: (info) => add(connectionLine(info)),
    frame: (f) => add(frameLine(f)),
    closed: (id, code, reason, time) => add(closedLine(id, code, reason, time)),
    flushNow() {
      if (stoppedWhy || pending.length === 0) return;
      const text = pending.join('');
      pending = [];
      pendingChars = 0;
      try {
        sink.writeNow(text);
      } catch (e) {
        stop(e as NodeJS.ErrnoException);
      }
    },
    // Writes what is pending now rather than at the (unref'd) timer, which may never fire at exit.
    drained: () =>
      new Promise<void>((resolve) => {
        waiters.push(resolve);
        flush();
      }),
    stopped: () => stoppedWhy,
    linesLost: () => lost,
    backlogged: () => backlog() > highWater,
    whenCaughtUp(callback) {
      catchUpWaiters.push(callback);
      callCaughtUp();
    },
  };
}
