// @vitest-environment jsdom
/**
 * The panel under a flood: following the tail, the list's scroll position moved
 * from a layout effect, right after React had changed the rows: writing `scrollTop` then makes
 * the browser lay out the new rows synchronously, inside the redraw's script task (the panel's
 * longest tasks). It now follows once the browser has laid the list out (a resize observation
 * of the list's content, which runs after layout and before paint). jsdom has no layout: the
 * observation is a stub passed in, and `scrollTop` writes are counted on the element.
 */
import { afterEach, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { cborRows, shownFrameIds } from './test/list-rows.js';
import { FrameList } from './FrameList.js';

afterEach(cleanup);

function countScrollWrites(el: HTMLElement): { writes: number; top: number } {
  const seen = { writes: 0, top: 0 };
  Object.defineProperty(el, 'scrollTop', {
    configurable: true,
    get: () => seen.top,
    set: (v: number) => {
      seen.writes++;
      seen.top = v;
    },
  });
  return seen;
}

/**
 * A FrameList over `cborRows(n)` rows: `list(n, selectedId)` is its element, the resize
 * observations it asks for are kept, and `layOut()` runs them as the browser would after layout.
 */
function listWithLayoutStub() {
  const labels = new Map([['c', '#1']]);
  const observed: (() => void)[] = [];
  const selected: number[] = [];
  const observeResize = (_target: Element, onResize: () => void) => {
    observed.push(onResize);
    return () => {};
  };
  const list = (n: number, selectedId: number | null = null) => (
    <FrameList
      rows={cborRows(n)}
      selectedId={selectedId}
      onSelect={(id) => selected.push(id)}
      connectionLabels={labels}
      observeResize={observeResize}
    />
  );
  const layOut = () => {
    for (const run of observed) run();
  };
  return { list, observed, selected, layOut };
}

it('following the tail, a redraw writes no scroll position while React commits the rows; it follows after the browser laid them out', () => {
  const { list, observed, layOut } = listWithLayoutStub();
  const view = render(list(1000));
  const scroll = countScrollWrites(view.getByTestId('frame-list'));
  view.rerender(list(1500));
  expect(scroll.writes).toBe(0);
  // The browser laid the longer list out: its content grew, the observation runs.
  expect(observed.length).toBeGreaterThan(0);
  layOut();
  expect(scroll.writes).toBe(1);
  expect(scroll.top).toBe(20 + 1500 * 20);
  // The newest rows are the ones drawn.
  expect(Math.max(...shownFrameIds(view.getByTestId('frame-list')))).toBe(1500);
});

it('scrolled up (not following), the list grows without moving the scroll position', () => {
  const { list, layOut } = listWithLayoutStub();
  const view = render(list(1000));
  const el = view.getByTestId('frame-list');
  const scroll = countScrollWrites(el);
  // The user scrolls to the top: jsdom reports no heights, so the scroll handler sees a list far from its end.
  Object.defineProperty(el, 'scrollHeight', { configurable: true, get: () => 20 + 1000 * 20 });
  Object.defineProperty(el, 'clientHeight', { configurable: true, get: () => 600 });
  el.dispatchEvent(new Event('scroll'));
  view.rerender(list(1500));
  layOut();
  expect(scroll.writes).toBe(0);
  expect(Math.min(...shownFrameIds(el))).toBe(1);
});

it('a row selected while following stops the follow: new frames arrive and the selected row stays in view', () => {
  const { list, selected, layOut } = listWithLayoutStub();
  const view = render(list(1000, null));
  const el = view.getByTestId('frame-list');
  const scroll = countScrollWrites(el);
  Object.defineProperty(el, 'clientHeight', { configurable: true, get: () => 600 });
  layOut();
  // Following: at the tail, the newest rows drawn.
  expect(scroll.top).toBe(20 + 1000 * 20);
  const row = el.querySelector<HTMLElement>('[data-testid=frame-row][data-frame-id="995"]')!;
  row.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
  expect(selected).toEqual([995]);
  view.rerender(list(1000, 995));
  const writes = scroll.writes;
  // 500 more frames come; the browser lays them out.
  view.rerender(list(1500, 995));
  layOut();
  expect(scroll.writes).toBe(writes);
  const shown = shownFrameIds(el);
  expect(shown).toContain(995);
  expect(Math.max(...shown)).toBeLessThan(1500);
});
