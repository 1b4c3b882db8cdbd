import { useEffect, useState } from 'react';

/** 'auto' follows prefers-color-scheme (the web pages); the panel passes DevTools' theme. */
export function useTheme(requested: 'light' | 'dark' | 'auto', win: Window | undefined = globalThis.window): 'light' | 'dark' {
  const query = win?.matchMedia?.('(prefers-color-scheme: dark)');
  const [systemDark, setSystemDark] = useState(query?.matches ?? false);
  useEffect(() => {
    if (!query) return;
    const onChange = (e: MediaQueryListEvent) => setSystemDark(e.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, [query]);
  return requested === 'auto' ? (systemDark ? 'dark' : 'light') : requested;
}
