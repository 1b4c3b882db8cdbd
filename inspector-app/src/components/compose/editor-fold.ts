import { createContext, useCallback, useContext, useEffect, useMemo, useState } from 'react';

/** The two frame editors that can be open at once: New message / Compose, and a frame's Edit and send. */
export type EditorName = 'new-message' | 'edit-and-send';

/**
 * Which editor is in front: with both open, the other one folds to a line (its draft kept) so
 * the value tree below keeps its room. `null`: none asked to be in front (one open editor never folds).
 */
export interface EditorFold {
  readonly front: EditorName | null;
  /** Puts `name` in front (it opened, or its Show was pressed). */
  readonly bringToFront: (name: EditorName) => void;
  /** `name` closed: if it was in front, nothing is. */
  readonly release: (name: EditorName) => void;
}

const NO_FOLD: EditorFold = { front: null, bringToFront: () => {}, release: () => {} };

export const EditorFoldContext = createContext<EditorFold>(NO_FOLD);

/** The state behind EditorFoldContext, held by the app. */
export function useEditorFoldState(): EditorFold {
  const [front, setFront] = useState<EditorName | null>(null);
  const bringToFront = useCallback((name: EditorName) => setFront(name), []);
  const release = useCallback((name: EditorName) => setFront((f) => (f === name ? null : f)), []);
  return useMemo(() => ({ front, bringToFront, release }), [front, bringToFront, release]);
}

/**
 * For an open editor: whether it is folded behind the other, and how to bring it to front.
 * Opening (mounting) brings it to front; closing (unmounting) releases it.
 */
export function useEditorFold(name: EditorName): { folded: boolean; show: () => void } {
  const { front, bringToFront, release } = useContext(EditorFoldContext);
  useEffect(() => {
    bringToFront(name);
    return () => release(name);
  }, [name, bringToFront, release]);
  return { folded: front !== null && front !== name, show: () => bringToFront(name) };
}
