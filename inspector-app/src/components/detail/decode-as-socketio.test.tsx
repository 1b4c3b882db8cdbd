// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from '../../App.js';
import { MemoryTransport } from '../../protocol/transport.js';
import { inProcessWorker } from '../../worker/in-process.js';
import { testHostCapabilities, wireFrame } from '../../test/host-fixtures.js';

afterEach(cleanup);

describe('"decode as" Socket.IO', () => {
  it('reads a lone `40` text frame, which detection takes for the JSON number 40, as a Socket.IO CONNECT packet', async () => {
    const transport = new MemoryTransport();
    render(<App transport={transport} worker={inProcessWorker()} capabilities={testHostCapabilities()} />);
    act(() =>
      transport.emit({ type: 'frames', frames: [wireFrame(new TextEncoder().encode('40'), { opcode: 'text' })] }),
    );
    await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(1));
    fireEvent.mouseDown(screen.getByTestId('frame-row'));
    const switcher = (await screen.findByTestId('format-switcher')) as HTMLSelectElement;
    await waitFor(() => expect(switcher.options[0].textContent).toBe('auto (json)'));
    expect([...switcher.options].map((o) => o.value)).toContain('socketio');

    fireEvent.change(switcher, { target: { value: 'socketio' } });
    await waitFor(() => {
      const rows = screen.getAllByTestId('tree-row').map((r) => r.textContent ?? '');
      expect(rows.some((r) => r.includes('engine.io') && r.includes('"message"'))).toBe(true);
      expect(rows.some((r) => r.includes('socket.io') && r.includes('"CONNECT"'))).toBe(true);
    });
    expect(switcher.value).toBe('socketio');
    expect(screen.queryByTestId('error-banner')).toBeNull();
  });
});
