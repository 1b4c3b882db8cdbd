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
import type { FrameSummary } from '../../worker/api.js';
import { FrameList } from './FrameList.js';

afterEach(cleanup);

const rowsUpTo = (n: number): FrameSummary[] =>
  Array.from({ length: n }, (_, i) => ({
    frameId: i + 1,
    connectionId: 'c',
    direction: 'received',
    time: i,
    opcode: 'binary',
    size: 10 + i,
    format: 'cbor',
    preview: `{seq: ${i + 1}}`,
    error: null,
  }));

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

it('following the tail, a redraw writes no scroll position while React commits the rows; it follows after the browser laid them out', () => {
  const labels = new Map([['c', '#1']]);
  const observed: (() => void)[] = [];
  const observeResize = (_target: Element, onResize: () => void) => {
    observed.push(onResize);
    return () => {};
  };
  const view = render(
    <FrameList
      rows={rowsUpTo(1000)}
      selectedId={null}
      onSelect={() => {}}
      connectionLabels={labels}
      observeResize={observeResize}
    />,
  );
  const scroll = countScrollWrites(view.getByTestId('frame-list'));
  view.rerender(
    <FrameList
      rows={rowsUpTo(1500)}
      selectedId={null}
      onSelect={() => {}}
      connectionLabels={labels}
      observeResize={observeResize}
    />,
  );
  expect(scroll.writes).toBe(0);
  // The browser laid the longer list out: its content grew, the observation runs.
  expect(observed.length).toBeGreaterThan(0);
  for (const run of observed) run();
  expect(scroll.writes).toBe(1);
  expect(scroll.top).toBe(20 + 1500 * 20);
  // The newest rows are the ones drawn.
  const shown = [...view.getByTestId('frame-list').querySelectorAll<HTMLElement>('[data-testid=frame-row]')].map((r) =>
    Number(r.dataset.frameId),
  );
  expect(Math.max(...shown)).toBe(1500);
});

it('scrolled up (not following), the list grows without moving the scroll position', () => {
  const labels = new Map([['c', '#1']]);
  const observed: (() => void)[] = [];
  const observeResize = (_target: Element, onResize: () => void) => {
    observed.push(onResize);
    return () => {};
  };
  const view = render(
    <FrameList
      rows={rowsUpTo(1000)}
      selectedId={null}
      onSelect={() => {}}
      connectionLabels={labels}
      observeResize={observeResize}
    />,
  );
  const list = view.getByTestId('frame-list');
  const scroll = countScrollWrites(list);
  // The user scrolls to the top: jsdom reports no heights, so the scroll handler sees a list far from its end.
  Object.defineProperty(list, 'scrollHeight', { configurable: true, get: () => 20 + 1000 * 20 });
  Object.defineProperty(list, 'clientHeight', { configurable: true, get: () => 600 });
  list.dispatchEvent(new Event('scroll'));
  view.rerender(
    <FrameList
      rows={rowsUpTo(1500)}
      selectedId={null}
      onSelect={() => {}}
      connectionLabels={labels}
      observeResize={observeResize}
    />,
  );
  for (const run of observed) run();
  expect(scroll.writes).toBe(0);
  const shown = [...list.querySelectorAll<HTMLElement>('[data-testid=frame-row]')].map((r) =>
    Number(r.dataset.frameId),
  );
  expect(Math.min(...shown)).toBe(1);
});

it('a row selected while following stops the follow: new frames arrive and the selected row stays in view', () => {
  const labels = new Map([['c', '#1']]);
  const observed: (() => void)[] = [];
  const observeResize = (_target: Element, onResize: () => void) => {
    observed.push(onResize);
    return () => {};
  };
  const selected: number[] = [];
  const list = (n: number, selectedId: number | null) => (
    <FrameList
      rows={rowsUpTo(n)}
      selectedId={selectedId}
      onSelect={(id) => selected.push(id)}
      connectionLabels={labels}
      observeResize={observeResize}
    />
  );
  const view = render(list(1000, null));
  const el = view.getByTestId('frame-list');
  const scroll = countScrollWrites(el);
  Object.defineProperty(el, 'clientHeight', { configurable: true, get: () => 600 });
  for (const run of observed) run();
  // Following: at the tail, the newest rows drawn.
  expect(scroll.top).toBe(20 + 1000 * 20);
  const row = el.querySelector<HTMLElement>('[data-testid=frame-row][data-frame-id="995"]')!;
  row.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
  expect(selected).toEqual([995]);
  view.rerender(list(1000, 995));
  const writes = scroll.writes;
  // 500 more frames come; the browser lays them out.
  view.rerender(list(1500, 995));
  for (const run of observed) run();
  expect(scroll.writes).toBe(writes);
  const shown = [...el.querySelectorAll<HTMLElement>('[data-testid=frame-row]')].map((r) => Number(r.dataset.frameId));
  expect(shown).toContain(995);
  expect(Math.max(...shown)).toBeLessThan(1500);
});
