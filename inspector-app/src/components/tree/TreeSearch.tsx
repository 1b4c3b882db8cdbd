import { useEffect, useRef, useState, type KeyboardEvent, type ReactElement } from 'react';
import type { FormatChoice } from '../../worker/api.js';
import type { WorkerClient } from '../../worker/client.js';
import { useWorkerCall } from '../shell/use-worker-call.js';

/** Matches asked of the worker at most (the count still says how many there are). */
export const SEARCH_LIMIT = 500;
const DEBOUNCE_MS = 150;

export interface TreeSearchProps {
  readonly client: Pick<WorkerClient, 'call'>;
  readonly frameId: number;
  readonly format: FormatChoice;
  /** Starts with the list's text filter, so the frame opens on what was searched for. */
  readonly initialText: string;
  /** Opens the tree down to a match and selects it. */
  readonly onReveal: (path: readonly number[]) => void;
  /** The text whose matches the tree marks (lower-cased; '' when none). */
  readonly onHighlight: (needle: string) => void;
}

/**
 * Search inside one frame: keys and leaf values containing the text (the worker walks the
 * frame); Enter / ↓ go to the next match, Shift+Enter / ↑ to the previous.
 */
export function TreeSearch(props: TreeSearchProps): ReactElement {
  const { client, frameId, format, initialText, onReveal, onHighlight } = props;
  const [text, setText] = useState(initialText);
  const [at, setAt] = useState(0);
  const reveal = useRef(onReveal);
  reveal.current = onReveal;
  const highlight = useRef(onHighlight);
  highlight.current = onHighlight;

  const needle = text.trim();
  useEffect(() => highlight.current(needle.toLowerCase()), [needle]);
  const search = useWorkerCall(
    needle ? () => client.call('search', { frameId, format, text: needle, limit: SEARCH_LIMIT }) : null,
    [client, frameId, format, needle],
    DEBOUNCE_MS,
  );
  const result = search.status === 'ready' ? search.value : null;
  // A new answer starts at its first match, shown in the tree.
  useEffect(() => {
    setAt(0);
    if (result?.paths.length) reveal.current(result.paths[0]);
  }, [result]);

  const go = (by: number) => {
    if (!result?.paths.length) return;
    const next = (at + by + result.paths.length) % result.paths.length;
    setAt(next);
    reveal.current(result.paths[next]);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter' || e.key === 'ArrowDown') go(e.shiftKey ? -1 : 1);
    else if (e.key === 'ArrowUp') go(-1);
    else if (e.key === 'Escape' && text) setText('');
    else return;
    e.preventDefault();
    e.stopPropagation();
  };

  const count =
    search.status === 'error'
      ? `search failed: ${search.error}`
      : !needle || !result
        ? ''
        : result.total === 0
          ? 'no match'
          : `${at + 1} of ${result.total}${result.total > result.paths.length ? ` (first ${result.paths.length} listed)` : ''}${result.complete ? '' : ', top levels only'}`;

  return (
    <span className="ws-tree-search" role="search" aria-label="Search in this frame">
      <input
        type="search"
        aria-label="Search in this frame"
        placeholder="search in frame"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        data-testid="tree-search"
        size={16}
      />
      <button
        type="button"
        onClick={() => go(-1)}
        disabled={!result?.paths.length}
        title="Previous match (Shift+Enter)"
        aria-label="↑ previous match"
      >
        ↑
      </button>
      <button
        type="button"
        onClick={() => go(1)}
        disabled={!result?.paths.length}
        title="Next match (Enter)"
        aria-label="↓ next match"
      >
        ↓
      </button>
      <span className="ws-muted-text" aria-live="polite" data-testid="tree-search-count">
        {count}
      </span>
    </span>
  );
}
