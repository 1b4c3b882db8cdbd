// @vitest-environment jsdom
/**
 * Working the inspector by keyboard and by name: ARIA tabs with arrow keys, tree Home/End and
 * expand-all, focusable largest fields, accessible names that match the text, search inside a
 * frame with the match marked, sort the list by size, "link to this frame", the annotated hex mode.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { App } from '../../App.js';
import { MemoryTransport } from '../../protocol/transport.js';
import { inProcessWorker } from '../../worker/in-process.js';
import { testHostCapabilities, wireFrame } from '../../test/host-fixtures.js';

const capabilities = testHostCapabilities({ pastePageUrl: 'http://localhost:8080/paste.html' });
const cbor = (v: unknown) => new CborEncoder().encode(v);
const wire = wireFrame;

afterEach(cleanup);

const value = {
  users: [
    { name: 'ann', tags: ['a', 'b'] },
    { name: 'bob', tags: ['zebra'] },
  ],
  ok: true,
};

async function openFrames(values: unknown[], pick = 0) {
  const transport = new MemoryTransport();
  render(<App transport={transport} worker={inProcessWorker()} capabilities={capabilities} />);
  act(() => transport.emit({ type: 'frames', frames: values.map((v) => wire(cbor(v))) }));
  await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(values.length));
  fireEvent.mouseDown(screen.getAllByTestId('frame-row')[pick]);
  await waitFor(() => expect(screen.getAllByTestId('tree-row').length).toBeGreaterThan(1));
}

const paths = () => screen.getAllByTestId('tree-row').map((r) => r.getAttribute('data-path'));
const selectedPath = () =>
  screen
    .getAllByTestId('tree-row')
    .find((r) => r.getAttribute('aria-selected') === 'true')
    ?.getAttribute('data-path');
const matchPath = () =>
  screen
    .queryAllByTestId('tree-row')
    .find((r) => r.hasAttribute('data-match'))
    ?.getAttribute('data-path');

describe('tabs', () => {
  it('are ARIA tabs: one tab stop, arrows move and select, each tab controls the panel', async () => {
    // Two frames: Diff (the last tab) is offered only with another frame to diff against.
    await openFrames([value, value]);
    const tabs = within(screen.getByRole('tablist', { name: 'Frame views' })).getAllByRole('tab');
    expect(tabs.map((t) => t.getAttribute('tabindex'))).toEqual(['0', ...tabs.slice(1).map(() => '-1')]);
    expect(screen.getByRole('tabpanel').id).toBe(tabs[0].getAttribute('aria-controls'));
    expect(screen.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe(tabs[0].id);
    tabs[0].focus();
    fireEvent.keyDown(tabs[0], { key: 'ArrowRight' });
    await waitFor(() => expect(screen.getByTestId('tab-hex').getAttribute('aria-selected')).toBe('true'));
    expect(document.activeElement).toBe(screen.getByTestId('tab-hex'));
    fireEvent.keyDown(screen.getByTestId('tab-hex'), { key: 'End' });
    await waitFor(() => expect(screen.getByTestId('tab-diff').getAttribute('aria-selected')).toBe('true'));
    fireEvent.keyDown(screen.getByTestId('tab-diff'), { key: 'ArrowRight' });
    await waitFor(() => expect(screen.getByTestId('tab-tree').getAttribute('aria-selected')).toBe('true'));
  });
});

describe('tree keys and actions', () => {
  it('Home and End select the first and last row; * expands everything below the selection', async () => {
    await openFrames([value]);
    const tree = screen.getByTestId('tree-view');
    fireEvent.keyDown(tree, { key: 'End' });
    await waitFor(() => expect(selectedPath()).toBe('$.ok'));
    fireEvent.keyDown(tree, { key: 'Home' });
    await waitFor(() => expect(selectedPath()).toBe('$'));
    fireEvent.keyDown(tree, { key: '*' });
    await waitFor(() => expect(paths()).toContain('$.users[1].tags[0]'));
    expect(paths()).toEqual([
      '$',
      '$.users',
      '$.users[0]',
      '$.users[0].name',
      '$.users[0].tags',
      '$.users[0].tags[0]',
      '$.users[0].tags[1]',
      '$.users[1]',
      '$.users[1].name',
      '$.users[1].tags',
      '$.users[1].tags[0]',
      '$.ok',
    ]);
  });

  it('"Expand all" opens the selected subtree only', async () => {
    await openFrames([value]);
    fireEvent.mouseDown(screen.getAllByTestId('tree-row').find((r) => r.getAttribute('data-path') === '$.users')!);
    fireEvent.click(screen.getByRole('button', { name: 'Expand all' }));
    await waitFor(() => expect(paths()).toContain('$.users[0].tags[1]'));
  });

  it('largest fields are buttons: Tab reaches them, Enter selects the field in the tree', async () => {
    await openFrames([value]);
    fireEvent.click(screen.getByTestId('largest-toggle'));
    const rows = await screen.findAllByTestId('largest-row');
    expect(rows[0].tagName).toBe('BUTTON');
    // Ranked by path pattern: a field summed over the array's elements, its first occurrence selected.
    expect(rows[0].textContent).toMatch(/^\$\.users\[\*\]\.name/);
    const target = rows.find((r) => r.textContent!.startsWith('$.users[*].tags[*]'))!;
    fireEvent.click(target); // a button's Enter is a click
    await waitFor(() => expect(selectedPath()).toBe('$.users[0].tags[0]'));
  });

  it('search inside the frame: the count, the first match selected and opened, the text marked', async () => {
    await openFrames([value]);
    fireEvent.change(screen.getByTestId('tree-search'), { target: { value: 'ZEB' } });
    await waitFor(() => expect(screen.getByTestId('tree-search-count').textContent).toBe('1 of 1'));
    await waitFor(() => expect(selectedPath()).toBe('$.users[1].tags[0]'));
    const marks = screen.getByTestId('tree-view').querySelectorAll('mark');
    expect([...marks].map((m) => m.textContent)).toEqual(['zeb']);
    fireEvent.change(screen.getByTestId('tree-search'), { target: { value: 'name' } });
    await waitFor(() => expect(screen.getByTestId('tree-search-count').textContent).toBe('1 of 2'));
    fireEvent.keyDown(screen.getByTestId('tree-search'), { key: 'Enter' });
    await waitFor(() => expect(selectedPath()).toBe('$.users[1].name'));
  });

  it('a frame opened from a filtered list shows the match, marked, while the frame stays selected', async () => {
    const transport = new MemoryTransport();
    render(<App transport={transport} worker={inProcessWorker()} capabilities={capabilities} />);
    act(() => transport.emit({ type: 'frames', frames: [wire(cbor({ other: 1 })), wire(cbor(value))] }));
    await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(2));
    fireEvent.change(screen.getByTestId('filter-input'), { target: { value: 'bob' } });
    await waitFor(() => expect(screen.getByTestId('frame-count').textContent).toBe('1 of 2 frames'));
    fireEvent.mouseDown(screen.getAllByTestId('frame-row')[0]);
    await waitFor(() => expect((screen.getByTestId('tree-search') as HTMLInputElement).value).toBe('bob'));
    // The match is opened and marked as the search's current one; the selection stays on the frame.
    await waitFor(() => expect(matchPath()).toBe('$.users[1].name'));
    expect(selectedPath()).toBe('$');
    // So the frame's actions act on the frame: Expand all opens all of it, Compare compares all of it.
    fireEvent.click(screen.getByRole('button', { name: 'Expand all' }));
    await waitFor(() => expect(paths()).toContain('$.users[0].tags[1]'));
    fireEvent.click(screen.getByTestId('tab-compare'));
    expect(await screen.findByRole('button', { name: 'Run comparison of the whole frame' })).toBeTruthy();
  });

  it('stepping to a match in the frame search selects it', async () => {
    const transport = new MemoryTransport();
    render(<App transport={transport} worker={inProcessWorker()} capabilities={capabilities} />);
    act(() => transport.emit({ type: 'frames', frames: [wire(cbor(value))] }));
    await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(1));
    fireEvent.change(screen.getByTestId('filter-input'), { target: { value: 'name' } });
    fireEvent.mouseDown(screen.getAllByTestId('frame-row')[0]);
    await waitFor(() => expect(matchPath()).toBe('$.users[0].name'));
    expect(selectedPath()).toBe('$');
    fireEvent.keyDown(screen.getByTestId('tree-search'), { key: 'Enter' });
    await waitFor(() => expect(selectedPath()).toBe('$.users[1].name'));
    expect(matchPath()).toBe('$.users[1].name');
  });

  it('clearing the list filter clears the frame search and its mark', async () => {
    const transport = new MemoryTransport();
    render(<App transport={transport} worker={inProcessWorker()} capabilities={capabilities} />);
    act(() => transport.emit({ type: 'frames', frames: [wire(cbor({ other: 1 })), wire(cbor(value))] }));
    await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(2));
    fireEvent.change(screen.getByTestId('filter-input'), { target: { value: 'bob' } });
    await waitFor(() => expect(screen.getByTestId('frame-count').textContent).toBe('1 of 2 frames'));
    fireEvent.mouseDown(screen.getAllByTestId('frame-row')[0]);
    await waitFor(() => expect(paths()).toContain('$.users[1].name'));
    fireEvent.change(screen.getByTestId('filter-input'), { target: { value: '' } });
    await waitFor(() => expect(screen.getByTestId('frame-count').textContent).toBe('2 frames'));
    await waitFor(() => expect((screen.getByTestId('tree-search') as HTMLInputElement).value).toBe(''));
    await waitFor(() => expect(matchPath()).toBeUndefined());
    expect(screen.getByTestId('tree-view').querySelectorAll('mark')).toHaveLength(0);
    expect(selectedPath()).toBe('$');
  });
});

describe('list, links, annotated hex, names', () => {
  it('the size header sorts the list by size, largest first, and back', async () => {
    await openFrames([{ a: 1 }, { b: 'x'.repeat(300) }, { c: 'yy' }]);
    const ids = () => screen.getAllByTestId('frame-row').map((r) => r.getAttribute('data-frame-id'));
    expect(ids()).toEqual(['1', '2', '3']);
    fireEvent.click(screen.getByTestId('sort-by-size'));
    await waitFor(() => expect(ids()).toEqual(['2', '3', '1']));
    fireEvent.click(screen.getByTestId('sort-by-size'));
    await waitFor(() => expect(ids()).toEqual(['1', '2', '3']));
  });

  it('"Copy link" is offered where the host has a paste page', async () => {
    await openFrames([value]);
    expect(screen.getByTestId('copy-link').textContent).toBe('Copy link');
  });

  it('the Hex tab has an annotated mode: each item head and payload on its own line with offsets', async () => {
    await openFrames([{ a: 'hi' }]);
    fireEvent.click(screen.getByTestId('tab-hex'));
    fireEvent.click(screen.getByTestId('hex-mode-annotated'));
    const view = await screen.findByTestId('annotated-hex');
    await waitFor(() => expect(view.textContent).toContain('map(1)'));
    const lines = [...view.querySelectorAll('.hex-annotated-line')].map((l) => l.textContent!.trim().split(/\s+/));
    // a1 61 61 62 68 69: map head at 0, key head at 1, key payload at 2, value head at 3.
    expect(lines.find((l) => l[0] === '0')?.slice(0, 3)).toEqual(['0', '6', 'a1']);
    expect(lines.find((l) => l[0] === '3')?.slice(0, 3)).toEqual(['3', '3', '62']);
  });

  it('every button reads as its accessible name (no aria-label that differs from the text)', async () => {
    const transport = new MemoryTransport();
    render(<App transport={transport} worker={inProcessWorker()} capabilities={capabilities} />);
    act(() => transport.emit({ type: 'frames', frames: [wire(cbor(value))] }));
    await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(1));
    // An import problem shows the dismissable notice.
    // (jsdom's File has no arrayBuffer(): hand the input a file-like object that does.)
    const file = { name: 'x.har', arrayBuffer: async () => new TextEncoder().encode('nope').buffer };
    fireEvent.change(screen.getByTestId('import-input'), { target: { files: [file] } });
    await screen.findByTestId('notice');
    fireEvent.mouseDown(screen.getAllByTestId('frame-row')[0]);
    await waitFor(() => expect(screen.getAllByTestId('tree-row').length).toBeGreaterThan(1));
    for (const b of screen.getAllByRole('button')) {
      const label = b.getAttribute('aria-label');
      const text = (b.textContent ?? '').trim();
      if (label !== null) expect(label.toLowerCase(), `button "${text}"`).toContain(text.toLowerCase());
      else
        expect(
          text.length + (b.getAttribute('title') ?? '').length,
          'a button with neither text nor title',
        ).toBeGreaterThan(0);
    }
  });
});
