import { hexBytes } from '../input.js';
import { type EditResult, editError } from './edit-error.js';

/** Bytes as hex, 16 a line: how a frame (or a framing's inner value) no notation reads is edited. */
export function hexText(bytes: Uint8Array): string {
  const lines: string[] = [];
  for (let i = 0; i < bytes.length; i += 16) {
    const row: string[] = [];
    for (let j = i; j < Math.min(i + 16, bytes.length); j++) row.push(bytes[j]!.toString(16).padStart(2, '0'));
    lines.push(row.join(' '));
  }
  return lines.join('\n');
}

/**
 * The bytes of a hex edit, read as pasted hex is (codecs/input.ts: whitespace, `0x`, commas,
 * `#` comments); an empty text is an empty frame. A character that is not hex, or a lone
 * digit, is an error at its line and column.
 */
export function bytesFromHex(text: string): EditResult {
  const read = hexBytes(text);
  return read.ok ? { ok: true, bytes: read.bytes } : { ok: false, error: editError(text, read.offset, read.error) };
}
