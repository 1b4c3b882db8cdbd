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
  /**
   * The list's text filter: the box starts with it, so the frame opens on what was searched
   * for, and follows it when it changes (a cleared filter clears the box).
   */
  readonly initialText: string;
  /**
   * The current match (null: none): the tree opens down to it and marks it. `pick` when the
   * user typed the search or stepped to the match: it is then selected too. A match of the
   * list's filter is only shown, so the frame's actions (Compare, Expand all) keep acting on
   * the whole frame until the user picks a node.
   */
  readonly onMatch: (path: readonly number[] | null, pick: boolean) => void;
  /** The text whose matches the tree marks (lower-cased; '' when none). */
  readonly onHighlight: (needle: string) => void;
}

/**
 * Search inside one frame: keys and leaf values containing the text (the worker walks the
 * frame); Enter / ↓ go to the next match, Shift+Enter / ↑ to the previous.
 */
export function TreeSearch(props: TreeSearchProps): ReactElement {
  const { client, frameId, format, initialText, onMatch, onHighlight } = props;
  const [text, setText] = useState(initialText);
  const [at, setAt] = useState(0);
  // The text came from the list's filter (not typed here): its first match is shown, not selected.
  const fromList = useRef(true);
  const listText = useRef(initialText);
  useEffect(() => {
    if (initialText === listText.current) return;
    listText.current = initialText;
    fromList.current = true;
    setText(initialText);
  }, [initialText]);
  const match = useRef(onMatch);
  match.current = onMatch;
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
  // A new answer starts at its first match, shown in the tree; no text marks none. While an
  // answer is on its way the last match stays marked (typing does not make it flicker).
  const settled = search.status !== 'loading';
  useEffect(() => {
    if (!settled) return;
    setAt(0);
    match.current(result?.paths.length ? result.paths[0] : null, !fromList.current);
  }, [result, settled]);

  const go = (by: number) => {
    if (!result?.paths.length) return;
    const next = (at + by + result.paths.length) % result.paths.length;
    setAt(next);
    match.current(result.paths[next], true);
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
        onChange={(e) => {
          fromList.current = false;
          setText(e.target.value);
        }}
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
