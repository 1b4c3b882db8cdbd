// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { App } from '../../App.js';
import { MemoryTransport } from '../../protocol/transport.js';
import { inProcessWorker } from '../../worker/in-process.js';
import { testHostCapabilities, wireFrame } from '../../test/host-fixtures.js';
import { handlersWithFrame } from '../../worker/test/ingest-frames.js';

const capabilities = testHostCapabilities();
const wire = wireFrame;
afterEach(cleanup);

describe('the Diff picker', () => {
  it('picks any frame by number (beyond the newest 200), with a stable label and human sizes', async () => {
    const transport = new MemoryTransport();
    render(<App transport={transport} worker={inProcessWorker()} capabilities={capabilities} />);
    const frames = Array.from({ length: 260 }, (_, i) =>
      wire(new CborEncoder().encode({ n: i, pad: 'x'.repeat(i === 0 ? 2000 : 1) })),
    );
    act(() => transport.emit({ type: 'frames', frames }));
    await waitFor(() => expect(screen.getByTestId('frame-count').textContent).toBe('260 frames'));
    fireEvent.keyDown(screen.getByTestId('frame-list'), { key: 'End' });
    await waitFor(() => expect(screen.getByTestId('frame-detail').getAttribute('data-frame-id')).toBe('260'));
    fireEvent.click(screen.getByTestId('tab-diff'));
    const number = screen.getByLabelText('Frame number to compare with');
    fireEvent.change(number, { target: { value: '1' } });
    fireEvent.keyDown(number, { key: 'Enter' });
    await screen.findByTestId('diff-totals');
    const picker = screen.getByLabelText('Frame to compare with') as HTMLSelectElement;
    expect(picker.value).toBe('1');
    expect(picker.selectedOptions[0].textContent).toMatch(/^#1 cbor 2\.0 KiB /);
  });

  it('a frame that is not held is said to be missing, not "the same value"', () => {
    const h = handlersWithFrame(new Uint8Array([1]));
    expect(h.methods.diff({ frameA: 1, frameB: 99 })).toBeNull();
  });
});
