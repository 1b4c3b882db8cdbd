import { useLayoutEffect, useMemo, useRef, type ReactElement } from 'react';
import { useScrollView } from '../shell/scroll-view';
import { lineIndex, lineTokens } from './text-tokens';

const LINE_HEIGHT = 18;
/** Lines drawn above and below the visible ones. */
const OVERSCAN = 20;
/** jsdom (and a collapsed pane) report no size: draw a screenful anyway. */
const FALLBACK_HEIGHT = 600;
/** A longer line (minified JSON) is drawn cut: laying out megabytes of one line would block the page. */
export const MAX_LINE_CHARS = 10_000;

export interface BigTextViewProps {
  readonly text: string;
  readonly language: 'json' | 'edn' | 'plaintext';
  readonly ariaLabel: string;
}

/**
 * A frame's text too big for the editor to take in without blocking the page (megabytes of
 * pretty-printed JSON or EDN): only the lines in view are in the DOM, highlighted one line
 * at a time (text-tokens.ts), as text nodes (never markup). Copy (the Text tab's button)
 * copies all of it.
 */
export function BigTextView(props: BigTextViewProps): ReactElement {
  const { text, language, ariaLabel } = props;
  const index = useMemo(() => lineIndex(text), [text]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const [view, measure, setView] = useScrollView(scrollRef, FALLBACK_HEIGHT);
  // A new text starts at its top.
  useLayoutEffect(() => {
    if (scrollRef.current) scrollRef.current.scrollTop = 0;
    setView((v) => ({ top: 0, height: v.height }));
  }, [text]);

  const count = index.starts.length;
  const digits = String(count).length;
  const first = Math.max(0, Math.floor(view.top / LINE_HEIGHT) - OVERSCAN);
  const last = Math.min(count, Math.ceil((view.top + view.height) / LINE_HEIGHT) + OVERSCAN);
  const lines: ReactElement[] = [];
  for (let i = first; i < last; i++) {
    const end = i + 1 < count ? index.starts[i + 1]! - 1 : text.length;
    const whole = text.slice(index.starts[i]!, end);
    const line = whole.length > MAX_LINE_CHARS ? whole.slice(0, MAX_LINE_CHARS) : whole;
    lines.push(
      // Keyed by place in the window: scrolling updates the same elements.
      <div
        key={i - first}
        className="code-line"
        data-testid="text-line"
        style={{ transform: `translateY(${i * LINE_HEIGHT}px)` }}
      >
        <span className="code-line-no" aria-hidden="true" style={{ width: `${digits}ch` }}>
          {i + 1}
        </span>
        {lineTokens(line, language).map(([kind, t], k) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: tokens of one line; the line is redrawn whole
          <span key={k} className={`code-tok-${kind}`}>
            {t}
          </span>
        ))}
        {line !== whole && (
          <span className="code-line-cut">{` … ${(whole.length - line.length).toLocaleString('en-US')} more characters on this line (Copy has them)`}</span>
        )}
      </div>,
    );
  }
  const widthCh = digits + 2 + Math.min(index.longest, MAX_LINE_CHARS + 60);
  return (
    <div
      ref={scrollRef}
      className="code-view-big"
      role="textbox"
      aria-readonly="true"
      aria-multiline="true"
      aria-label={ariaLabel}
      tabIndex={0}
      onScroll={measure}
      data-testid="big-text"
      data-lines={count}
    >
      <div style={{ position: 'relative', height: count * LINE_HEIGHT, width: `calc(${widthCh}ch + 24px)` }}>
        {lines}
      </div>
    </div>
  );
}
