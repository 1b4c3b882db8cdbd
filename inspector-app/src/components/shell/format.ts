/** Display helpers shared by the list, tree and status bar. */
import { grouped } from '../../../../codecs/core/grouped.js';
import { sizeText } from '../../../../codecs/core/size-text.js';

/**
 * Human size (`621 B`, `2.4 KiB`, `3.10 MiB`): the one way sizes read in the list, tab bar,
 * tree and hex. Units are binary (1 KiB = 1,024 bytes) and say so: `253,074 B` is `247 KiB`.
 */
export const formatBytes: (n: number) => string = sizeText;

/** hh:mm:ss.mmm in local time. */
export function formatTime(ms: number): string {
  const d = new Date(ms);
  // A host can send any number (a forged or broken timestamp): say so rather than NaN:NaN.
  if (!Number.isFinite(d.getTime())) return 'invalid time';
  const p = (v: number, w = 2) => String(v).padStart(w, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
}

export function percent(part: number, whole: number): string {
  if (!whole) return '0%';
  const v = (100 * part) / whole;
  return `${v >= 10 ? v.toFixed(0) : v.toFixed(1)}%`;
}

/**
 * A count and its noun, singular for exactly one: `1 byte`, `0 bytes`, `2,048 frames`,
 * `1 entry` / `3 entries` (pass the plural when it is not the noun plus `s`). The one
 * place counts are worded, so the UI never reads "1 bytes".
 */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${grouped(n)} ${n === 1 ? one : many}`;
}

/** The exact size, for a hover title beside `formatBytes`: `2,458 bytes`. */
export function exactBytes(n: number): string {
  return plural(n, 'byte');
}

/** An offset or count with thousands separators: `253,074` (codecs' `grouped`, one formatter for all). */
export const formatCount: (n: number) => string = grouped;

/**
 * A byte range as the tree and hex both show it: decimal offsets with separators, end
 * exclusive, `[10 – 30)`, `[0 – 253,074)` (a comma between the ends would read as a separator).
 */
export function formatRange(start: number, end: number): string {
  return `[${grouped(start)} – ${grouped(end)})`;
}
