import { useRef, type ReactElement, type ReactNode } from 'react';
import { Splitter } from './Splitter.js';
import { useLayoutStorage, usePersistentNumber } from './persisted.js';
import { useElementSize } from './use-element-size.js';

/** Below this width the list sits above the detail instead of beside it (900×700 windows). */
export const STACK_BELOW_PX = 1000;
const LIST_MIN = 260;
const DETAIL_MIN = 420;
const LIST_MIN_HEIGHT = 90;
const DETAIL_MIN_HEIGHT = 220;
/**
 * Stacked, until the splitter is moved: the list's share of the height. The frame is what is
 * being read: at 900×700 the detail gets over 60 % of the window (the tree about 15 rows), the
 * list about 7 rows around the selected one.
 */
const LIST_HEIGHT_SHARE = 0.3;
/**
 * Side by side, until the splitter is moved: the list's share of the width, within these
 * bounds. At 1440 that is 560 px: essential columns and a preview of 200 px; the detail keeps
 * the rest (the tree's values and the hex).
 */
const LIST_WIDTH_SHARE = 0.39;
const LIST_WIDTH_DEFAULT_MAX = 560;

export interface MainLayoutProps {
  /** The list pane, or null (paste page: detail only). */
  readonly list: ReactNode | null;
  /** The detail pane, or null when nothing is selected (the list takes the room). */
  readonly detail: ReactNode | null;
  /** Width before the first measurement (and in jsdom). */
  readonly initialWidth?: number;
}

/**
 * List and detail side by side with a draggable splitter, or stacked (list on top) when the
 * window is narrow; both sizes are remembered.
 */
export function MainLayout(props: MainLayoutProps): ReactElement {
  const { list, detail } = props;
  const storage = useLayoutStorage();
  const ref = useRef<HTMLDivElement>(null);
  const { width, height: measured } = useElementSize(ref, { width: props.initialWidth ?? 1440, height: 600 });
  const height = measured || 600;
  const stacked = width < STACK_BELOW_PX;
  // NaN until the splitter is moved: then a share of the width.
  const [storedWidth, setListWidth] = usePersistentNumber(storage, 'listWidth', NaN, LIST_MIN, 4000);
  const listWidth = Number.isNaN(storedWidth)
    ? Math.max(LIST_MIN, Math.min(LIST_WIDTH_DEFAULT_MAX, Math.round(width * LIST_WIDTH_SHARE)))
    : storedWidth;
  // NaN until the splitter is moved: then a share of the height.
  const [storedHeight, setListHeight] = usePersistentNumber(storage, 'listHeight', NaN, LIST_MIN_HEIGHT, 4000);
  const listHeight = Number.isNaN(storedHeight) ? Math.round(height * LIST_HEIGHT_SHARE) : storedHeight;

  const both = list !== null && detail !== null;
  const maxWidth = Math.max(LIST_MIN, width - DETAIL_MIN);
  const maxHeight = Math.max(LIST_MIN_HEIGHT, height - DETAIL_MIN_HEIGHT);
  const shownWidth = Math.min(listWidth, maxWidth);
  const shownHeight = Math.max(LIST_MIN_HEIGHT, Math.min(listHeight, maxHeight));

  return (
    <div
      ref={ref}
      className={`ws-main${stacked ? ' ws-main-stacked' : ''}`}
      data-testid="main-layout"
      data-layout={stacked ? 'stacked' : 'side-by-side'}
    >
      {list !== null && (
        <div
          className="ws-list-pane"
          data-testid="list-pane"
          style={
            both ? (stacked ? { height: shownHeight, flex: 'none' } : { width: shownWidth, flex: 'none' }) : { flex: 1 }
          }
        >
          {list}
        </div>
      )}
      {both &&
        (stacked ? (
          <Splitter
            orientation="horizontal"
            label="Resize frame list"
            value={shownHeight}
            min={LIST_MIN_HEIGHT}
            max={maxHeight}
            onResize={setListHeight}
            testId="list-splitter"
          />
        ) : (
          <Splitter
            orientation="vertical"
            label="Resize frame list"
            value={shownWidth}
            min={LIST_MIN}
            max={maxWidth}
            onResize={setListWidth}
            testId="list-splitter"
          />
        ))}
      {detail}
    </div>
  );
}
