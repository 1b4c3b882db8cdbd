import type { ReactElement } from 'react';
import type { SchemaReading } from '../../worker/api.js';

/**
 * Which Protobuf type the loaded schema read the frame as, and why. A type that fits the
 * frame perfectly is news, not a problem: a plain note with a check mark. A reading with
 * unknown fields, wrong wire types or missing required fields is the nearest the schema
 * comes, and is shown as a warning.
 */
export function SchemaReadingBanner(props: { reading: SchemaReading }): ReactElement {
  const { reading } = props;
  return (
    <div
      className={reading.fits ? 'ws-banner-note' : 'ws-banner-warning'}
      role="status"
      data-testid="schema-reading"
      data-fits={reading.fits}
    >
      {reading.fits && (
        <span className="ws-banner-check" aria-hidden="true">
          ✓{' '}
        </span>
      )}
      Protobuf schema{reading.fits ? '' : ' (not a perfect fit)'}: {reading.note}
    </div>
  );
}
