import type { BytesReport } from '../../worker/api.js';

export type FieldRow = BytesReport['fields'][number];
export type FieldSortKey = 'pattern' | 'count' | 'totalBytes' | 'averageBytes' | 'keyBytes' | 'valueBytes';
export interface FieldSort {
  readonly key: FieldSortKey;
  readonly dir: 'asc' | 'desc';
}

/** A sorted copy of the cost-by-field rows; ties keep the worker's order (heaviest first). */
export function sortFields(rows: readonly FieldRow[], sort: FieldSort): FieldRow[] {
  const sign = sort.dir === 'asc' ? 1 : -1;
  return rows
    .map((row, i) => ({ row, i }))
    .sort((a, b) => {
      const x = a.row[sort.key];
      const y = b.row[sort.key];
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
      return c !== 0 ? sign * c : a.i - b.i;
    })
    .map((x) => x.row);
}

/** Clicking a column: the same column flips, a new one starts where it reads best (names A→Z, numbers largest first). */
export function nextSort(current: FieldSort, key: FieldSortKey): FieldSort {
  if (current.key === key) return { key, dir: current.dir === 'asc' ? 'desc' : 'asc' };
  return { key, dir: key === 'pattern' ? 'asc' : 'desc' };
}
