import type { ReactElement } from 'react';
import { barWidth, exactBytes, formatShare } from './share.js';

export interface BarPart {
  readonly name: string;
  readonly bytes: number;
  /** A CSS class giving the segment and its swatch a colour. */
  readonly tone: string;
  /** What the part holds, shown beside its figures. */
  readonly about?: string;
}

/**
 * A stacked bar with its numbers: every part as a segment, then one legend row per part
 * with its bytes and share, so nothing needs a hover to be read.
 */
export function StackedBar(props: {
  label: string;
  parts: readonly BarPart[];
  total: number;
  testId: string;
}): ReactElement {
  const { label, parts, total, testId } = props;
  const shown = parts.filter((p) => p.bytes > 0);
  return (
    <div data-testid={testId}>
      <div
        className="ws-bytes-stack"
        role="img"
        aria-label={`${label}: ${shown.map((p) => `${p.name} ${formatShare(p.bytes, total)}`).join(', ')}`}
      >
        {shown.map((p) => (
          <div
            key={p.name}
            className={p.tone}
            style={{ width: barWidth(p.bytes, total) }}
            title={`${p.name}: ${exactBytes(p.bytes)} (${formatShare(p.bytes, total)})`}
          />
        ))}
      </div>
      <table className="ws-table ws-bytes-legend" aria-label={label}>
        <tbody>
          {parts.map((p) => (
            <tr key={p.name} data-testid={`${testId}-row`} data-part={p.name}>
              <td>
                <span className={`ws-swatch ${p.tone}`} aria-hidden="true" />
                {p.name}
              </td>
              <td className="ws-num">{exactBytes(p.bytes)}</td>
              <td className="ws-num">{formatShare(p.bytes, total)}</td>
              <td className="ws-muted ws-wrap">{p.about ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
