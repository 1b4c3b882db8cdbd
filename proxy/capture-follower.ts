/**
 * Reads a capture file in the records layout as it grows (the hook writing it in another
 * process) and turns each complete record into live-feed messages, in file order: connection
 * opens and closes one message each, the frames between them gathered into `frames` messages
 * of at most `maxFrameBytes` bytes of data. Bytes that end inside a record wait for the next
 * push; a record that cannot be read stops the follower with one error.
 */
import { isRecordsLayout, nextRecord, RECORDS_HEADER } from '../codecs/capture/capture-records.js';
import { encodeLiveEvent } from '../codecs/capture/live-feed.js';
import type { WireFrame } from '../codecs/capture/types.js';

export interface CaptureFollower {
  /** The file's next bytes → the feed messages their complete records make. */
  push(bytes: Uint8Array): string[];
  /** Bytes held back: the start of a record not yet complete (at the end, a cut record). */
  readonly pendingBytes: () => number;
  /** Why reading stopped (not a records-layout file, an unreadable record), or null. */
  readonly error: () => string | null;
}

const HEADER_BYTES = Buffer.byteLength(RECORDS_HEADER);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export function createCaptureFollower(maxFrameBytes = 1024 * 1024): CaptureFollower {
  let pending: Buffer = Buffer.alloc(0);
  let headerRead = false;
  let fileOffset = 0; // of pending[0]
  let stopped: string | null = null;

  function push(bytes: Uint8Array): string[] {
    if (stopped) return [];
    pending = pending.length ? Buffer.concat([pending, bytes]) : Buffer.from(bytes);
    const out: string[] = [];
    if (!headerRead) {
      if (pending.length < HEADER_BYTES) return out;
      if (!isRecordsLayout(pending)) {
        stopped = 'the hook wrote a file that is not a records-layout capture';
        return out;
      }
      headerRead = true;
      pending = pending.subarray(HEADER_BYTES);
      fileOffset = HEADER_BYTES;
    }
    let frames: WireFrame[] = [];
    let frameBytes = 0;
    const takeFrames = (): void => {
      if (frames.length) out.push(encodeLiveEvent({ type: 'frames', frames }));
      frames = [];
      frameBytes = 0;
    };
    let offset = 0;
    for (;;) {
      const read = nextRecord(pending, offset);
      if ('incomplete' in read) break;
      if ('error' in read) {
        stopped = read.error.replace(/at byte \d+/, `at byte ${fileOffset + read.offset}`);
        break;
      }
      const { record } = read;
      offset = read.next;
      if (record.kind === 'frame') {
        const { connectionId, direction, opcode, time, data } = record;
        frames.push({ connectionId, direction, opcode, time, data });
        frameBytes += data.length;
        if (frameBytes >= maxFrameBytes) takeFrames();
        continue;
      }
      const event = feedEvent(record.text);
      if (event) {
        takeFrames();
        out.push(event);
      }
    }
    takeFrames(); // encoded now: the frames' bytes are views into `pending`
    pending = pending.subarray(offset);
    fileOffset += offset;
    return out;
  }

  return { push, pendingBytes: () => pending.length, error: () => stopped };
}

/** A JSON record (connection or close) as its feed message; null for anything else. */
function feedEvent(text: string): string | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(value)) return null;
  // Checked by the proxy as every feed message is (live-feed.ts decodeLiveEvent).
  if (isObject(value.connection))
    return JSON.stringify({ ...value.connection, type: 'connection-opened' } satisfies Json);
  const closed = value.closed;
  if (isObject(closed) && typeof closed.c === 'string' && typeof closed.code === 'number')
    return encodeLiveEvent({
      type: 'connection-closed',
      connectionId: closed.c,
      code: closed.code,
      reason: typeof closed.reason === 'string' ? closed.reason : '',
      wasClean: typeof closed.wasClean === 'boolean' ? closed.wasClean : closed.code !== 1006,
      time: typeof closed.t === 'number' ? closed.t : 0,
    });
  return null;
}
