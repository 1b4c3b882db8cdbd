import type { ReactElement } from 'react';

/** The empty list when frames exist but the filters hide them all (or the search is still running). */
export function NoMatches(props: { searching: boolean; onClear: () => void }): ReactElement {
  if (props.searching) return <span role="status">Searching…</span>;
  return (
    <span role="status">
      No frames match these filters.{' '}
      <button type="button" onClick={props.onClear}>
        Clear filters
      </button>
    </span>
  );
}
