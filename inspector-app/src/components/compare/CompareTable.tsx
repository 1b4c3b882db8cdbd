import type { ReactElement } from 'react';
import type { CompareRowView } from '../../worker/api.js';
import { formatBytes, formatOps, formatRatio, ratio, type SortKey, type SortState } from './format.js';

const COLUMNS: readonly { key: SortKey; label: string; title: string; numeric: boolean }[] = [
  { key: 'codec', label: 'codec', title: 'Codec', numeric: false },
  { key: 'family', label: 'family', title: 'Codec family', numeric: false },
  { key: 'size', label: 'size (B)', title: 'Encoded size in bytes', numeric: true },
  { key: 'ratio', label: 'vs. frame', title: "Encoded size relative to the original encoding's size", numeric: true },
  { key: 'gzip', label: 'gzip', title: 'Size after gzip, bytes', numeric: true },
  { key: 'deflate', label: 'deflate', title: 'Size after raw deflate, bytes', numeric: true },
  { key: 'encode', label: 'encode ops/s', title: 'Encode operations per second', numeric: true },
  { key: 'decode', label: 'decode ops/s', title: 'Decode operations per second', numeric: true },
  { key: 'lossless', label: 'lossless', title: 'Whether a round trip keeps the value', numeric: false },
];

export interface CompareTableProps {
  readonly rows: readonly CompareRowView[];
  readonly originalSize: number;
  readonly sort: SortState;
  readonly onSort: (key: SortKey) => void;
}

/** One row per codec; unsupported codecs are greyed with their reason. Headers sort. */
export function CompareTable({ rows, originalSize, sort, onSort }: CompareTableProps): ReactElement {
  return (
    <table className="ws-table" data-testid="compare-table" aria-label="Codec comparison">
      <thead>
        <tr>
          {COLUMNS.map((c) => {
            const active = sort.key === c.key;
            return (
              <th
                key={c.key}
                scope="col"
                className={c.numeric ? 'ws-num' : undefined}
                aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}
              >
                <button type="button" className="ws-sort" title={c.title} onClick={() => onSort(c.key)} aria-label={`Sort by ${c.label}`}>
                  {c.label}
                  {active ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}
                </button>
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) =>
          row.unsupported !== null ? (
            <tr key={row.codec} className="ws-row-unsupported" data-testid="compare-row" aria-disabled="true">
              <td>{row.codec}</td>
              <td>{row.family}</td>
              <td colSpan={COLUMNS.length - 2} className="ws-wrap">
                unsupported: {row.unsupported}
              </td>
            </tr>
          ) : (
            <tr key={row.codec} data-testid="compare-row">
              <td>{row.codec}</td>
              <td>{row.family}</td>
              <td className="ws-num">{formatBytes(row.size)}</td>
              <td className="ws-num">{formatRatio(ratio(row.size, originalSize))}</td>
              <td className="ws-num">{formatBytes(row.gzipSize)}</td>
              <td className="ws-num">{formatBytes(row.deflateSize)}</td>
              <td className="ws-num">{formatOps(row.encodeOpsPerSec)}</td>
              <td className="ws-num">{formatOps(row.decodeOpsPerSec)}</td>
              <td className={row.lossless === 'yes' ? undefined : 'ws-warn ws-wrap'}>{row.lossless}</td>
            </tr>
          ),
        )}
      </tbody>
    </table>
  );
}
