// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { App } from '../../App.js';
import { MemoryTransport } from '../../protocol/transport.js';
import { inProcessWorker } from '../../worker/in-process.js';
import { KeyOverheadView } from '../bytes/KeyOverheadView.js';
import { PastePage } from '../../pages/PastePage.js';
import { exactBytes, plural } from './format.js';
import { testHostCapabilities } from '../../test/host-fixtures.js';

afterEach(cleanup);

const capabilities = testHostCapabilities();

describe('plural', () => {
  it('one word for one, the plural otherwise, with thousands separators', () => {
    expect(plural(1, 'byte')).toBe('1 byte');
    expect(plural(0, 'byte')).toBe('0 bytes');
    expect(plural(2048, 'frame')).toBe('2,048 frames');
    expect(plural(1, 'entry', 'entries')).toBe('1 entry');
    expect(plural(3, 'entry', 'entries')).toBe('3 entries');
    expect(exactBytes(1)).toBe('1 byte');
  });

  it('the status bar and the import notice count one frame from one connection', async () => {
    const transport = new MemoryTransport();
    render(<App transport={transport} worker={inProcessWorker()} capabilities={capabilities} />);
    act(() =>
      transport.emit({
        type: 'frames',
        frames: [
          { connectionId: 'c1', direction: 'received', time: 1, opcode: 'binary', data: new CborEncoder().encode(1) },
        ],
      }),
    );
    await waitFor(() => expect(screen.getByTestId('frame-count').textContent).toBe('1 frame'));
    const har = {
      log: {
        entries: [
          {
            _resourceType: 'websocket',
            request: { url: 'ws://x/y' },
            response: {},
            startedDateTime: '2024-01-01T00:00:00Z',
            _webSocketMessages: [{ type: 'receive', time: 1, opcode: 1, data: '{"a":1}' }],
          },
        ],
      },
    };
    const file = new File([JSON.stringify(har)], 'one.har', { type: 'application/json' });
    // jsdom's File has no arrayBuffer(); the browser's does.
    Object.defineProperty(file, 'arrayBuffer', {
      value: async () => new TextEncoder().encode(JSON.stringify(har)).buffer,
    });
    fireEvent.change(screen.getByTestId('import-input'), { target: { files: [file] } });
    await waitFor(() =>
      expect(screen.getByTestId('notice').textContent).toContain('one.har: 1 frame from 1 connection'),
    );
    expect(screen.getByTestId('notice').textContent).not.toMatch(/1 frames|1 connections/);
  });

  it('the key overhead note says 1 map, 1 entry, 1 distinct key', () => {
    render(
      <KeyOverheadView
        frameBytes={7}
        keys={{
          maps: 1,
          entries: 1,
          distinctKeys: 1,
          keyBytes: 2,
          valueBytes: 1,
          mapOverheadBytes: 1,
          topKeys: [],
          schema: { bytes: 4, saved: 3, records: 1, recordTagBytes: 1 },
        }}
      />,
    );
    expect(document.body.textContent).toContain('1 map, 1 entry, 1 distinct key;');
    expect(document.body.textContent).toContain('plus 1 byte per record (1 map becomes a record of a known type)');
  });

  it('the paste page says 1 byte from hex', async () => {
    window.history.replaceState(null, '', '/paste.html');
    render(<PastePage worker={inProcessWorker()} />);
    fireEvent.change(screen.getByTestId('paste-input'), { target: { value: '01' } });
    fireEvent.click(screen.getByTestId('decode-button'));
    await waitFor(() => expect(document.body.textContent).toContain('1 byte from hex'));
  });
});
