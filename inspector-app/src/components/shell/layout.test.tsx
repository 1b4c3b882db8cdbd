// @vitest-environment jsdom
/**
 * Room for what is being read: the list / detail splitter (remembered), Escape closes the detail,
 * tree column headers, and numbers that agree between list, tab bar, tree and hex.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { App } from '../../App.js';
import { MemoryTransport } from '../../protocol/transport.js';
import { inProcessWorker } from '../../worker/in-process.js';
import { testHostCapabilities, wireFrame } from '../../test/host-fixtures.js';

const capabilities = testHostCapabilities();
const cbor = (v: unknown) => new CborEncoder().encode(v);
const wire = wireFrame;

afterEach(() => {
  cleanup();
  localStorage.clear();
});

async function openFrame(value: unknown) {
  const transport = new MemoryTransport();
  const utils = render(<App transport={transport} worker={inProcessWorker()} capabilities={capabilities} />);
  act(() => transport.emit({ type: 'frames', frames: [wire(cbor(value))] }));
  await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(1));
  fireEvent.mouseDown(screen.getAllByTestId('frame-row')[0]);
  await waitFor(() => expect(screen.getAllByTestId('tree-row').length).toBeGreaterThan(1));
  return { transport, ...utils };
}

const big = { blob: 'x'.repeat(2400), n: 1 };

describe('layout', () => {
  it('a splitter between list and detail resizes the list by keyboard, and the size is remembered', async () => {
    const first = await openFrame(big);
    const splitter = screen.getByRole('separator', { name: 'Resize frame list' });
    const before = Number(splitter.getAttribute('aria-valuenow'));
    fireEvent.keyDown(splitter, { key: 'ArrowRight' });
    fireEvent.keyDown(splitter, { key: 'ArrowRight' });
    const after = Number(splitter.getAttribute('aria-valuenow'));
    expect(after).toBe(before + 32);
    expect(screen.getByTestId('list-pane').style.width).toBe(`${after}px`);
    first.unmount();
    await openFrame(big);
    expect(Number(screen.getByRole('separator', { name: 'Resize frame list' }).getAttribute('aria-valuenow'))).toBe(
      after,
    );
  });

  it('Escape closes the detail pane and gives the keyboard back to the list, but not while typing', async () => {
    await openFrame(big);
    fireEvent.keyDown(screen.getByTestId('filter-input'), { key: 'Escape' });
    expect(screen.queryByTestId('frame-detail')).not.toBeNull();
    fireEvent.keyDown(screen.getByTestId('tree-view'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('frame-detail')).toBeNull());
    expect(document.activeElement).toBe(screen.getByTestId('frame-list'));
  });

  it('the tree has column headers: key, kind, value, bytes, % of parent (number over its bar), of frame, header', async () => {
    await openFrame(big);
    expect(screen.getByTestId('tree-header').textContent).toBe('keykindvaluebytes% of parentframehdr');
  });

  it('sizes read the same in list, tab bar and hex (human, exact on hover); tree and hex give one range convention', async () => {
    await openFrame(big);
    const frameBytes = cbor(big).length;
    expect(frameBytes).toBeGreaterThan(1024);
    const listSize = screen.getAllByTestId('frame-row')[0].children[5] as HTMLElement;
    const tabSize = await screen.findByTestId('tab-size');
    const hexSize = await screen.findByTestId('hex-size');
    for (const el of [listSize, tabSize, hexSize]) {
      expect(el.textContent).toBe('2.4 KiB');
      expect(el.getAttribute('title')).toBe(`${frameBytes.toLocaleString('en-US')} bytes`);
    }
    const row = screen.getAllByTestId('tree-row').find((r) => r.getAttribute('data-path') === '$.blob')!;
    fireEvent.mouseDown(row);
    const start = Number(row.getAttribute('data-start'));
    const end = Number(row.getAttribute('data-end'));
    await waitFor(() =>
      expect(screen.getByTestId('selected-range').textContent).toContain(
        `[${start.toLocaleString('en-US')} – ${end.toLocaleString('en-US')})`,
      ),
    );
    expect(screen.getByTestId('hex-selection-range').textContent).toContain(
      `selection [${start.toLocaleString('en-US')} – ${end.toLocaleString('en-US')})`,
    );
  });
});
