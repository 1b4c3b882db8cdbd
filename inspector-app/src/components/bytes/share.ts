/** Shares as text that never reads "0.0 %" for bytes that are there. */

/** `42%`, `4.2%`, `0.42%`, `<0.01%`; `0%` only for nothing. */
export function formatShare(part: number, whole: number): string {
  if (!(whole > 0) || !(part > 0)) return '0%';
  const v = (100 * part) / whole;
  if (v >= 10) return `${v.toFixed(0)}%`;
  if (v >= 1) return `${v.toFixed(1)}%`;
  if (v >= 0.01) return `${v.toFixed(2)}%`;
  return '<0.01%';
}

/** A bar width in percent, at least a hairline for anything non-zero. */
export function barWidth(part: number, whole: number): string {
  if (!(whole > 0) || !(part > 0)) return '0%';
  return `${Math.max(0.5, Math.min(100, (100 * part) / whole))}%`;
}

const INT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const ONE = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/** Exact bytes with thousands separators: `12,345 B`. */
export function exactBytes(n: number): string {
  return `${INT.format(n)} B`;
}

/** An average, one decimal when it is not whole: `40 B`, `17.5 B`. */
export function averageBytes(n: number): string {
  return `${ONE.format(n)} B`;
}
