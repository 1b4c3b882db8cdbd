// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { App } from '../../App.js';
import { MemoryTransport } from '../../protocol/transport.js';
import { inProcessWorker } from '../../worker/in-process.js';
import { ErrorBanner } from './ErrorBanner.js';
import { testHostCapabilities, wireFrame } from '../../test/host-fixtures.js';

const capabilities = testHostCapabilities();
const wire = wireFrame;
afterEach(cleanup);

describe('malformed frames', () => {
  it('the banner states the offset once', () => {
    render(
      <ErrorBanner
        error={{
          code: 'truncated',
          offset: 47,
          message: 'unexpected end of input: text(10) needs 10 bytes at byte 47',
        }}
        format="cbor"
      />,
    );
    const text = screen.getByTestId('error-banner').textContent ?? '';
    expect(text.match(/47/g)).toHaveLength(1);
    expect(text).toContain('0x2f');
  });
});

describe('small things', () => {
  it('after forcing a decoder, the "auto" option still names what was detected', async () => {
    const transport = new MemoryTransport();
    render(<App transport={transport} worker={inProcessWorker()} capabilities={capabilities} />);
    act(() => transport.emit({ type: 'frames', frames: [wire(new CborEncoder().encode({ a: 1 }))] }));
    await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(1));
    fireEvent.mouseDown(screen.getByTestId('frame-row'));
    const switcher = (await screen.findByTestId('format-switcher')) as HTMLSelectElement;
    await waitFor(() => expect(switcher.options[0].textContent).toBe('auto (cbor)'));
    fireEvent.change(switcher, { target: { value: 'msgpack' } });
    await waitFor(() => expect(screen.getByTestId('frame-detail').textContent).toContain('msgpack'));
    await act(() => new Promise((r) => setTimeout(r, 100)));
    expect(switcher.options[0].textContent).toBe('auto (cbor)');
  });

  it('zebra stripes belong to the frame, not to the row position', async () => {
    const transport = new MemoryTransport();
    render(<App transport={transport} worker={inProcessWorker()} capabilities={capabilities} />);
    act(() => transport.emit({ type: 'frames', frames: [1, 2, 3].map((n) => wire(new CborEncoder().encode(n))) }));
    await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(3));
    const stripe = (id: string) =>
      screen
        .getAllByTestId('frame-row')
        .find((r) => r.getAttribute('data-frame-id') === id)!
        .classList.contains('ws-row-odd');
    expect([stripe('1'), stripe('2'), stripe('3')]).toEqual([true, false, true]);
  });
});
