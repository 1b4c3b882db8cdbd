// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from '../../App.js';
import { MemoryTransport } from '../../protocol/transport.js';
import type { WireFrame } from '../../protocol/messages.js';
import { inProcessWorker } from '../../worker/in-process.js';
import { testHostCapabilities } from '../../test/host-fixtures.js';

const capabilities = testHostCapabilities();
const frame = (data: Uint8Array, opcode: 'text' | 'binary'): WireFrame => ({
  connectionId: 'c1',
  direction: 'received',
  time: 1_700_000_000_000,
  opcode,
  data,
});

afterEach(cleanup);

describe('a Socket.IO attachment placeholder in the tree', () => {
  it('reads "attachment #0 → frame 2" and opens that frame', async () => {
    const transport = new MemoryTransport();
    render(<App transport={transport} worker={inProcessWorker()} capabilities={capabilities} />);
    act(() =>
      transport.emit({
        type: 'frames',
        frames: [
          frame(new TextEncoder().encode('451-[{"_placeholder":true,"num":0}]'), 'text'),
          frame(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2]), 'binary'),
        ],
      }),
    );
    await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(2));
    expect(screen.queryAllByTestId('frame-row')[1].textContent).toContain('attachment 0 of frame 1');
    fireEvent.mouseDown(screen.queryAllByTestId('frame-row')[0]);
    const link = await waitFor(() => {
      const rows = screen.queryAllByTestId('tree-row');
      const data = rows.find((r) => r.getAttribute('data-path')?.endsWith('data'));
      if (data && data.getAttribute('aria-expanded') === 'false') fireEvent.doubleClick(data);
      return screen.getByTestId('tree-frame-link');
    });
    expect(link.closest('[data-testid=tree-row]')!.textContent).toContain('attachment #0');
    expect(link.closest('[data-testid=tree-row]')!.textContent).toContain('→ frame 2 (6 B)');
    fireEvent.click(link);
    await waitFor(() =>
      expect(document.querySelector('[data-testid=frame-detail]')?.getAttribute('data-frame-id')).toBe('2'),
    );
  });
});
