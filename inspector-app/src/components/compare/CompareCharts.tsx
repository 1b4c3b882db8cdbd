import type { ReactElement } from 'react';
import type { CompareRowView } from '../../worker/api.js';
import { formatBytes, formatOps } from './format.js';

interface Series {
  readonly name: string;
  readonly className: string;
  readonly value: (row: CompareRowView) => number | null;
  readonly format: (n: number | null) => string;
}

const SIZE_SERIES: readonly Series[] = [
  { name: 'raw', className: 'ws-bar-raw', value: (r) => r.size, format: (n) => `${formatBytes(n)} B` },
  { name: 'gzip', className: 'ws-bar-gzip', value: (r) => r.gzipSize, format: (n) => `${formatBytes(n)} B` },
];

const SPEED_SERIES: readonly Series[] = [
  { name: 'encode', className: 'ws-bar-encode', value: (r) => r.encodeOpsPerSec, format: (n) => `${formatOps(n)} ops/s` },
  { name: 'decode', className: 'ws-bar-decode', value: (r) => r.decodeOpsPerSec, format: (n) => `${formatOps(n)} ops/s` },
];

function BarChart({ title, rows, series }: { title: string; rows: readonly CompareRowView[]; series: readonly Series[] }): ReactElement {
  const measured = rows.filter((r) => r.unsupported === null && series.some((s) => s.value(r) !== null));
  let max = 0;
  for (const r of measured) for (const s of series) max = Math.max(max, s.value(r) ?? 0);
  return (
    <figure className="ws-chart" aria-label={title}>
      <figcaption>
        {title}{' '}
        <span className="ws-legend">
          {series.map((s) => (
            <span key={s.name}>
              <span className={`ws-swatch ${s.className}`} aria-hidden="true" />
              {s.name}
            </span>
          ))}
        </span>
      </figcaption>
      {measured.length === 0 ? <p className="ws-note">No measured codecs yet.</p> : null}
      {measured.map((r) => (
        <div className="ws-chart-row" key={r.codec}>
          <span className="ws-chart-label" title={r.codec}>
            {r.codec}
          </span>
          <span className="ws-chart-bars">
            {series.map((s) => {
              const v = s.value(r);
              const label = `${r.codec} ${s.name}: ${s.format(v)}`;
              return (
                <span
                  key={s.name}
                  role="img"
                  aria-label={label}
                  title={label}
                  className={`ws-bar ${s.className}`}
                  style={{ width: `${max > 0 && v !== null ? Math.max(0.5, (v / max) * 100) : 0}%` }}
                />
              );
            })}
          </span>
        </div>
      ))}
    </figure>
  );
}

/** Two small horizontal-bar charts: raw vs gzip size, encode vs decode speed, per codec. */
export function CompareCharts({ rows }: { rows: readonly CompareRowView[] }): ReactElement {
  return (
    <div className="ws-charts" data-testid="compare-charts">
      <BarChart title="Size per codec" rows={rows} series={SIZE_SERIES} />
      <BarChart title="Speed per codec" rows={rows} series={SPEED_SERIES} />
    </div>
  );
}
