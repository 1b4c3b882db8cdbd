import { findInvalidUtf8 } from '../core/utf8.js';
import { countPackedVarints, scanMessage } from './wire.js';

/**
 * A length-delimited field is ambiguous on the wire: a nested message, a string, bytes or a
 * packed repeated field all look alike. These are the readings that fit a payload, best
 * first; the walker shows the first and keeps the rest for "read as".
 */
export type LenReading = 'message' | 'text' | 'bytes' | 'packed';

export interface LenReadings {
  readonly readings: readonly LenReading[];
  /** Fields of the message reading, or items of the packed reading (whichever is chosen). */
  readonly count: number;
  readonly messageFields: number;
  readonly packedItems: number;
}

const scratch: number[] = [];

function printableText(bytes: Uint8Array, start: number, end: number): boolean {
  if (findInvalidUtf8(bytes, start, end) >= 0) return false;
  for (let i = start; i < end; i++) {
    const c = bytes[i];
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f) return false;
  }
  return true;
}

/**
 * Ranks the readings of bytes[start, end). Printable UTF-8 is text first (a message's tag and
 * length bytes are almost always control characters); then a message that consumes the
 * payload whole; then packed varints; then UTF-8 with control characters; bytes always fit.
 */
export function lenReadings(bytes: Uint8Array, start: number, end: number): LenReadings {
  if (end === start) return { readings: ['bytes', 'text', 'message'], count: 0, messageFields: 0, packedItems: 0 };
  const messageFields = scanMessage(bytes, start, end, scratch);
  const isMessage = messageFields > 0;
  const utf8 = findInvalidUtf8(bytes, start, end) < 0;
  const printable = utf8 && printableText(bytes, start, end);
  const packedItems = countPackedVarints(bytes, start, end);
  const readings: LenReading[] = [];
  if (printable) readings.push('text');
  if (isMessage) readings.push('message');
  if (packedItems > 0) readings.push('packed');
  if (utf8 && !printable) readings.push('text');
  readings.push('bytes');
  const first = readings[0];
  return { readings, count: first === 'message' ? messageFields : first === 'packed' ? packedItems : end - start, messageFields, packedItems };
}
