import { useEffect, useState, type RefObject } from 'react';

export interface ElementSize {
  readonly width: number;
  readonly height: number;
}

/**
 * The element's content size, followed with ResizeObserver (never read during render, so
 * a re-render forces no layout); `fallback` until measured and where there is no layout
 * (jsdom), so narrow-layout choices have a defined default.
 */
export function useElementSize(ref: RefObject<Element | null>, fallback: ElementSize): ElementSize {
  const [size, setSize] = useState(fallback);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const measure = (width: number, height: number) => {
      if (width > 0) setSize((s) => (s.width === width && s.height === height ? s : { width, height }));
    };
    const r = el.getBoundingClientRect();
    measure(r.width, r.height);
    const ro = new ResizeObserver((entries) => {
      const rect = entries[entries.length - 1]!.contentRect;
      measure(rect.width, rect.height);
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return size;
}

/** The element's width (see useElementSize). */
export function useElementWidth(ref: RefObject<Element | null>, fallback: number): number {
  return useElementSize(ref, { width: fallback, height: 0 }).width;
}
