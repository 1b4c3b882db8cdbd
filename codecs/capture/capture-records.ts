/**
 * The records layout of a wirescope capture: what `wirescope run --record` writes from inside
 * the app's process, where each message must cost as little as possible. The frame's bytes
 * are copied as they are (no base64, no JSON, no string per frame); connections and closes
 * are JSON records holding the same objects as the line layout's lines (capture-lines.ts).
 *
 *   {"format":"wirescope-capture","version":1,"layout":"records"}\n      (the header line)
 *   then records, back to back: kind (u8), body length (u32 LE), body
 *     kind 1, a frame:  flags (u8: 1 = received, 2 = binary), id length (u8), the
 *                       connection id (UTF-8), time (f64 LE, ms since the epoch), the bytes
 *     kind 2, JSON:     one JSON object: {"connection":{…}} or {"closed":{…}}
 *
 * A recording cut short (the process killed mid-write) reads up to its last complete record;
 * the error names the byte where the cut record starts.
 */
import type { Direction, Opcode } from './types.js';

export const RECORDS_LAYOUT = 'records';
export const RECORDS_HEADER = `{"format":"wirescope-capture","version":1,"layout":"${RECORDS_LAYOUT}"}\n`;
export const FRAME_RECORD = 1;
export const JSON_RECORD = 2;
/** kind + body length. */
export const RECORD_HEAD_BYTES = 5;
/** flags + id length + time, before the id's and after it. */
export const FRAME_FIXED_BYTES = 1 + 1 + 8;
export const FLAG_RECEIVED = 1;
export const FLAG_BINARY = 2;

const headerBytes = new TextEncoder().encode(RECORDS_HEADER);

/** True when the bytes start with the records layout's header line. */
export function isRecordsLayout(bytes: Uint8Array): boolean {
  if (bytes.length < headerBytes.length) return false;
  for (let i = 0; i < headerBytes.length; i++) if (bytes[i] !== headerBytes[i]) return false;
  return true;
}

export type CaptureRecord =
  | {
      readonly kind: 'frame';
      readonly connectionId: string;
      readonly direction: Direction;
      readonly opcode: Opcode;
      readonly time: number;
      /** A view into the bytes read (copy it to keep it past the buffer's reuse). */
      readonly data: Uint8Array;
    }
  | { readonly kind: 'json'; readonly text: string };

export type NextRecord =
  | { readonly record: CaptureRecord; readonly next: number }
  /** The bytes end inside the record starting at `offset` (more may come). */
  | { readonly incomplete: true; readonly offset: number }
  /** The record at `offset` cannot be read; nothing after it can be either. */
  | { readonly error: string; readonly offset: number };

const decoder = new TextDecoder();

/** The record starting at `offset` (after the header line), or why there is none. */
export function nextRecord(bytes: Uint8Array, offset: number): NextRecord {
  if (bytes.length - offset < RECORD_HEAD_BYTES) return { incomplete: true, offset };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const kind = bytes[offset];
  const length = view.getUint32(offset + 1, true);
  const body = offset + RECORD_HEAD_BYTES;
  if (kind !== FRAME_RECORD && kind !== JSON_RECORD)
    return { error: `unknown record kind ${kind} at byte ${offset}: the rest of the file is not read`, offset };
  if (bytes.length - body < length) return { incomplete: true, offset };
  const next = body + length;
  if (kind === JSON_RECORD) return { record: { kind: 'json', text: decoder.decode(bytes.subarray(body, next)) }, next };
  if (length < FRAME_FIXED_BYTES || length < FRAME_FIXED_BYTES + bytes[body + 1])
    return {
      error: `frame record at byte ${offset} is shorter than its header: the rest of the file is not read`,
      offset,
    };
  const flags = bytes[body];
  const idEnd = body + 2 + bytes[body + 1];
  return {
    record: {
      kind: 'frame',
      connectionId: decoder.decode(bytes.subarray(body + 2, idEnd)),
      direction: flags & FLAG_RECEIVED ? 'received' : 'sent',
      opcode: flags & FLAG_BINARY ? 'binary' : 'text',
      time: view.getFloat64(idEnd, true),
      data: bytes.subarray(idEnd + 8, next),
    },
    next,
  };
}
