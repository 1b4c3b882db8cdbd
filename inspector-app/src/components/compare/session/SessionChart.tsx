import { useMemo, type ReactElement } from 'react';
import {
  chartGeometry,
  PARTIAL_END_RADIUS,
  PARTIAL_OPACITY,
} from '../../../../../codecs/compare/session/chart-geometry.js';
import type { SessionChartData } from '../../../../../codecs/compare/session/cumulative.js';

/**
 * Cumulative message bytes per codec over the session, as SVG from the same geometry the
 * HTML report draws. Colours are the Okabe–Ito set (legible on light and dark), lines
 * also differ by dash; text takes the theme's colour (currentColor). A codec that left
 * messages out is faded with a hollow end, says "N of M messages" and the note says why.
 */
export function SessionChart({ data }: { data: SessionChartData }): ReactElement {
  const g = useMemo(() => chartGeometry(data), [data]);
  const { x0, x1, y0, y1 } = g.plot;
  return (
    <figure className="ws-session-chart" data-testid="session-chart">
      <figcaption>
        Cumulative bytes over the session, per codec{' '}
        <span className="ws-muted">— message bytes before compression; lower is better</span>
      </figcaption>
      <svg
        viewBox={`0 0 ${g.width} ${g.height}`}
        role="img"
        aria-label={g.summary}
        width="100%"
        preserveAspectRatio="xMidYMid meet"
      >
        <title>{g.summary}</title>
        <g className="ws-session-axis" stroke="currentColor" strokeOpacity={0.35}>
          {g.yTicks.map((t) => (
            <line key={`y${t.pos}`} x1={x0} x2={x1} y1={t.pos} y2={t.pos} strokeDasharray="2 3" />
          ))}
          <line x1={x0} x2={x0} y1={y0} y2={y1} strokeOpacity={0.6} />
          <line x1={x0} x2={x1} y1={y0} y2={y0} strokeOpacity={0.6} />
        </g>
        <g fill="currentColor" fontSize={11}>
          {g.yTicks.map((t) => (
            <text key={`yl${t.pos}`} x={x0 - 6} y={t.pos + 4} textAnchor="end">
              {t.text}
            </text>
          ))}
          {g.xTicks.map((t) => (
            <text key={`xl${t.pos}`} x={t.pos} y={y0 + 16} textAnchor="middle">
              {t.text}
            </text>
          ))}
          <text x={(x0 + x1) / 2} y={g.height - 4} textAnchor="middle">
            messages
          </text>
        </g>
        {g.lines.map((l) => (
          <g
            key={l.codec}
            strokeOpacity={l.partial ? PARTIAL_OPACITY : undefined}
            data-partial={l.partial || undefined}
          >
            <polyline
              points={l.points}
              fill="none"
              stroke={l.colour}
              strokeWidth={2}
              strokeDasharray={l.dash || undefined}
              data-codec={l.codec}
            >
              <title>{l.legend}</title>
            </polyline>
            {l.partial ? (
              <circle
                cx={l.end.x}
                cy={l.end.y}
                r={PARTIAL_END_RADIUS}
                fill="none"
                stroke={l.colour}
                strokeWidth={2}
                strokeOpacity={1}
              />
            ) : null}
          </g>
        ))}
      </svg>
      <ul className="ws-legend ws-session-legend" aria-label="Chart legend">
        {g.lines.map((l) => (
          <li key={l.codec}>
            <svg width="30" height="10" aria-hidden="true">
              <line
                x1="0"
                x2="24"
                y1="5"
                y2="5"
                stroke={l.colour}
                strokeWidth={2}
                strokeDasharray={l.dash || undefined}
                strokeOpacity={l.partial ? PARTIAL_OPACITY : undefined}
              />
              {l.partial ? <circle cx="25" cy="5" r="3.5" fill="none" stroke={l.colour} strokeWidth={1.5} /> : null}
            </svg>
            {l.legend}
          </li>
        ))}
      </ul>
      {g.note ? (
        <p className="ws-note" data-testid="session-chart-partial">
          {g.note}
        </p>
      ) : null}
      {data.notCharted.length ? (
        <p className="ws-note">
          Not charted: {data.notCharted.map((n) => `${n.label}: ${n.why.replace(/ \((.*)\)$/, ': $1')}`).join('; ')}
        </p>
      ) : null}
    </figure>
  );
}
