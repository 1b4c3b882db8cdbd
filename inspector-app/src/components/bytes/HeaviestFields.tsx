import { Fragment, type ReactElement, type ReactNode } from 'react';
import type { BytesReport } from '../../worker/api.js';
import { barWidth, exactBytes, formatShare } from './share.js';

/** Rows shown: the heaviest fields fit beside the treemap (or above it, narrow) without scrolling. */
export const HEAVIEST_ROWS = 6;

/**
 * A pattern as the row shows it: without the root's `$.`, nor the self-describe tag 55799
 * that wraps a whole CBOR frame and says nothing about its fields (the tooltip has it all).
 * A break opportunity after each dot lets a long name wrap at its segments.
 */
function shownPattern(pattern: string): ReactNode {
  const parts = pattern.replace(/^\$(<tag 55799>)?\.?/, '').split('.');
  return parts.map((part, i) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: the segments of one fixed string
    <Fragment key={i}>
      {i > 0 && '.'}
      {i > 0 && <wbr />}
      {part}
    </Fragment>
  ));
}

/**
 * The heaviest fields by path pattern (`users[*].avatarHash`: every array element's summed),
 * leaves only: the fields to shorten or drop, first thing on the Bytes tab.
 */
export function HeaviestFields({ report }: { report: BytesReport }): ReactElement {
  const frame = report.frameBytes;
  const rows = report.fields.filter((f) => !f.isContainer).slice(0, HEAVIEST_ROWS);
  return (
    <section className="ws-bytes-heaviest" aria-label="Heaviest fields" data-testid="bytes-heaviest">
      <p className="ws-section-title" title="Fields summed over array elements ([*]), keys included">
        Heaviest fields
      </p>
      {rows.length === 0 ? (
        <p className="ws-note">No fields: the frame is one value.</p>
      ) : (
        <ol>
          {rows.map((f) => (
            <li key={f.pattern} data-testid="bytes-heaviest-row" data-pattern={f.pattern}>
              <span className="ws-mono ws-bytes-heaviest-path" title={f.pattern}>
                {shownPattern(f.pattern)}
              </span>
              <span className="ws-note">{f.count > 1 ? `×${f.count.toLocaleString('en-US')}` : ''}</span>
              <span className="ws-num" title={`keys ${exactBytes(f.keyBytes)}, values ${exactBytes(f.valueBytes)}`}>
                {exactBytes(f.totalBytes)}
              </span>
              <span className="ws-num ws-bytes-heaviest-share">{formatShare(f.totalBytes, frame)}</span>
              <span className="ws-bytes-track" aria-hidden="true">
                <span className="ws-tone-key" style={{ width: barWidth(f.keyBytes, frame) }} />
                <span className="ws-tone-value" style={{ width: barWidth(f.valueBytes, frame) }} />
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
