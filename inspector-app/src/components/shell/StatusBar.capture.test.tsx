// @vitest-environment jsdom
/**
 * In the app: each connection says which document (frame URL / origin) opened
 * it, and a host's `uncaptured` notices (a worker whose sockets are not captured) are shown,
 * never silent.
 */
import { afterEach, expect, it } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { App } from '../../App.js';
import { MemoryTransport } from '../../protocol/transport.js';
import { inProcessWorker } from '../../worker/in-process.js';
import { testHostCapabilities } from '../../test/host-fixtures.js';

const capabilities = testHostCapabilities({ files: false });
afterEach(cleanup);

function setup(): MemoryTransport {
  const transport = new MemoryTransport();
  render(<App transport={transport} worker={inProcessWorker()} capabilities={capabilities} />);
  return transport;
}

it('a connection shows the document that opened it', async () => {
  const transport = setup();
  act(() => {
    transport.emit({
      type: 'connection-opening',
      connectionId: 'd:1',
      url: 'ws://a.test/s',
      time: 1,
      documentUrl: 'about:srcdoc',
      documentOrigin: 'http://a.test',
    });
    transport.emit({ type: 'connection-opening', connectionId: 'd:2', url: 'ws://a.test/t', time: 1 });
  });
  await waitFor(() => expect(screen.getAllByTestId('connection-status')).toHaveLength(2));
  const [framed, plain] = screen.getAllByTestId('connection-status');
  expect(framed!.getAttribute('data-document')).toBe('about:srcdoc (origin http://a.test)');
  expect(framed!.getAttribute('title')).toContain('opened by about:srcdoc (origin http://a.test)');
  expect(plain!.getAttribute('data-document')).toBeNull();
});

it('uncaptured notices: how many, what, where and why', async () => {
  const transport = setup();
  const reason = 'WebSockets opened inside a worker are not captured';
  act(() => {
    transport.emit({
      type: 'uncaptured',
      kind: 'dedicated-worker',
      url: 'http://a.test/w.js',
      time: 1,
      reason,
      documentUrl: 'http://a.test/',
    });
    transport.emit({ type: 'uncaptured', kind: 'shared-worker', url: 'http://a.test/s.js', time: 2, reason });
  });
  await waitFor(() => expect(screen.getByTestId('uncaptured-notice')).toBeTruthy());
  const notice = screen.getByTestId('uncaptured-notice');
  expect(notice.textContent).toBe('2 workers: sockets not captured');
  const title = notice.getAttribute('title') ?? '';
  expect(title).toContain('dedicated-worker http://a.test/w.js (started by http://a.test/)');
  expect(title).toContain('shared-worker http://a.test/s.js');
  expect(title).toContain(reason);
});

it('debugger capture: a toggle where the host offers it, its state and the infobar note shown', async () => {
  const transport = new MemoryTransport();
  render(
    <App transport={transport} worker={inProcessWorker()} capabilities={{ ...capabilities, debuggerCapture: true }} />,
  );
  const toggle = await screen.findByTestId('debugger-toggle');
  expect(toggle.getAttribute('aria-pressed')).toBe('false');
  act(() => toggle.click());
  expect(transport.sent).toContainEqual({ type: 'set-debugger-capture', on: true });
  act(() =>
    transport.emit({ type: 'debugger-capture', state: 'on', message: 'debugger capture on. Chrome shows a bar' }),
  );
  await waitFor(() =>
    expect(screen.getByTestId('debugger-status').textContent).toBe('debugger capture on. Chrome shows a bar'),
  );
  expect(screen.getByTestId('debugger-toggle').getAttribute('aria-pressed')).toBe('true');
  act(() => screen.getByTestId('debugger-toggle').click());
  expect(transport.sent).toContainEqual({ type: 'set-debugger-capture', on: false });
});

it('no debugger toggle where the host has none', () => {
  setup();
  expect(screen.queryByTestId('debugger-toggle')).toBeNull();
});
