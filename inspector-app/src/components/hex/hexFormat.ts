/** Precomputed lookup tables and small pure helpers for the hex view (no per-frame work). */

export const ROW_HEIGHT = 16;

/** `HEX[b]` = two lowercase hex digits of byte `b`. */
export const HEX: readonly string[] = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** `ASCII[b]` = the printable character for 0x20–0x7e, else '.'. */
export const ASCII: readonly string[] = Array.from({ length: 256 }, (_, b) =>
  b >= 0x20 && b <= 0x7e ? String.fromCharCode(b) : '.',
);

/** Width of the offset column: 8 hex digits, wider when the frame needs more. */
export function offsetDigits(length: number): number {
  return Math.max(8, Math.max(0, length - 1).toString(16).length);
}

export function formatOffset(offset: number, digits: number): string {
  return '0x' + offset.toString(16).padStart(digits, '0');
}

/**
 * The part of [a, b) inside the row [r0, r1), normalised to [0, 0) when empty so that memoised
 * rows outside a range receive identical props and skip re-rendering.
 */
export function clip(a: number, b: number, r0: number, r1: number): [number, number] {
  const lo = Math.max(a, r0);
  const hi = Math.min(b, r1);
  return lo < hi ? [lo, hi] : [0, 0];
}

/** Inside [lo, hi) of the row, or -1. */
export function pointIn(offset: number | null, r0: number, r1: number): number {
  return offset !== null && offset >= r0 && offset < r1 ? offset : -1;
}

/** Tone class of one byte given the row-clipped ranges; '' when not selected. O(1). */
export function toneOf(o: number, keyLo: number, keyHi: number, hdrLo: number, hdrHi: number, payHi: number): string {
  if (o >= keyLo && o < keyHi) return 'hex-key';
  if (o >= hdrLo && o < hdrHi) return 'hex-header';
  if (o >= hdrHi && o < payHi) return 'hex-payload';
  return '';
}
