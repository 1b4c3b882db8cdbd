import { useEffect, useState, type RefObject } from 'react';

/**
 * The element's content width, followed with ResizeObserver; `fallback` until measured and
 * where there is no layout (jsdom), so narrow-layout choices have a defined default.
 */
export function useElementWidth(ref: RefObject<Element | null>, fallback: number): number {
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const measure = (w: number) => {
      if (w > 0) setWidth(w);
    };
    measure(el.getBoundingClientRect().width);
    const ro = new ResizeObserver((entries) => measure(entries[entries.length - 1]!.contentRect.width));
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return width;
}
