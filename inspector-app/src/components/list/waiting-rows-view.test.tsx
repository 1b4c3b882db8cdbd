// @vitest-environment jsdom
/**
 * Issue #14: under a flood the worker lists frames as waiting rows (not read yet). The list
 * asks for the waiting rows it shows to be read now, so the rows the user sees are complete;
 * until they come back, a waiting row says so instead of pretending to be unknown.
 */
import { afterEach, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import type { FrameSummary } from '../../worker/api.js';
import { FrameList, formatLabel } from './FrameList.js';

afterEach(cleanup);

const rows = (n: number, waitingFrom: number): FrameSummary[] =>
  Array.from({ length: n }, (_, i) => ({
    frameId: i + 1,
    connectionId: 'c',
    direction: 'received',
    time: i,
    opcode: 'binary',
    size: 10 + i,
    format: i + 1 >= waitingFrom ? null : 'cbor',
    preview: i + 1 >= waitingFrom ? '' : `{seq: ${i + 1}}`,
    error: null,
    ...(i + 1 >= waitingFrom ? { waiting: true as const } : {}),
  }));

it('asks once for the waiting rows in view (following the tail), not for rows out of view', () => {
  const labels = new Map([['c', '#1']]);
  const asked: number[][] = [];
  const view = render(<FrameList rows={rows(1000, 900)} selectedId={null} onSelect={() => {}} connectionLabels={labels} onView={(ids) => asked.push([...ids])} />);
  const drawn = [...view.getByTestId('frame-list').querySelectorAll<HTMLElement>('[data-testid=frame-row]')].map((r) => Number(r.dataset.frameId));
  expect(asked).toHaveLength(1);
  expect(asked[0]).toEqual(drawn.filter((id) => id >= 900));
  expect(asked[0]!.length).toBeGreaterThan(0);
  // The same rows drawn again: not asked twice.
  view.rerender(<FrameList rows={rows(1000, 900)} selectedId={null} onSelect={() => {}} connectionLabels={labels} onView={(ids) => asked.push([...ids])} />);
  expect(asked).toHaveLength(1);
  // All read: nothing to ask.
  view.rerender(<FrameList rows={rows(1000, 5000)} selectedId={null} onSelect={() => {}} connectionLabels={labels} onView={(ids) => asked.push([...ids])} />);
  expect(asked).toHaveLength(1);
});

it('a waiting row says it is being read, not "?"', () => {
  expect(formatLabel(rows(1, 1)[0]!)).toBe('…');
});
