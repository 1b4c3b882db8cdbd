// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { App } from '../../App.js';
import { MemoryTransport } from '../../protocol/transport.js';
import { inProcessWorker } from '../../worker/in-process.js';
import { serializeCapture } from '../../../../codecs/capture/capture-file.js';
import { testHostCapabilities } from '../../test/host-fixtures.js';

const capabilities = testHostCapabilities();

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** A capture file of one connection and two frames, as Export capture writes it. */
function captureBytes(): Uint8Array {
  const frame = (n: number) => ({
    connectionId: 'f1',
    direction: 'received' as const,
    time: n,
    opcode: 'binary' as const,
    data: new CborEncoder().encode(n),
  });
  return serializeCapture(
    [{ connectionId: 'f1', url: 'wss://file.test/', protocol: '', extensions: '', time: 0 }],
    [frame(1), frame(2)],
  );
}

function setup() {
  const transport = new MemoryTransport();
  render(<App transport={transport} worker={inProcessWorker()} capabilities={capabilities} />);
  return transport;
}

describe('toolbar', () => {
  it('an empty inspector disables Pause and the exports, saying why', async () => {
    const transport = setup();
    for (const id of ['pause-button', 'export-har', 'export-capture']) {
      const b = screen.getByTestId(id) as HTMLButtonElement;
      expect(b.disabled, id).toBe(true);
      expect(b.title, id).toMatch(/no frames|nothing/i);
    }
    act(() =>
      transport.emit({
        type: 'frames',
        frames: [
          { connectionId: 'c1', direction: 'received', time: 1, opcode: 'binary', data: new CborEncoder().encode(1) },
        ],
      }),
    );
    await waitFor(() => expect((screen.getByTestId('export-capture') as HTMLButtonElement).disabled).toBe(false));
    expect((screen.getByTestId('export-har') as HTMLButtonElement).disabled).toBe(false);
    expect((screen.getByTestId('pause-button') as HTMLButtonElement).disabled).toBe(false);
  });

  it('a live connection with no frames yet can be paused', async () => {
    const transport = setup();
    act(() =>
      transport.emit({
        type: 'connection-opened',
        connectionId: 'c1',
        url: 'ws://x/y',
        protocol: '',
        extensions: '',
        time: 1,
      }),
    );
    await waitFor(() => expect((screen.getByTestId('pause-button') as HTMLButtonElement).disabled).toBe(false));
    expect((screen.getByTestId('export-capture') as HTMLButtonElement).disabled).toBe(true);
  });

  it('frames read from a file, with no live connection: Pause is off and says why; exports are on', async () => {
    const transport = new MemoryTransport();
    render(<App transport={transport} worker={inProcessWorker()} capabilities={capabilities} />);
    const bytes = captureBytes();
    // jsdom's File has no arrayBuffer(); the browser's does.
    const file = { name: 'demo.wirescope', arrayBuffer: async () => bytes.slice().buffer };
    fireEvent.change(screen.getByTestId('import-input'), { target: { files: [file] } });
    await waitFor(() => expect((screen.getByTestId('export-capture') as HTMLButtonElement).disabled).toBe(false));
    const pause = screen.getByTestId('pause-button') as HTMLButtonElement;
    expect(pause.disabled).toBe(true);
    expect(pause.title).toMatch(/from a file/);
  });

  it('a connection that failed to open leaves Pause off', async () => {
    const transport = setup();
    act(() => {
      transport.emit({ type: 'connection-opening', connectionId: 'c1', url: 'ws://localhost:1/nothing', time: 1 });
      transport.emit({
        type: 'connection-closed',
        connectionId: 'c1',
        code: 1006,
        reason: '',
        wasClean: false,
        time: 2,
      });
    });
    await waitFor(() => expect(screen.getByTestId('pause-button').getAttribute('title')).toMatch(/no frames/));
    expect((screen.getByTestId('pause-button') as HTMLButtonElement).disabled).toBe(true);
  });

  it('Export capture saves capture.wirescope, which the import picker accepts', async () => {
    const transport = setup();
    expect(screen.getByTestId('import-input').getAttribute('accept')?.split(',')).toEqual(
      expect.arrayContaining(['.wirescope', '.wscap', '.json', '.har']),
    );
    act(() =>
      transport.emit({
        type: 'frames',
        frames: [
          { connectionId: 'c1', direction: 'received', time: 1, opcode: 'binary', data: new CborEncoder().encode(1) },
        ],
      }),
    );
    await waitFor(() => expect((screen.getByTestId('export-capture') as HTMLButtonElement).disabled).toBe(false));
    (URL as unknown as { createObjectURL: unknown }).createObjectURL ??= () => '';
    (URL as unknown as { revokeObjectURL: unknown }).revokeObjectURL ??= () => undefined;
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:x');
    const names: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    fireEvent.click(screen.getByTestId('export-capture'));
    await waitFor(() => expect(names).toEqual(['capture.wirescope']));
  });
});
