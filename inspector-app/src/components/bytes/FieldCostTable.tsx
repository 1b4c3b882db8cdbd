import { useMemo, useState, type ReactElement } from 'react';
import type { BytesReport } from '../../worker/api.js';
import { nextSort, sortFields, type FieldSort, type FieldSortKey } from './field-sort.js';
import { averageBytes, barWidth, exactBytes, formatShare } from './share.js';

const COLUMNS: readonly { key: FieldSortKey; label: string; title: string; numeric: boolean }[] = [
  { key: 'pattern', label: 'field', title: 'path pattern; [*] stands for every array position', numeric: false },
  { key: 'count', label: 'count', title: 'how many times the field occurs', numeric: true },
  { key: 'totalBytes', label: 'total', title: 'all occurrences, key bytes included', numeric: true },
  { key: 'averageBytes', label: 'average', title: 'total / count', numeric: true },
  { key: 'keyBytes', label: 'key bytes', title: 'bytes of the keys naming it', numeric: true },
  {
    key: 'valueBytes',
    label: 'value bytes',
    title: 'bytes of the values (a container: everything inside it)',
    numeric: true,
  },
];

/**
 * Cost by field across array elements: one row per path pattern (`users[*].avatarHash`),
 * sortable by every column. Figures come from the worker (codecs/core/field-cost.ts).
 */
export function FieldCostTable({ report }: { report: BytesReport }): ReactElement {
  const [sort, setSort] = useState<FieldSort>({ key: 'totalBytes', dir: 'desc' });
  const [containers, setContainers] = useState(true);
  const rows = useMemo(
    () => sortFields(containers ? report.fields : report.fields.filter((f) => !f.isContainer), sort),
    [report.fields, sort, containers],
  );
  const frame = report.frameBytes;
  return (
    <>
      <div className="ws-toolbar">
        <p className="ws-section-title" style={{ margin: 0 }}>
          Cost by field
        </p>
        <span className="ws-note">
          {report.patterns.toLocaleString('en-US')} field patterns
          {report.patterns > report.fields.length ? ` (the heaviest ${report.fields.length} listed)` : ''}; a
          container&apos;s bytes include its fields.
        </span>
        <label className="ws-note">
          <input
            type="checkbox"
            checked={containers}
            onChange={(e) => setContainers(e.target.checked)}
            data-testid="bytes-fields-containers"
          />{' '}
          containers
        </label>
      </div>
      <table className="ws-table" aria-label="Cost by field" data-testid="bytes-fields">
        <thead>
          <tr>
            {COLUMNS.map((c) => (
              <th
                key={c.key}
                scope="col"
                className={c.numeric ? 'ws-num' : undefined}
                aria-sort={sort.key === c.key ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}
                title={c.title}
              >
                <button
                  type="button"
                  className="ws-sort"
                  onClick={() => setSort(nextSort(sort, c.key))}
                  data-testid={`bytes-sort-${c.key}`}
                >
                  {c.label}
                  {sort.key === c.key ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}
                </button>
              </th>
            ))}
            <th scope="col" className="ws-num">
              of frame
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((f) => (
            <tr key={f.pattern} tabIndex={0} data-testid="bytes-field-row" data-pattern={f.pattern}>
              <td className="ws-mono" style={{ paddingLeft: 6 + 8 * Math.max(0, f.depth - 1) }}>
                {f.pattern}
              </td>
              <td className="ws-num">{f.count.toLocaleString('en-US')}</td>
              <td className="ws-num">{exactBytes(f.totalBytes)}</td>
              <td className="ws-num">{averageBytes(f.averageBytes)}</td>
              <td className="ws-num">{exactBytes(f.keyBytes)}</td>
              <td className="ws-num">{exactBytes(f.valueBytes)}</td>
              <td className="ws-num ws-bytes-share-cell">
                <span>{formatShare(f.totalBytes, frame)}</span>
                <span className="ws-bytes-track" aria-hidden="true">
                  <span className="ws-tone-key" style={{ width: barWidth(f.keyBytes, frame) }} />
                  <span className="ws-tone-value" style={{ width: barWidth(f.valueBytes, frame) }} />
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
