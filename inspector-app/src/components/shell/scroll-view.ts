import { useCallback, useLayoutEffect, useState, type Dispatch, type RefObject, type SetStateAction } from 'react';

export interface ScrollView {
  readonly top: number;
  readonly height: number;
}

/**
 * What a virtualized pane (frame list, big text) shows: its scroll position and height,
 * re-read on scroll (`measure`, for onScroll) and on resize. jsdom and a collapsed pane
 * report no height: `fallbackHeight` then, so a screenful is drawn anyway.
 */
export function useScrollView(
  scrollRef: RefObject<HTMLElement | null>,
  fallbackHeight: number,
): [ScrollView, () => void, Dispatch<SetStateAction<ScrollView>>] {
  const [view, setView] = useState<ScrollView>({ top: 0, height: fallbackHeight });
  const measure = useCallback(() => {
    const el = scrollRef.current;
    if (el)
      setView((v) =>
        v.top === el.scrollTop && v.height === (el.clientHeight || fallbackHeight)
          ? v
          : { top: el.scrollTop, height: el.clientHeight || fallbackHeight },
      );
  }, [scrollRef, fallbackHeight]);
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [scrollRef, measure]);
  return [view, measure, setView];
}
