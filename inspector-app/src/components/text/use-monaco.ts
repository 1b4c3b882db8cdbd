import { useCallback, useEffect, useState } from 'react';
import type { editor } from 'monaco-editor/editor/editor.api';
import { loadMonaco, loadedMonaco, type Monaco } from './monaco-loader';

/** Monaco for one component: null until loaded; `failed` once loading or starting an editor failed. */
export interface MonacoForView {
  readonly monaco: Monaco | null;
  readonly failed: boolean;
  /** Starting an editor threw: the component goes back to its plain stand-in for good. */
  readonly fail: (error: unknown) => void;
}

/**
 * Loads Monaco when `wanted` (once per page, cached by monaco-loader) and says when it is there.
 * A component mounted after Monaco loaded gets it at once, with no plain-text flash. `fallback`
 * names what the component shows instead, for the console warning on failure.
 */
export function useMonaco(wanted: boolean, fallback: string): MonacoForView {
  const [monaco, setMonaco] = useState<Monaco | null>(() => (wanted ? loadedMonaco() : null));
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!wanted || monaco || failed) return;
    let live = true;
    loadMonaco().then(
      (m) => live && setMonaco(m),
      (err: unknown) => {
        console.warn(`wirescope: Monaco failed to load; ${fallback}`, err);
        if (live) setFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, [wanted, monaco, failed, fallback]);

  const fail = useCallback(
    (err: unknown) => {
      console.warn(`wirescope: Monaco editor failed to start; ${fallback}`, err);
      setFailed(true);
    },
    [fallback],
  );
  return { monaco, failed, fail };
}

/** The options every wirescope editor shares: no minimap, folding, sized by its box, 12 px, no wrap. */
const SHARED_OPTIONS: editor.IStandaloneEditorConstructionOptions = {
  minimap: { enabled: false },
  folding: true,
  automaticLayout: true,
  fontSize: 12,
  wordWrap: 'off',
  scrollBeyondLastLine: false,
};

/** A Monaco editor in `host` with the shared options and the caller's own (throws as Monaco does). */
export function createEditor(
  monaco: Monaco,
  host: HTMLElement,
  options: editor.IStandaloneEditorConstructionOptions,
): editor.IStandaloneCodeEditor {
  return monaco.editor.create(host, { ...SHARED_OPTIONS, ...options });
}
