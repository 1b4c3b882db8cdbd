// @vitest-environment jsdom
/**
 * The page keeps its frames with the panel open: under a flood the extension's
 * background holds the tab's frames and says how many; the status bar shows the held count
 * and a "Show now" action that asks the host for them, and clears once they have come.
 */
import { afterEach, expect, it } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { App } from '../../App.js';
import { isHostMessage } from '../../protocol/messages.js';
import { MemoryTransport } from '../../protocol/transport.js';
import { inProcessWorker } from '../../worker/in-process.js';
import { testHostCapabilities } from '../../test/host-fixtures.js';

const capabilities = testHostCapabilities({ files: false });
afterEach(cleanup);

it('shows the frames the host holds under a flood, asks for them on "Show now", and clears when none are held', async () => {
  const transport = new MemoryTransport();
  render(<App transport={transport} worker={inProcessWorker()} capabilities={capabilities} />);
  expect(screen.queryByTestId('held-notice')).toBeNull();
  act(() => transport.emit({ type: 'held', frames: 23_456, bytes: 24_000_000 }));
  const notice = await screen.findByTestId('held-notice');
  expect(notice.textContent).toContain('flood: 23,456 frames held in the extension — shown when it calms');
  expect(notice.getAttribute('title')).toContain('22.9 MiB');
  act(() => screen.getByRole('button', { name: 'Show now' }).click());
  expect(transport.sent).toContainEqual({ type: 'show-held' });
  act(() => transport.emit({ type: 'held', frames: 0, bytes: 0 }));
  await waitFor(() => expect(screen.queryByTestId('held-notice')).toBeNull());
});

it('validates held messages by shape', () => {
  expect(isHostMessage({ type: 'held', frames: 3, bytes: 10 })).toBe(true);
  expect(isHostMessage({ type: 'held', frames: -1, bytes: 10 })).toBe(false);
  expect(isHostMessage({ type: 'held', frames: 3 })).toBe(false);
});

it('says how many frames per second arrive, are shown and are held, and what is held per connection', async () => {
  const transport = new MemoryTransport();
  render(<App transport={transport} worker={inProcessWorker()} capabilities={capabilities} />);
  act(() => {
    transport.emit({
      type: 'connection-opened',
      connectionId: 'doc:1',
      url: 'wss://feed.test/',
      protocol: '',
      extensions: '',
      time: 1,
    });
    transport.emit({
      type: 'held',
      frames: 12_000,
      bytes: 12_000_000,
      arriving: 10_000,
      heldPerSecond: 9_000,
      connections: [{ connectionId: 'doc:1', frames: 12_000, perSecond: 10_000 }],
    });
  });
  const rates = await screen.findByTestId('flood-rates');
  expect(rates.textContent).toBe('10,000/s arriving · 0/s shown · 9,000/s held');
  expect((await screen.findByTestId('connection-held')).textContent).toBe(' · 12,000 held, 10,000/s');
  act(() => transport.emit({ type: 'held', frames: 0, bytes: 0 }));
  await waitFor(() => expect(screen.queryByTestId('flood-rates')).toBeNull());
  expect(screen.queryByTestId('connection-held')).toBeNull();
});
