import type { ReactElement } from 'react';
import type { CompareRowView } from '../../worker/api.js';
import { formatBytes, formatOps, formatRatio, ratio, type SortKey, type SortState } from './format.js';
import { footnotes, groupUnsupported, whyEmpty, type WhyColumn } from './why.js';

const WHY_COLUMNS: readonly WhyColumn[] = ['size', 'ratio', 'gzip', 'deflate', 'encode', 'decode'];

/** A figure, or "—" with its reason as a tooltip and a footnote number. */
function Cell({
  text,
  why,
  notes,
}: {
  text: string;
  why: string | null;
  notes: ReadonlyMap<string, number>;
}): ReactElement {
  if (why === null) return <td className="ws-num">{text}</td>;
  return (
    <td className="ws-num">
      <span data-testid="compare-why" title={why} role="img" aria-label={`none: ${why}`}>
        —<sup>{notes.get(why)}</sup>
      </span>
    </td>
  );
}

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

/**
 * One row per measured codec (headers sort), every "—" with its reason (tooltip and numbered
 * footnote); unsupported codecs below, one greyed row per reason.
 */
export function CompareTable({ rows, originalSize, sort, onSort }: CompareTableProps): ReactElement {
  const measured = rows.filter((r) => r.unsupported === null);
  const groups = groupUnsupported(rows);
  const notes = footnotes(measured, WHY_COLUMNS, originalSize);
  return (
    <>
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
                  <button
                    type="button"
                    className="ws-sort"
                    title={c.title}
                    onClick={() => onSort(c.key)}
                    aria-label={`Sort by ${c.label}`}
                  >
                    {c.label}
                    {active ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {measured.map((row) => (
            <tr key={row.codec} data-testid="compare-row">
              <td>{row.codec}</td>
              <td>{row.family}</td>
              <Cell text={formatBytes(row.size)} why={whyEmpty(row, 'size', originalSize)} notes={notes} />
              <Cell
                text={formatRatio(ratio(row.size, originalSize))}
                why={whyEmpty(row, 'ratio', originalSize)}
                notes={notes}
              />
              <Cell text={formatBytes(row.gzipSize)} why={whyEmpty(row, 'gzip', originalSize)} notes={notes} />
              <Cell text={formatBytes(row.deflateSize)} why={whyEmpty(row, 'deflate', originalSize)} notes={notes} />
              <Cell text={formatOps(row.encodeOpsPerSec)} why={whyEmpty(row, 'encode', originalSize)} notes={notes} />
              <Cell text={formatOps(row.decodeOpsPerSec)} why={whyEmpty(row, 'decode', originalSize)} notes={notes} />
              <td className={row.lossless === 'yes' ? undefined : 'ws-warn ws-wrap'}>{row.lossless}</td>
            </tr>
          ))}
          {groups.map((g) => (
            <tr key={g.reason} className="ws-row-unsupported" data-testid="compare-row-group" aria-disabled="true">
              <td className="ws-wrap">{g.rows.map((r) => r.codec).join(', ')}</td>
              <td>{[...new Set(g.rows.map((r) => r.family))].join(', ')}</td>
              <td colSpan={COLUMNS.length - 2} className="ws-wrap">
                unsupported{g.rows.length > 1 ? ` (${g.rows.length} codecs)` : ''}: {g.reason}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {notes.size > 0 ? (
        <ol className="ws-note ws-footnotes" aria-label="Why some cells are empty" data-testid="compare-footnotes">
          {[...notes].map(([why, n]) => (
            <li key={n} value={n}>
              {why}
            </li>
          ))}
        </ol>
      ) : null}
    </>
  );
}
