// @vitest-environment jsdom
/**
 * Under a flood the worker lists frames as waiting rows (not read yet). The list
 * asks for the waiting rows it shows to be read now, so the rows the user sees are complete;
 * until they come back, a waiting row says so instead of pretending to be unknown.
 */
import { afterEach, expect, it } from 'vitest';
import { act, cleanup, render } from '@testing-library/react';
import { cborRows, shownFrameIds } from './test/list-rows.js';
import { FrameList, formatLabel, VIEW_SETTLE_MS } from './FrameList.js';

afterEach(cleanup);

/**
 * A FrameList over `cborRows(n, waitingFrom)`: `list(n, waitingFrom)` is its element (a new
 * onView callback each time, as a parent's render makes), `asked` what it asked to be read.
 */
function listAskingToRead() {
  const labels = new Map([['c', '#1']]);
  const asked: number[][] = [];
  const list = (n: number, waitingFrom: number) => (
    <FrameList
      rows={cborRows(n, waitingFrom)}
      selectedId={null}
      onSelect={() => {}}
      connectionLabels={labels}
      onView={(ids) => asked.push([...ids])}
    />
  );
  return { asked, list };
}

const rest = (ms: number) => act(() => new Promise((r) => setTimeout(r, ms)));

it('asks once for the waiting rows in view (following the tail, once it rested), not for rows out of view', async () => {
  const { asked, list } = listAskingToRead();
  const view = render(list(1000, 900));
  await rest(VIEW_SETTLE_MS + 100);
  const drawn = shownFrameIds(view.getByTestId('frame-list'));
  expect(asked).toHaveLength(1);
  expect(asked[0]).toEqual(drawn.filter((id) => id >= 900));
  expect(asked[0]!.length).toBeGreaterThan(0);
  // The same rows drawn again: not asked twice.
  view.rerender(list(1000, 900));
  expect(asked).toHaveLength(1);
  // All read: nothing to ask.
  view.rerender(list(1000, 5000));
  expect(asked).toHaveLength(1);
});

it("following a flood's tail, asks for nothing while the tail moves, and for the last rows in view once it rests", async () => {
  // Under a flood the tail moves by thousands of rows per redraw: rows read ahead of their
  // turn came back when they were off screen already, and were read again in order later
  // (each decoded twice while the flood lasted, on the core the flooded page needs).
  const { asked, list } = listAskingToRead();
  const view = render(list(1000, 1));
  for (let n = 2; n <= 6; n++) {
    await rest(VIEW_SETTLE_MS / 2);
    view.rerender(list(1000 * n, 1));
  }
  expect(asked).toEqual([]);
  await rest(VIEW_SETTLE_MS + 100);
  const drawn = shownFrameIds(view.getByTestId('frame-list'));
  expect(asked).toEqual([drawn]);
  expect(Math.max(...drawn)).toBe(6000);
});

it('scrolled up (not following), asks for the waiting rows in view at once', () => {
  const { asked, list } = listAskingToRead();
  const view = render(list(1000, 1));
  const el = view.getByTestId('frame-list');
  // The user scrolls to the top: jsdom reports no heights, so the scroll handler sees a list far from its end.
  Object.defineProperty(el, 'scrollTop', { configurable: true, get: () => 0, set: () => {} });
  Object.defineProperty(el, 'scrollHeight', { configurable: true, get: () => 20 + 1000 * 20 });
  Object.defineProperty(el, 'clientHeight', { configurable: true, get: () => 600 });
  act(() => void el.dispatchEvent(new Event('scroll')));
  const drawn = shownFrameIds(el);
  expect(Math.min(...drawn)).toBe(1);
  expect(asked.at(-1)).toEqual(drawn);
});

it('a waiting row says it is being read, not "?"', () => {
  expect(formatLabel(cborRows(1, 1)[0]!)).toBe('…');
});
