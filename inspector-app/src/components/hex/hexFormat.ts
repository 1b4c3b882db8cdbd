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

/** Bytes per hex row the structure view may pick (8 when narrow). */
export const ROW_CHOICES = [8, 16, 32] as const;
export type BytesPerRow = (typeof ROW_CHOICES)[number];

/**
 * Width of a hex view showing `bytesPerRow` bytes and their ASCII with nothing clipped, as
 * CSS: rows are (offset digits + 2ch gap) + (3ch per byte + 1ch middle gap) + (1ch + one
 * char per byte) of ASCII, plus 6 px padding each side, the ASCII rule and a scrollbar.
 */
export function hexWidthCh(bytesPerRow: number, digits: number): number {
  return digits + 2 + bytesPerRow * 3 + 1 + 1 + bytesPerRow;
}
export const HEX_WIDTH_EXTRA_PX = 6 + 1 + 6 + 16;

export function hexWidthPx(bytesPerRow: number, digits: number, charPx: number): number {
  return Math.ceil(hexWidthCh(bytesPerRow, digits) * charPx + HEX_WIDTH_EXTRA_PX);
}

/** The row choice whose width is nearest `px` (a splitter drag snaps to whole rows). */
export function rowsForWidth(px: number, digits: number, charPx: number): BytesPerRow {
  let best: BytesPerRow = ROW_CHOICES[0];
  for (const c of ROW_CHOICES)
    if (Math.abs(hexWidthPx(c, digits, charPx) - px) < Math.abs(hexWidthPx(best, digits, charPx) - px)) best = c;
  return best;
}

/**
 * The widest row choice up to `preferred` that leaves the tree at least `treeMin` px of
 * `available`; 8 when even that does not fit.
 */
export function fitRows(
  preferred: BytesPerRow,
  available: number,
  treeMin: number,
  digits: number,
  charPx: number,
): BytesPerRow {
  for (let i = ROW_CHOICES.indexOf(preferred); i > 0; i--) {
    if (available - hexWidthPx(ROW_CHOICES[i], digits, charPx) >= treeMin) return ROW_CHOICES[i];
  }
  return ROW_CHOICES[0];
}
