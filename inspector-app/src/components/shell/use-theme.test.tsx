// @vitest-environment jsdom
/**
 * Under a flood the app redraws 4 times a second, and
 * each redraw asked for a new media query and moved its change listener to it (matchMedia,
 * removeEventListener, addEventListener per redraw). The query is asked for once.
 */
import { afterEach, expect, it } from 'vitest';
import { act, cleanup, render } from '@testing-library/react';
import { useTheme } from './use-theme.js';

afterEach(cleanup);

function countingWindow(dark: boolean) {
  const counts = { matchMedia: 0, add: 0, remove: 0 };
  const listeners = new Set<(e: { matches: boolean }) => void>();
  // One query, as the browser keeps it: its `matches` follows the system.
  const query = {
    matches: dark,
    addEventListener: (_: string, l: (e: { matches: boolean }) => void) => {
      counts.add++;
      listeners.add(l);
    },
    removeEventListener: (_: string, l: (e: { matches: boolean }) => void) => {
      counts.remove++;
      listeners.delete(l);
    },
  };
  const win = {
    matchMedia: () => {
      counts.matchMedia++;
      return query;
    },
  } as unknown as Window;
  return {
    win,
    counts,
    change: (matches: boolean) => {
      query.matches = matches;
      for (const l of listeners) l({ matches });
    },
  };
}

function Themed(props: { win: Window; n: number }) {
  return <span data-testid="theme">{useTheme('auto', props.win)}</span>;
}

it('asks for the color-scheme query once and keeps one listener across redraws, and still follows the system', () => {
  const { win, counts, change } = countingWindow(false);
  const view = render(<Themed win={win} n={0} />);
  for (let n = 1; n <= 20; n++) view.rerender(<Themed win={win} n={n} />);
  expect(counts.matchMedia).toBe(1);
  expect(counts.add).toBe(1);
  expect(counts.remove).toBe(0);
  expect(view.getByTestId('theme').textContent).toBe('light');
  act(() => change(true));
  expect(view.getByTestId('theme').textContent).toBe('dark');
});
