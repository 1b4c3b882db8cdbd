import { findInvalidLongUtf8, findInvalidUtf8In } from '../core/utf8.js';

/**
 * From this frame length on the walker makes one DataView over the frame (`byteView`) to
 * test text four bytes per load; in a smaller frame the view costs more than it saves.
 */
export const VIEW_FRAME_MIN = 256;

/**
 * The offset of the first invalid UTF-8 sequence in bytes[start, end), or -1, with the
 * common case inline: ASCII text (most keys and values on the wire) is recognized by OR-ing
 * a fixed number of overlapping 32-bit loads for a string up to 16 bytes, so the check has
 * no loop whose exit depends on the string's length. `view` is `byteView(bytes)` or null
 * (bytewise, for small frames). Anything not ASCII goes to the full validator.
 */
export function findInvalidText(bytes: Uint8Array, view: DataView | null, start: number, end: number): number {
  const size = end - start;
  let high: number;
  if (size < 4) {
    // 0 to 3 bytes: three loads cover them (some twice); none for an empty string.
    high = size === 0 ? 0 : bytes[start] | bytes[start + (size >> 1)] | bytes[end - 1];
  } else if (view === null) {
    let i = start;
    while (i + 4 <= end && (bytes[i] | bytes[i + 1] | bytes[i + 2] | bytes[i + 3]) < 0x80) i += 4;
    while (i < end && bytes[i] < 0x80) i++;
    high = i === end ? 0 : 0x80;
  } else if (size <= 8) {
    high = view.getInt32(start, true) | view.getInt32(end - 4, true);
  } else if (size <= 16) {
    high =
      view.getInt32(start, true) |
      view.getInt32(start + 4, true) |
      view.getInt32(end - 8, true) |
      view.getInt32(end - 4, true);
  } else {
    // Long text: the SIMD validator, or the JS one from the first byte that is not ASCII.
    return findInvalidLongUtf8(bytes, view, start, end);
  }
  return (high & 0x80808080) === 0 ? -1 : findInvalidUtf8In(bytes, view, start, end);
}
