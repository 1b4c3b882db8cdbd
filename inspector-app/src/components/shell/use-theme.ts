import { useEffect, useMemo, useState } from 'react';

/** 'auto' follows prefers-color-scheme (the web pages); the panel passes DevTools' theme. */
export function useTheme(
  requested: 'light' | 'dark' | 'auto',
  win: Window | undefined = globalThis.window,
): 'light' | 'dark' {
  // Asked for once per window: the app redraws often (4 times a second under a flood), and a
  // new query per redraw moved the change listener to it each time.
  const query = useMemo(() => win?.matchMedia?.('(prefers-color-scheme: dark)'), [win]);
  const [systemDark, setSystemDark] = useState(query?.matches ?? false);
  useEffect(() => {
    if (!query) return;
    const onChange = (e: MediaQueryListEvent) => setSystemDark(e.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, [query]);
  return requested === 'auto' ? (systemDark ? 'dark' : 'light') : requested;
}
