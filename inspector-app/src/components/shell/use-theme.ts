import { useCallback, useMemo, useSyncExternalStore } from 'react';

/** 'auto' follows prefers-color-scheme (the web pages, a panel in a plain tab); the panel passes DevTools' theme. */
export function useTheme(
  requested: 'light' | 'dark' | 'auto',
  win: Window | undefined = globalThis.window,
): 'light' | 'dark' {
  // Asked for once per window: the app redraws often (4 times a second under a flood), and a
  // new query per redraw moved the change listener to it each time.
  const query = useMemo(() => win?.matchMedia?.('(prefers-color-scheme: dark)'), [win]);
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (!query) return () => {};
      query.addEventListener('change', onChange);
      return () => query.removeEventListener('change', onChange);
    },
    [query],
  );
  // Read from the query itself on every redraw, not only from its change events: in Chromium
  // a busy inspector (demo traffic, paused) sometimes missed the one event of a scheme change
  // and stayed light with the system dark (e2e/room-for-tree.test.ts).
  const systemDark = useSyncExternalStore(subscribe, () => query?.matches ?? false);
  return requested === 'auto' ? (systemDark ? 'dark' : 'light') : requested;
}
