import type { ReactElement } from 'react';
import type { CompareRowView } from '../../worker/api.js';
import { formatBytes, formatOps } from './format.js';
import { whyEmpty, type WhyColumn } from './why.js';
import { durationText, zeroDurationText } from '../../../../codecs/compare/format.js';

interface Series {
  readonly name: string;
  readonly className: string;
  readonly value: (row: CompareRowView) => number | null;
  /** The value as the chart prints it. */
  readonly format: (n: number) => string;
  /** The axis's zero, in the unit of its largest tick `max` (a time's zero is no measurement: `0 ms`, not `0.00 µs`). */
  readonly zero: (max: number) => string;
  /** The bar's accessible name (may add the raw figure). */
  readonly describe: (row: CompareRowView, n: number) => string;
  /** The table column whose reason a missing value shows. */
  readonly column: WhyColumn;
}

/**
 * Microseconds per operation, printed by the CLI's rule (codecs/compare/format.ts): `0.85 µs`,
 * `412 µs`, `6.30 ms`, `140 ms` — µs below 1 ms, ms from 1 ms, so the chart and
 * `wirescope compare` never disagree on a unit.
 */
export function formatMicros(us: number): string {
  return durationText(us / 1000);
}

const microsZero = (maxUs: number): string => zeroDurationText(maxUs / 1000);

const perOp = (ops: number | null): number | null => (ops !== null && ops > 0 ? 1e6 / ops : null);
const bytes = (n: number) => `${formatBytes(n)} B`;

const SIZE_SERIES: readonly Series[] = [
  {
    name: 'raw',
    className: 'ws-bar-raw',
    value: (r) => r.size,
    format: bytes,
    zero: () => bytes(0),
    describe: (r, n) => `${r.codec} raw: ${bytes(n)}`,
    column: 'size',
  },
  {
    name: 'gzip',
    className: 'ws-bar-gzip',
    value: (r) => r.gzipSize,
    format: bytes,
    zero: () => bytes(0),
    describe: (r, n) => `${r.codec} gzip: ${bytes(n)}`,
    column: 'gzip',
  },
];

// Time per operation rather than ops/s, so both charts read the same way: shorter is better.
const TIME_SERIES: readonly Series[] = [
  {
    name: 'encode',
    className: 'ws-bar-encode',
    value: (r) => perOp(r.encodeOpsPerSec),
    format: formatMicros,
    zero: microsZero,
    describe: (r, n) => `${r.codec} encode: ${formatMicros(n)} per op (${formatOps(r.encodeOpsPerSec)} ops/s)`,
    column: 'encode',
  },
  {
    name: 'decode',
    className: 'ws-bar-decode',
    value: (r) => perOp(r.decodeOpsPerSec),
    format: formatMicros,
    zero: microsZero,
    describe: (r, n) => `${r.codec} decode: ${formatMicros(n)} per op (${formatOps(r.decodeOpsPerSec)} ops/s)`,
    column: 'decode',
  },
];

function BarChart({
  title,
  unit,
  rows,
  series,
}: {
  title: string;
  unit: string;
  rows: readonly CompareRowView[];
  series: readonly Series[];
}): ReactElement {
  const measured = rows.filter((r) => r.unsupported === null && series.some((s) => s.value(r) !== null));
  let max = 0;
  for (const r of measured) for (const s of series) max = Math.max(max, s.value(r) ?? 0);
  const { format, zero } = series[0]!;
  return (
    <figure className="ws-chart" aria-label={`${title} (${unit}, lower is better)`}>
      <figcaption>
        {title} <span className="ws-muted">— {unit}, lower is better</span>{' '}
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
              return (
                <span className="ws-chart-line" key={s.name}>
                  <span className="ws-chart-track">
                    {v !== null ? (
                      <span
                        role="img"
                        aria-label={s.describe(r, v)}
                        className={`ws-bar ${s.className}`}
                        style={{ width: `${max > 0 ? Math.max(0.5, (v / max) * 100) : 0}%` }}
                      />
                    ) : null}
                    <span
                      className="ws-chart-value"
                      data-testid="chart-value"
                      title={v === null ? (whyEmpty(r, s.column, 1) ?? undefined) : undefined}
                    >
                      {v !== null ? s.format(v) : '—'}
                    </span>
                  </span>
                </span>
              );
            })}
          </span>
        </div>
      ))}
      {measured.length > 0 ? (
        <div className="ws-chart-row" aria-hidden="true">
          <span />
          <span className="ws-chart-line">
            <span className="ws-chart-track ws-chart-axis" data-testid="chart-axis">
              <span>{zero(max)}</span>
              <span>{format(max / 2)}</span>
              <span>{format(max)}</span>
            </span>
          </span>
        </div>
      ) : null}
    </figure>
  );
}

/** Two horizontal-bar charts, both "lower is better": raw vs gzip size, encode vs decode time per operation. */
export function CompareCharts({ rows }: { rows: readonly CompareRowView[] }): ReactElement {
  return (
    <div className="ws-charts" data-testid="compare-charts">
      <BarChart title="Size per codec" unit="bytes" rows={rows} series={SIZE_SERIES} />
      <BarChart title="Time per operation" unit="µs / ms" rows={rows} series={TIME_SERIES} />
    </div>
  );
}
