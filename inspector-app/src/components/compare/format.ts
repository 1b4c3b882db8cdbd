/** Number formatting and sorting shared by the Compare, CRDT and Diff tabs. */
import type { CompareRowView } from '../../worker/api.js';

const INT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** `12,345` (null: em dash). */
export function formatBytes(n: number | null): string {
  return n === null ? '—' : INT.format(n);
}

/** `+12 B`, `−3 B`, `±0 B`. */
export function formatDelta(delta: number): string {
  if (delta === 0) return '±0 B';
  return `${delta > 0 ? '+' : '−'}${INT.format(Math.abs(delta))} B`;
}

/** `1.23M`, `45.6k`, `789` ops/s. */
export function formatOps(n: number | null): string {
  if (n === null) return '—';
  if (n >= 1e6) return `${(n / 1e6).toFixed(n >= 1e7 ? 1 : 2)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(n >= 1e4 ? 1 : 2)}k`;
  return n >= 10 ? INT.format(n) : n.toFixed(1);
}

/** `0.85×` of the original (null when either side is unknown). */
export function ratio(size: number | null, original: number): number | null {
  return size === null || !(original > 0) ? null : size / original;
}

export function formatRatio(r: number | null): string {
  return r === null ? '—' : `${r.toFixed(r < 10 ? 2 : 1)}×`;
}

export function percent(part: number, total: number): string {
  return total > 0 ? `${((part / total) * 100).toFixed(1)}%` : '0.0%';
}

export type SortKey = 'codec' | 'family' | 'size' | 'ratio' | 'gzip' | 'deflate' | 'encode' | 'decode' | 'lossless';
export interface SortState {
  readonly key: SortKey;
  readonly dir: 'asc' | 'desc';
}

function sortValue(row: CompareRowView, key: SortKey): number | string | null {
  switch (key) {
    case 'codec':
      return row.codec;
    case 'family':
      return row.family;
    case 'size':
    case 'ratio':
      return row.size;
    case 'gzip':
      return row.gzipSize;
    case 'deflate':
      return row.deflateSize;
    case 'encode':
      return row.encodeOpsPerSec;
    case 'decode':
      return row.decodeOpsPerSec;
    case 'lossless':
      return row.unsupported === null ? row.lossless : null;
  }
}

/** A sorted copy; rows without a value (unsupported, unmeasured) stay last either way. */
export function sortRows(rows: readonly CompareRowView[], sort: SortState): CompareRowView[] {
  const sign = sort.dir === 'asc' ? 1 : -1;
  return rows
    .map((row, i) => ({ row, i, v: sortValue(row, sort.key) }))
    .sort((a, b) => {
      if (a.v === null || b.v === null) return a.v === b.v ? a.i - b.i : a.v === null ? 1 : -1;
      const c = typeof a.v === 'number' && typeof b.v === 'number' ? a.v - b.v : String(a.v).localeCompare(String(b.v));
      return c !== 0 ? sign * c : a.i - b.i;
    })
    .map((x) => x.row);
}
