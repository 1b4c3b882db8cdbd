/**
 * Where the hook's events go: a capture file in the records layout
 * (codecs/capture/capture-records.ts), the one thing the hook writes. A frame costs a copy of
 * its bytes behind a 15-byte head in one reused buffer: no base64, no JSON, no string per
 * frame. The buffer is written synchronously every 100 ms, when full, and at exit, so every
 * message the process saw is in the file when it ends, in order; nothing here waits on the
 * app's event loop. (`wirescope run --proxy` reads this file from its own process and streams
 * it to the proxy, so the app's process never encodes for the feed.)
 *
 * A frame's bytes may be the app's own buffer: they are copied before `frame` returns. The
 * file is written with direct I/O where it can be (chunk-file.ts), so the app does not pay the
 * kernel's copy of every byte into the page cache.
 */
import { closedLine, connectionLine } from '../../codecs/capture/capture-lines.js';
import {
  FLAG_BINARY,
  FLAG_RECEIVED,
  FRAME_FIXED_BYTES,
  FRAME_RECORD,
  JSON_RECORD,
  RECORD_HEAD_BYTES,
  RECORDS_HEADER,
} from '../../codecs/capture/capture-records.js';
import type { ConnectionInfo, Direction, Opcode } from '../../codecs/capture/types.js';
import { type ChunkFile, openChunkFile } from './chunk-file.js';

export interface HookSink {
  opened(info: ConnectionInfo): void;
  frame(connectionId: string, direction: Direction, opcode: Opcode, time: number, data: Uint8Array): void;
  closed(connectionId: string, code: number, reason: string, wasClean: boolean, time: number): void;
  /** Writes everything pending now (exit, signals). */
  flushNow(): void;
}

export interface FileHookSinkOptions {
  /** The reused buffer's size (default 4 MiB, at least 64 KiB); a frame larger than it goes through it in pieces. */
  readonly bufferBytes?: number;
  /** How often the buffer is written (default 100 ms); 0: only when full and by flushNow. */
  readonly flushMs?: number;
}

export function fileHookSink(path: string, warn: (line: string) => void, options: FileHookSinkOptions = {}): HookSink {
  return chunkFileSink(openChunkFile(path, Math.max(options.bufferBytes ?? 4 * 1024 * 1024, 65536)), warn, options);
}

/** The sink over an open chunk file (a test can give a plain one where direct I/O would be chosen). */
export function chunkFileSink(
  opened: ChunkFile,
  warn: (line: string) => void,
  options: FileHookSinkOptions = {},
): HookSink {
  let file: ChunkFile | null = opened;
  const chunk = opened.chunk;
  let used = 0;
  // chunk[0, inFile) is already in the file (the partial block a direct-I/O flush keeps).
  let inFile = 0;
  const stop = (e: unknown): void => {
    warn(`wirescope: recording stopped: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    try {
      file?.close();
    } catch {
      // already unusable
    }
    file = null;
    used = 0;
    inFile = 0;
  };
  const flushNow = (): void => {
    if (file === null || used === inFile) return;
    try {
      used = inFile = file.flush(used);
    } catch (e) {
      stop(e);
    }
  };
  /** Bytes too large for what the chunk has free, through the chunk in pieces. */
  const appendThrough = (bytes: Uint8Array): void => {
    let from = 0;
    while (file !== null && from < bytes.length) {
      if (used === chunk.length) flushNow();
      const n = Math.min(bytes.length - from, chunk.length - used);
      chunk.set(bytes.subarray(from, from + n), used);
      used += n;
      from += n;
    }
  };
  const jsonRecord = (line: string): void => {
    if (file === null) return;
    const text = line.endsWith('\n') ? line.slice(0, -1) : line;
    const size = Buffer.byteLength(text);
    if (used + RECORD_HEAD_BYTES + size > chunk.length) flushNow();
    if (used + RECORD_HEAD_BYTES + size > chunk.length) {
      const whole = Buffer.allocUnsafe(RECORD_HEAD_BYTES + size);
      whole[0] = JSON_RECORD;
      whole.writeUInt32LE(size, 1);
      whole.write(text, RECORD_HEAD_BYTES, 'utf8');
      appendThrough(whole);
      return;
    }
    chunk[used] = JSON_RECORD;
    chunk.writeUInt32LE(size, used + 1);
    chunk.write(text, used + RECORD_HEAD_BYTES, 'utf8');
    used += RECORD_HEAD_BYTES + size;
  };
  // Each connection id's bytes, made once (at most 255 of them: the record's id length is a byte).
  const ids = new Map<string, Uint8Array>();
  const idBytesOf = (connectionId: string): Uint8Array => {
    let bytes = ids.get(connectionId);
    if (!bytes) {
      bytes = Buffer.from(connectionId).subarray(0, 255);
      ids.set(connectionId, bytes);
    }
    return bytes;
  };
  used = chunk.write(RECORDS_HEADER, 0, 'utf8');
  flushNow();
  const flushMs = options.flushMs ?? 100;
  if (flushMs > 0) setInterval(flushNow, flushMs).unref();
  return {
    opened: (info) => jsonRecord(connectionLine(info)),
    frame(connectionId, direction, opcode, time, data) {
      if (file === null) return;
      const id = idBytesOf(connectionId);
      const idLength = id.length;
      const head = RECORD_HEAD_BYTES + FRAME_FIXED_BYTES + idLength;
      const bodyLength = FRAME_FIXED_BYTES + idLength + data.byteLength;
      if (used + head + data.byteLength > chunk.length) {
        flushNow();
        if (used + head + data.byteLength > chunk.length) {
          // Larger than the chunk: its head, then its bytes through the chunk in pieces.
          used = writeHead(chunk, used, bodyLength, direction, opcode, id, time);
          appendThrough(data);
          return;
        }
      }
      used = writeHead(chunk, used, bodyLength, direction, opcode, id, time);
      chunk.set(data, used);
      used += data.byteLength;
    },
    closed: (connectionId, code, reason, wasClean, time) => {
      ids.delete(connectionId);
      const line = closedLine(connectionId, code, reason, time);
      jsonRecord(line.replace(/\}\}\n?$/, `,"wasClean":${wasClean}}}`));
    },
    flushNow,
  };
}

/** A frame record's head at `at`; returns where its bytes go. */
function writeHead(
  chunk: Buffer,
  at: number,
  bodyLength: number,
  direction: Direction,
  opcode: Opcode,
  idBytes: Uint8Array,
  time: number,
): number {
  chunk[at] = FRAME_RECORD;
  chunk.writeUInt32LE(bodyLength, at + 1);
  chunk[at + 5] = (direction === 'received' ? FLAG_RECEIVED : 0) | (opcode === 'binary' ? FLAG_BINARY : 0);
  chunk[at + 6] = idBytes.length;
  const idEnd = at + 7 + idBytes.length;
  chunk.set(idBytes, at + 7);
  chunk.writeDoubleLE(time, idEnd);
  return idEnd + 8;
}
