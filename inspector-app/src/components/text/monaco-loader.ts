import type * as MonacoApi from 'monaco-editor/editor/editor.api';

/**
 * Lazy, cached access to the locally bundled Monaco (no CDN, no eval: the same build runs as
 * an MV3 extension page). The first call starts one dynamic import of ./monaco-setup, which
 * Vite splits into its own chunk (plus CSS, codicon font and two worker files), so the rest
 * of the UI renders before Monaco arrives. Components show a plain fallback meanwhile.
 */
export type Monaco = typeof MonacoApi;
export type MonacoThemeName = 'light' | 'dark';

let pending: Promise<Monaco> | null = null;
let loaded: Monaco | null = null;

export function loadMonaco(theme?: MonacoThemeName): Promise<Monaco> {
  if (!pending) {
    // Two steps, two tasks: the editor core, then the contributions and languages on top of it.
    pending = import('./monaco-core').then(() => import('./monaco-setup')).then((m) => (loaded = m.monaco));
    // A failed load (offline dev server, jsdom) may be retried by the next caller.
    pending.catch(() => {
      pending = null;
    });
  }
  return theme ? pending.then((m) => (applyTheme(m, theme), m)) : pending;
}

/** Monaco if it has already finished loading, so late mounts skip the fallback flash. */
export function loadedMonaco(): Monaco | null {
  return loaded;
}

export function monacoThemeName(theme: MonacoThemeName): 'vs' | 'vs-dark' {
  return theme === 'dark' ? 'vs-dark' : 'vs';
}

/** Monaco's theme is global to the page: every editor follows the last call. */
export function applyTheme(m: Monaco, theme: MonacoThemeName): void {
  m.editor.setTheme(monacoThemeName(theme));
}

/**
 * Whether components should try Monaco at all: not in jsdom (Monaco needs layout and
 * matchMedia) and not when the page was opened with `?plain-editor` (e2e tests type into
 * the plain textarea; also an escape hatch for slow machines).
 */
export function monacoWanted(): boolean {
  if (typeof window === 'undefined' || typeof document === 'undefined') return false;
  if (/\bjsdom\b/i.test(navigator.userAgent)) return false;
  return !new URLSearchParams(window.location.search).has('plain-editor');
}
