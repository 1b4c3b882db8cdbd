import type { CompareRowView } from '../../worker/api.js';

export type WhyColumn = 'size' | 'ratio' | 'gzip' | 'deflate' | 'encode' | 'decode';

/** Why a measured row's cell is empty ("—"), or null when it has a figure. */
export function whyEmpty(row: CompareRowView, column: WhyColumn, originalSize: number): string | null {
  const value =
    column === 'size' || column === 'ratio'
      ? row.size
      : column === 'gzip'
        ? row.gzipSize
        : column === 'deflate'
          ? row.deflateSize
          : column === 'encode'
            ? row.encodeOpsPerSec
            : row.decodeOpsPerSec;
  if (column === 'ratio' && row.size !== null) return originalSize > 0 ? null : 'the original is empty: no ratio';
  if (value !== null) return null;
  const key = column === 'ratio' ? 'size' : column;
  return row.why?.[key] ?? 'not measured';
}

/** Footnote numbers for the reasons, in the order they first appear (table order). */
export function footnotes(
  rows: readonly CompareRowView[],
  columns: readonly WhyColumn[],
  originalSize: number,
): Map<string, number> {
  const notes = new Map<string, number>();
  for (const row of rows) {
    if (row.unsupported !== null) continue;
    for (const c of columns) {
      const why = whyEmpty(row, c, originalSize);
      if (why !== null && !notes.has(why)) notes.set(why, notes.size + 1);
    }
  }
  return notes;
}

export interface UnsupportedGroup {
  readonly reason: string;
  readonly rows: readonly CompareRowView[];
}

/** Unsupported codecs grouped by their reason (first-seen order). */
export function groupUnsupported(rows: readonly CompareRowView[]): UnsupportedGroup[] {
  const groups = new Map<string, CompareRowView[]>();
  for (const row of rows) {
    if (row.unsupported === null) continue;
    const g = groups.get(row.unsupported);
    if (g) g.push(row);
    else groups.set(row.unsupported, [row]);
  }
  return [...groups].map(([reason, members]) => ({ reason, rows: members }));
}
