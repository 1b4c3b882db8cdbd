// @vitest-environment jsdom
/** The frame detail says why a format was chosen when the bytes alone did not: "mqtt by subprotocol mqtt". */
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from '../../App.js';
import { MemoryTransport } from '../../protocol/transport.js';
import { inProcessWorker } from '../../worker/in-process.js';
import { testHostCapabilities } from '../../test/host-fixtures.js';

const capabilities = testHostCapabilities();
afterEach(cleanup);

describe('why a format was chosen', () => {
  it('an MQTT PINGREQ on a connection that negotiated mqtt reads "mqtt by subprotocol mqtt"', async () => {
    const transport = new MemoryTransport();
    render(<App transport={transport} worker={inProcessWorker()} capabilities={capabilities} />);
    act(() => {
      transport.emit({
        type: 'connection-opened',
        connectionId: 'c1',
        url: 'ws://broker/mqtt',
        protocol: 'mqtt',
        extensions: '',
        time: 1,
      });
      transport.emit({
        type: 'frames',
        frames: [{ connectionId: 'c1', direction: 'sent', time: 2, opcode: 'binary', data: Uint8Array.of(0xc0, 0x00) }],
      });
    });
    await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(1));
    fireEvent.mouseDown(screen.getByTestId('frame-row'));
    await waitFor(() => expect(screen.getByTestId('chosen-by').textContent).toBe(' by subprotocol mqtt'));
    expect(screen.getByTestId('tab-info').textContent).toMatch(/^mqtt by subprotocol mqtt · 2 B/);
  });
});
