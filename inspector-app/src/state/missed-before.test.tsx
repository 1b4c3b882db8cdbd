// @vitest-environment jsdom
/**
 * A connection the host saw only after it opened (debugger capture attached to
 * a worker late: `seenFrom`) says so in the status bar instead of looking complete.
 */
import { afterEach, expect, it } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { App } from '../App.js';
import { MemoryTransport } from '../protocol/transport.js';
import { inProcessWorker } from '../worker/in-process.js';
import { formatTime } from '../components/shell/format.js';
import { testHostCapabilities } from '../test/host-fixtures.js';

afterEach(cleanup);

const ATTACHED_AT = Date.UTC(2026, 10, 24, 18, 0, 5);

it('the status bar says it: opened before capture started, frames before HH:MM:SS not seen', async () => {
  const transport = new MemoryTransport();
  const capabilities = testHostCapabilities({ files: false });
  render(<App transport={transport} worker={inProcessWorker()} capabilities={capabilities} />);
  act(() => {
    transport.emit({
      type: 'connection-opening',
      connectionId: 'debugger:s1:r1',
      url: '',
      time: ATTACHED_AT + 2000,
      documentUrl: 'shared_worker http://a.test/s.js',
      seenFrom: ATTACHED_AT,
    });
  });
  await waitFor(() => expect(screen.getAllByTestId('connection-status')).toHaveLength(1));
  const status = screen.getByTestId('connection-status');
  const clock = formatTime(ATTACHED_AT).slice(0, 8);
  expect(status.textContent).toContain(`opened before capture started: frames before ${clock} not seen`);
  expect(status.getAttribute('data-status')).toBe('open');
});
