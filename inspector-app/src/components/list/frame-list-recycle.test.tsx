// @vitest-environment jsdom
/**
 * The panel under a flood: while the list follows a stream's tail, a redraw
 * updates the row elements already there instead of removing every row and creating new
 * ones (the tail moves by hundreds of rows per redraw). Counted: row elements created.
 */
import { afterEach, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { cborRows } from './test/list-rows.js';
import { FrameList } from './FrameList.js';

afterEach(cleanup);

it('following the tail, 20 redraws of 500 new rows each create no new row elements', () => {
  const labels = new Map([['c', '#1']]);
  const view = render(
    <FrameList rows={cborRows(500)} selectedId={null} onSelect={() => {}} connectionLabels={labels} />,
  );
  const list = view.getByTestId('frame-list');
  let created = 0;
  const count = (records: MutationRecord[]) => {
    for (const r of records)
      for (const n of r.addedNodes) if (n instanceof HTMLElement && n.dataset.testid === 'frame-row') created++;
  };
  const observer = new MutationObserver(count);
  observer.observe(list, { childList: true, subtree: true });
  for (let k = 2; k <= 21; k++)
    view.rerender(
      <FrameList rows={cborRows(500 * k)} selectedId={null} onSelect={() => {}} connectionLabels={labels} />,
    );
  count(observer.takeRecords());
  observer.disconnect();
  // The newest rows are drawn (the tail), in the same elements.
  const shown = [...list.querySelectorAll<HTMLElement>('[data-testid=frame-row]')].map((r) =>
    Number(r.dataset.frameId),
  );
  expect(Math.max(...shown)).toBe(10_500);
  expect(created).toBe(0);
});

it('following the tail, a redraw draws only the rows in view (no rows above it that nobody sees)', () => {
  // Under a flood the tail moves by thousands of rows per redraw, so every drawn row gets new
  // text, is laid out and painted again: rows drawn above the view (overscan) are pure cost
  // while the list follows the tail. jsdom has no layout: the list is FALLBACK_HEIGHT (600 px)
  // tall, a 20 px header and 20 px rows, so 30 rows fill it.
  const labels = new Map([['c', '#1']]);
  const view = render(
    <FrameList rows={cborRows(5000)} selectedId={null} onSelect={() => {}} connectionLabels={labels} />,
  );
  view.rerender(<FrameList rows={cborRows(10_000)} selectedId={null} onSelect={() => {}} connectionLabels={labels} />);
  const shown = [...view.getByTestId('frame-list').querySelectorAll<HTMLElement>('[data-testid=frame-row]')].map((r) =>
    Number(r.dataset.frameId),
  );
  expect(Math.max(...shown)).toBe(10_000);
  // Every row from the first drawn one to the newest, in order, nothing skipped.
  expect(shown).toEqual(Array.from({ length: shown.length }, (_, i) => 10_000 - shown.length + 1 + i));
  expect(shown.length).toBeLessThanOrEqual(31);
});

it('following the tail, 3 rows appended change only 3 row elements: the rows still in view keep their element and text', () => {
  // A slow stream adds a few rows per redraw. Rows keyed by their place in the drawn window
  // shift by one place per new row, so every drawn row got another frame's text, was laid
  // out and painted again; a row that stays in view keeps its element untouched.
  const labels = new Map([['c', '#1']]);
  const view = render(
    <FrameList rows={cborRows(1000)} selectedId={null} onSelect={() => {}} connectionLabels={labels} />,
  );
  const list = view.getByTestId('frame-list');
  const rowOf = (n: Node | null): HTMLElement | null =>
    n instanceof HTMLElement
      ? n.closest<HTMLElement>('[data-testid=frame-row]')
      : (n?.parentElement?.closest<HTMLElement>('[data-testid=frame-row]') ?? null);
  const observer = new MutationObserver(() => {});
  observer.observe(list, { childList: true, subtree: true, characterData: true, attributes: true });
  view.rerender(<FrameList rows={cborRows(1003)} selectedId={null} onSelect={() => {}} connectionLabels={labels} />);
  const touched = new Set<HTMLElement>();
  for (const r of observer.takeRecords()) {
    const row = rowOf(r.target) ?? [...r.addedNodes, ...r.removedNodes].map(rowOf).find(Boolean) ?? null;
    if (row) touched.add(row);
  }
  observer.disconnect();
  const shown = [...list.querySelectorAll<HTMLElement>('[data-testid=frame-row]')].map((r) =>
    Number(r.dataset.frameId),
  );
  expect(Math.max(...shown)).toBe(1003);
  expect([...touched].map((r) => Number(r.dataset.frameId)).sort((a, b) => a - b)).toEqual([1001, 1002, 1003]);
});
