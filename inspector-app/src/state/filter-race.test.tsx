// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { MsgPackEncoder } from '@jsonjoy.com/json-pack/lib/msgpack/MsgPackEncoder.js';
import { App } from '../App.js';
import { MemoryTransport } from '../protocol/transport.js';
import type { FromWorker, ToWorker } from '../worker/api.js';
import { WorkerClient } from '../worker/client.js';
import { createDispatcher } from '../worker/dispatcher.js';
import { testHostCapabilities, wireFrame } from '../test/host-fixtures.js';

const capabilities = testHostCapabilities();
const cbor = (v: unknown) => new CborEncoder().encode(v);
const msgpack = (v: unknown) => new MsgPackEncoder().encode(v);
const wire = wireFrame;
const ids = () => screen.queryAllByTestId('frame-row').map((r) => r.getAttribute('data-frame-id'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A decode worker whose every message takes `delayMs` to arrive: the slow search of a big capture. */
function slowWorker(delayMs: number): WorkerClient {
  const fake = {
    onmessage: null as ((e: MessageEvent<FromWorker>) => void) | null,
    onerror: null as unknown,
    postMessage(message: ToWorker) {
      const copy = structuredClone(message);
      setTimeout(() => dispatch(copy), delayMs);
    },
    terminate() {},
  };
  const dispatch = createDispatcher((message) => {
    const copy = structuredClone(message);
    setTimeout(() => fake.onmessage?.({ data: copy } as MessageEvent<FromWorker>), 0);
  });
  return new WorkerClient(fake as unknown as Worker);
}

async function setup(delayMs = 300) {
  const transport = new MemoryTransport();
  render(<App transport={transport} worker={slowWorker(delayMs)} capabilities={capabilities} />);
  act(() =>
    transport.emit({
      type: 'frames',
      frames: [
        wire(cbor({ note: 'zebra' })),
        wire(msgpack({ note: 'zebra' }), { direction: 'sent' }),
        wire(cbor({ note: 'lion' }), { direction: 'sent' }),
        wire(msgpack({ note: 'lion' })),
      ],
    }),
  );
  await waitFor(() => expect(ids()).toEqual(['1', '2', '3', '4']));
  return transport;
}

afterEach(cleanup);

describe('filters: the newest choice always wins', () => {
  it('a dropdown applies at once, without waiting for the worker', async () => {
    await setup(400);
    fireEvent.change(screen.getByTestId('format-filter'), { target: { value: 'cbor' } });
    await act(() => sleep(60));
    expect(ids()).toEqual(['1', '3']);
  });

  it('two dropdowns chosen in one moment both apply; a pending text search does not undo them', async () => {
    await setup(300);
    fireEvent.change(screen.getByTestId('filter-input'), { target: { value: 'zebra' } });
    await act(() => sleep(250)); // the debounce has fired: the search is on its way
    fireEvent.change(screen.getByLabelText('Direction'), { target: { value: 'sent' } });
    fireEvent.change(screen.getByTestId('format-filter'), { target: { value: 'msgpack' } });
    await waitFor(() => expect(ids()).toEqual(['2']));
    await act(() => sleep(800)); // every worker answer is in
    expect(ids()).toEqual(['2']);
    expect((screen.getByLabelText('Direction') as HTMLSelectElement).value).toBe('sent');
    expect((screen.getByTestId('format-filter') as HTMLSelectElement).value).toBe('msgpack');
  });

  it('clearing the text box, then choosing a format, drops the old text', async () => {
    await setup(300);
    fireEvent.change(screen.getByTestId('filter-input'), { target: { value: 'zebra' } });
    await waitFor(() => expect(ids()).toEqual(['1', '2']));
    fireEvent.change(screen.getByTestId('filter-input'), { target: { value: '' } });
    fireEvent.change(screen.getByTestId('format-filter'), { target: { value: 'cbor' } });
    await waitFor(() => expect(ids()).toEqual(['1', '3']));
    await act(() => sleep(800));
    expect(ids()).toEqual(['1', '3']);
    expect(screen.getByTestId('frame-count').textContent).toBe('2 of 4 frames');
  });

  it('a pending text search shows progress; an empty result says so and offers a one-click clear', async () => {
    await setup(300);
    fireEvent.change(screen.getByTestId('filter-input'), { target: { value: 'no such thing' } });
    await screen.findByTestId('filter-progress');
    await waitFor(() =>
      expect(screen.getByTestId('frame-list').textContent).toContain('No frames match these filters'),
    );
    expect(screen.queryByTestId('filter-progress')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(ids()).toEqual(['1', '2', '3', '4']));
    expect((screen.getByTestId('filter-input') as HTMLInputElement).value).toBe('');
  });
});
