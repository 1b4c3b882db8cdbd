import { useRef, type KeyboardEvent, type PointerEvent, type ReactElement } from 'react';
import './splitter.css';

export interface SplitterProps {
  /** 'vertical': a bar between side-by-side panes (drag left/right); 'horizontal': between stacked panes. */
  readonly orientation: 'vertical' | 'horizontal';
  /** Accessible name, e.g. "Resize frame list". */
  readonly label: string;
  /** The size being controlled, in px, and its bounds (for assistive tech and the keys). */
  readonly value: number;
  readonly min: number;
  readonly max: number;
  /** The new size for a drag that moved the pointer by `delta` px from where it started. */
  readonly onResize: (size: number) => void;
  /** +1 when dragging right/down grows the controlled pane, -1 when it shrinks it. */
  readonly direction?: 1 | -1;
  readonly testId?: string;
  /** Pixels per arrow key (default 16); a snapping pane uses a step that reaches its next size. */
  readonly keyStep?: number;
}

const KEY_STEP = 16;

/**
 * A draggable bar between two panes. The pointer is captured while dragging, so moving
 * over an iframe or Monaco does not lose it; arrow keys move it 16 px (Home/End: min/max).
 */
export function Splitter(props: SplitterProps): ReactElement {
  const { orientation, label, value, min, max, onResize, testId } = props;
  const sign = props.direction ?? 1;
  const drag = useRef<{ from: number; size: number } | null>(null);
  const axis = (e: PointerEvent) => (orientation === 'vertical' ? e.clientX : e.clientY);
  const clamp = (n: number) => Math.round(Math.min(max, Math.max(min, n)));

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    drag.current = { from: axis(e), size: value };
    e.currentTarget.setPointerCapture?.(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (d) onResize(clamp(d.size + sign * (axis(e) - d.from)));
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    drag.current = null;
    e.currentTarget.releasePointerCapture?.(e.pointerId);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const grow: Record<string, number> =
      orientation === 'vertical' ? { ArrowRight: 1, ArrowLeft: -1 } : { ArrowDown: 1, ArrowUp: -1 };
    const step = grow[e.key];
    if (step) onResize(clamp(value + sign * step * (props.keyStep ?? KEY_STEP)));
    else if (e.key === 'Home') onResize(min);
    else if (e.key === 'End') onResize(max);
    else return;
    e.preventDefault();
  };

  return (
    <div
      role="separator"
      aria-orientation={orientation}
      aria-label={label}
      aria-valuenow={Math.round(value)}
      aria-valuemin={Math.round(min)}
      aria-valuemax={Math.round(max)}
      tabIndex={0}
      className={`ws-splitter ws-splitter-${orientation}`}
      data-testid={testId}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={onKeyDown}
    />
  );
}
