// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { HexView, type HexSelection } from './HexView';

afterEach(cleanup);

const seq = (n: number) => Uint8Array.from({ length: n }, (_, i) => i);
const offsetsOf = (els: Element[]) => els.map((e) => Number(e.getAttribute('data-offset')));
const range = (a: number, b: number) => Array.from({ length: b - a }, (_, i) => a + i);
const hexCells = (container: HTMLElement) => Array.from(container.querySelectorAll('.hex-b[data-offset]'));

function renderHex(over: Partial<Parameters<typeof HexView>[0]> = {}) {
  const onByteClick = vi.fn();
  const utils = render(
    <div style={{ height: 400 }}>
      <HexView bytes={seq(64)} selection={null} errorOffset={null} onByteClick={onByteClick} {...over} />
    </div>,
  );
  return { ...utils, onByteClick };
}

describe('HexView', () => {
  it('renders rows with offsets, hex and ascii for a 64-byte buffer', () => {
    const bytes = seq(64);
    bytes.set([0x48, 0x69, 0x7e, 0x7f], 32); // "Hi~" then a non-printable
    const { container } = renderHex({ bytes });
    expect(screen.getByTestId('hex-view').getAttribute('aria-label')).toBe('Hex view');
    const rows = screen.getAllByRole('row');
    expect(rows).toHaveLength(4);
    expect(rows.map((r) => r.querySelector('.hex-off')!.textContent)).toEqual([
      '00000000',
      '00000010',
      '00000020',
      '00000030',
    ]);
    expect(offsetsOf(hexCells(container))).toEqual(range(0, 64));
    expect(rows[0]!.querySelectorAll('.hex-b')[15]!.textContent).toBe('0f');
    expect(rows[2]!.querySelector('.hex-ascii')!.textContent).toBe("Hi~.$%&'()*+,-./");
    expect(container.querySelectorAll('.hex-a[data-offset]')).toHaveLength(64);
  });

  it('marks exactly the selected bytes with key, header and payload tones', () => {
    const selection: HexSelection = { start: 10, end: 30, headerLength: 2, keyStart: 5, keyEnd: 10 };
    const { container } = renderHex({ selection });
    const selected = screen.getAllByTestId('hex-byte-selected');
    expect(offsetsOf(selected)).toEqual(range(5, 30));
    expect(offsetsOf(Array.from(container.querySelectorAll('.hex-b.hex-key')))).toEqual(range(5, 10));
    expect(offsetsOf(Array.from(container.querySelectorAll('.hex-b.hex-header')))).toEqual([10, 11]);
    expect(offsetsOf(Array.from(container.querySelectorAll('.hex-b.hex-payload')))).toEqual(range(12, 30));
    // ASCII cells carry the tones too, without the test id.
    expect(offsetsOf(Array.from(container.querySelectorAll('.hex-a.hex-selected')))).toEqual(range(5, 30));
    // The tree's convention: decimal, end exclusive; sizes as everywhere else.
    expect(screen.getByTestId('hex-selection-range').textContent).toContain(
      'selection [10 – 30) (20 B) · key [5 – 10)',
    );
  });

  it('selection without a key only covers [start, end)', () => {
    renderHex({ selection: { start: 0, end: 3, headerLength: 1, keyStart: -1, keyEnd: -1 } });
    expect(offsetsOf(screen.getAllByTestId('hex-byte-selected'))).toEqual([0, 1, 2]);
  });

  it('calls onByteClick with the offset of a clicked hex or ascii cell', () => {
    const { container, onByteClick } = renderHex();
    fireEvent.click(container.querySelector('.hex-b[data-offset="37"]')!);
    expect(onByteClick).toHaveBeenLastCalledWith(37);
    fireEvent.click(container.querySelector('.hex-a[data-offset="5"]')!);
    expect(onByteClick).toHaveBeenLastCalledWith(5);
    expect(onByteClick).toHaveBeenCalledTimes(2);
  });

  it('moves a cursor with the arrow keys and activates it with Enter', () => {
    const { onByteClick } = renderHex();
    const grid = screen.getByRole('grid');
    fireEvent.keyDown(grid, { key: 'ArrowRight' });
    fireEvent.keyDown(grid, { key: 'ArrowDown' });
    fireEvent.keyDown(grid, { key: 'ArrowDown' });
    fireEvent.keyDown(grid, { key: 'ArrowLeft' });
    fireEvent.keyDown(grid, { key: 'Enter' });
    expect(onByteClick).toHaveBeenLastCalledWith(32);
    expect(screen.getByTestId('hex-status').textContent).toContain('cursor 32');
    expect(grid.querySelector('.hex-cursor')!.getAttribute('data-offset')).toBe('32');
  });

  it('marks the byte at errorOffset', () => {
    renderHex({ errorOffset: 42, selection: { start: 40, end: 64, headerLength: 1, keyStart: -1, keyEnd: -1 } });
    const err = screen.getByTestId('hex-byte-error');
    expect(err.getAttribute('data-offset')).toBe('42');
    expect(err.classList.contains('hex-error')).toBe(true);
    expect(err.getAttribute('title')).toBe('decode error here');
    // Still part of the selection, via aria-selected.
    expect(err.getAttribute('aria-selected')).toBe('true');
  });

  it('marks an error just past the end of input', () => {
    renderHex({ bytes: seq(32), errorOffset: 32 });
    const err = screen.getByTestId('hex-byte-error');
    expect(err.getAttribute('data-offset')).toBe('32');
    expect(screen.getAllByRole('row')).toHaveLength(3);
  });

  it('renders only a window of rows for a 10 MB frame', () => {
    const bytes = new Uint8Array(10 * 1024 * 1024);
    const { container } = renderHex({ bytes });
    const rows = screen.getAllByRole('row');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(100);
    expect(container.querySelectorAll('[data-offset]').length).toBeLessThan(100 * 32);
    expect(screen.getByRole('grid').getAttribute('aria-rowcount')).toBe(String((10 * 1024 * 1024) / 16));
  });

  it('scrolls to a selection far into a large frame', () => {
    const scrollTo = vi.fn();
    const original = HTMLElement.prototype.scrollTo;
    HTMLElement.prototype.scrollTo = scrollTo as unknown as typeof original;
    try {
      const bytes = new Uint8Array(1024 * 1024);
      const start = 600_000;
      const sel: HexSelection = { start, end: start + 8, headerLength: 1, keyStart: -1, keyEnd: -1 };
      const { rerender } = render(<HexView bytes={bytes} selection={null} errorOffset={null} onByteClick={() => {}} />);
      scrollTo.mockClear(); // the virtualizer applies its initial offset on mount
      // jsdom has no layout: give the scroller the extent a browser would, so offsets are not clamped to 0.
      const grid = screen.getByRole('grid');
      Object.defineProperty(grid, 'scrollHeight', { configurable: true, get: () => bytes.length });
      Object.defineProperty(grid, 'clientHeight', { configurable: true, get: () => 400 });
      rerender(<HexView bytes={bytes} selection={sel} errorOffset={null} onByteClick={() => {}} />);
      // One row of context above the selection's first row.
      expect(scrollTo).toHaveBeenCalledWith(expect.objectContaining({ top: (start / 16 - 1) * 16 }));
      expect(screen.getByTestId('hex-status').textContent).toContain('cursor 600000');
      // Once the browser has scrolled, the rows around the selection are the ones in the DOM.
      Object.defineProperty(grid, 'scrollTop', { configurable: true, get: () => (start / 16 - 1) * 16 });
      act(() => void fireEvent.scroll(grid));
      expect(offsetsOf(screen.getAllByTestId('hex-byte-selected'))).toEqual(range(start, start + 8));
      expect(screen.getAllByRole('row').length).toBeLessThan(100);
    } finally {
      HTMLElement.prototype.scrollTo = original;
    }
  });

  it('keeps the selection in view when a resize changes the bytes per row', () => {
    const scrollTo = vi.fn();
    const original = HTMLElement.prototype.scrollTo;
    HTMLElement.prototype.scrollTo = scrollTo as unknown as typeof original;
    try {
      const bytes = new Uint8Array(1024 * 1024);
      const start = 600_000;
      const sel: HexSelection = { start, end: start + 8, headerLength: 1, keyStart: -1, keyEnd: -1 };
      const { rerender } = render(<HexView bytes={bytes} selection={null} errorOffset={null} onByteClick={() => {}} />);
      const grid = screen.getByRole('grid');
      Object.defineProperty(grid, 'scrollHeight', { configurable: true, get: () => bytes.length * 2 });
      Object.defineProperty(grid, 'clientHeight', { configurable: true, get: () => 400 });
      rerender(<HexView bytes={bytes} selection={sel} errorOffset={null} onByteClick={() => {}} />);
      Object.defineProperty(grid, 'scrollTop', { configurable: true, get: () => (start / 16 - 1) * 16 });
      act(() => void fireEvent.scroll(grid));
      scrollTo.mockClear();
      // The pane narrowed: 8 bytes a row, so the selection's row is twice as far down.
      rerender(<HexView bytes={bytes} selection={sel} errorOffset={null} onByteClick={() => {}} bytesPerRow={8} />);
      expect(scrollTo).toHaveBeenCalledWith(expect.objectContaining({ top: (start / 8 - 1) * 16 }));
    } finally {
      HTMLElement.prototype.scrollTo = original;
    }
  });

  it('does not yank the view when a click selects the node around the byte', () => {
    const scrollTo = vi.fn();
    const original = HTMLElement.prototype.scrollTo;
    HTMLElement.prototype.scrollTo = scrollTo as unknown as typeof original;
    try {
      const onByteClick = vi.fn();
      const bytes = seq(64);
      const { container, rerender } = render(
        <HexView bytes={bytes} selection={null} errorOffset={null} onByteClick={onByteClick} />,
      );
      scrollTo.mockClear();
      fireEvent.click(container.querySelector('.hex-b[data-offset="40"]')!);
      const sel: HexSelection = { start: 36, end: 50, headerLength: 1, keyStart: -1, keyEnd: -1 };
      rerender(<HexView bytes={bytes} selection={sel} errorOffset={null} onByteClick={onByteClick} />);
      expect(scrollTo).not.toHaveBeenCalled();
      expect(container.querySelector('.hex-cursor')!.getAttribute('data-offset')).toBe('40');
    } finally {
      HTMLElement.prototype.scrollTo = original;
    }
  });

  it('reads its size the way the list and tab bar do: human, exact on hover', () => {
    renderHex({ bytes: new Uint8Array(2458) });
    const size = screen.getByTestId('hex-size');
    expect(size.textContent).toBe('2.4 KiB');
    expect(size.getAttribute('title')).toBe('2,458 bytes');
  });

  it('sized to its rows: 8 bytes per row with ASCII, width from the row layout, not the status line', () => {
    const { container } = renderHex({ bytes: seq(20), bytesPerRow: 8, fitWidth: true });
    const rows = screen.getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]!.querySelector('.hex-off')!.textContent).toBe('00000008');
    expect(rows[2]!.querySelector('.hex-ascii')!.textContent).toHaveLength(4);
    expect(offsetsOf(hexCells(container))).toEqual(range(0, 20));
    const view = screen.getByTestId('hex-view');
    expect(view.getAttribute('data-bytes-per-row')).toBe('8');
    // 8 offset digits + 2, 8 × 3 + 1 + 1, 8 ASCII: 44ch, plus padding, rule and scrollbar.
    expect(view.style.width).toBe('calc(44ch + 29px)');
  });
});
