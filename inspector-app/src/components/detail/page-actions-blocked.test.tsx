// @vitest-environment jsdom
/**
 * Send again, Edit and send and Deliver to page are turned off, with the reason in their title
 * and beside them, when the panel already knows the frame's socket cannot take them: it closed,
 * or the page that opened it was left or reloaded. No request goes to the host.
 */
import { afterEach, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from '../../App.js';
import type { AppMessage, HostMessage } from '../../protocol/messages.js';
import { MemoryTransport, type HostCapabilities } from '../../protocol/transport.js';
import { inProcessWorker } from '../../worker/in-process.js';

afterEach(cleanup);

const capabilities: HostCapabilities = {
  connect: false,
  sendFrames: false,
  files: true,
  theme: 'light',
  hostName: 'panel',
  frameActions: ['send', 'deliver'],
};

function mountWithFrame(after: HostMessage[]) {
  const asked: AppMessage[] = [];
  const transport = new MemoryTransport((m) => {
    if (m.type === 'frame-action') asked.push(m);
  });
  render(<App transport={transport} worker={inProcessWorker()} capabilities={capabilities} />);
  transport.emit({
    type: 'connection-opened',
    connectionId: 'doc:1',
    url: 'wss://x.test/',
    protocol: '',
    extensions: '',
    time: 1,
  });
  transport.emit({
    type: 'frames',
    frames: [{ connectionId: 'doc:1', direction: 'sent', time: 2, opcode: 'binary', data: new Uint8Array([1, 2]) }],
  });
  for (const m of after) transport.emit(m);
  return { asked, transport };
}

const buttons = () =>
  ['Send again', 'Edit and send', 'Deliver to page'].map((name) => screen.getByRole('button', { name }));

async function openFrame() {
  await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(1));
  fireEvent.mouseDown(screen.getAllByTestId('frame-row')[0]!);
  await screen.findByRole('button', { name: 'Send again' });
}

it('a socket of a page that was left or reloaded: the actions are off and say why, nothing is asked', async () => {
  const { asked } = mountWithFrame([{ type: 'navigated', url: 'https://x.test/', time: 3 }]);
  await openFrame();
  for (const b of buttons()) {
    expect((b as HTMLButtonElement).disabled).toBe(true);
    expect(b.title).toMatch(/page was left or reloaded/);
  }
  expect(screen.getByTestId('page-actions-blocked').textContent).toMatch(/page was left or reloaded/);
  fireEvent.click(buttons()[0]!);
  expect(asked).toEqual([]);
});

it('a closed socket: the actions are off and say it closed', async () => {
  mountWithFrame([
    { type: 'connection-closed', connectionId: 'doc:1', code: 1000, reason: '', wasClean: true, time: 3 },
  ]);
  await openFrame();
  for (const b of buttons()) {
    expect((b as HTMLButtonElement).disabled).toBe(true);
    expect(b.title).toMatch(/socket is closed/);
  }
});

it('an open socket: the actions are on', async () => {
  mountWithFrame([]);
  await openFrame();
  for (const b of buttons()) expect((b as HTMLButtonElement).disabled).toBe(false);
  expect(screen.queryByTestId('page-actions-blocked')).toBeNull();
});

it('actions turned off in the options: the actions are off and say where to turn them on, until the option is back', async () => {
  const { asked, transport } = mountWithFrame([{ type: 'page-actions', allowed: false }]);
  await openFrame();
  for (const b of buttons()) {
    expect((b as HTMLButtonElement).disabled).toBe(true);
    expect(b.title).toMatch(/Act on the page/);
  }
  fireEvent.click(buttons()[2]!);
  expect(asked).toEqual([]);
  transport.emit({ type: 'page-actions', allowed: true });
  await waitFor(() => {
    for (const b of buttons()) expect((b as HTMLButtonElement).disabled).toBe(false);
  });
});
