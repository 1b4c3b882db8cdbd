// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from '../App.js';
import { MemoryTransport } from '../protocol/transport.js';
import { inProcessWorker } from '../worker/in-process.js';
import { WorkerHandlers } from '../worker/handlers.js';
import { testHostCapabilities, wireFrame } from '../test/host-fixtures.js';

const capabilities = testHostCapabilities();
const MB = 1024 * 1024;
/** A CBOR byte string of `size` bytes: `5a` + 4-byte length + payload. */
function bigFrame(size: number): Uint8Array {
  const out = new Uint8Array(size);
  out[0] = 0x5a;
  new DataView(out.buffer).setUint32(1, size - 5);
  return out;
}
const wire = wireFrame;
const rows = () => screen.queryAllByTestId('frame-row');

afterEach(cleanup);

describe('lowering the memory cap', () => {
  it("the worker's setCap answer carries the evicted ids, oldest first", () => {
    const h = new WorkerHandlers();
    for (let i = 1; i <= 5; i++)
      h.store.add({
        frameId: i,
        connectionId: 'c',
        direction: 'received',
        time: 0,
        opcode: 'binary',
        data: new Uint8Array(100),
      });
    expect(h.methods.setCap({ bytes: 250 })).toEqual({ evictedIds: [1, 2, 3], evictedTotal: 3, bytesHeld: 200 });
    expect(h.store.evictedTotal).toBe(3);
  });

  it('evicted rows leave the list at once; the count and the list agree', async () => {
    const transport = new MemoryTransport();
    render(<App transport={transport} worker={inProcessWorker()} capabilities={capabilities} />);
    act(() => transport.emit({ type: 'frames', frames: Array.from({ length: 20 }, () => wire(bigFrame(MB))) }));
    await waitFor(() => expect(rows()).toHaveLength(20));
    fireEvent.mouseDown(rows()[0]);
    await screen.findByTestId('frame-detail');
    fireEvent.change(screen.getByLabelText('Memory cap'), { target: { value: '16' } });
    await waitFor(() => expect(screen.getByTestId('evicted-count').textContent).toBe('4 evicted'));
    expect(rows()).toHaveLength(16);
    expect(screen.getByTestId('frame-count').textContent).toBe('16 frames');
    // The selected frame was among them: the detail says so instead of "decoding…" forever.
    expect(screen.getByTestId('frame-evicted').textContent).toMatch(/evicted/);
  });
});
