// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { App } from '../../App.js';
import { MemoryTransport, type HostCapabilities } from '../../protocol/transport.js';
import type { AppMessage } from '../../protocol/messages.js';
import { inProcessWorker } from '../../worker/in-process.js';
import { CaptureModel } from '../../state/capture-model.js';
import { demoUrlFor } from './demo-url.js';

const capabilities: HostCapabilities = {
  connect: true,
  sendFrames: false,
  files: true,
  theme: 'light',
  hostName: 'web inspector',
};
afterEach(cleanup);

function setup() {
  const sent: AppMessage[] = [];
  const transport = new MemoryTransport((m) => sent.push(m));
  render(
    <App
      transport={transport}
      worker={inProcessWorker()}
      capabilities={capabilities}
      demoUrl="ws://example.test:9999/demo"
    />,
  );
  return { transport, sent };
}

describe('connections', () => {
  it("the URL field defaults to the page's own host", () => {
    expect(demoUrlFor({ protocol: 'http:', host: 'localhost:5173' })).toBe('ws://localhost:5173/demo');
    expect(demoUrlFor({ protocol: 'https:', host: 'inspect.example' })).toBe('wss://inspect.example/demo');
    expect(demoUrlFor({ protocol: 'file:', host: '' })).toBe('ws://localhost:8080/demo');
    setup();
    expect((screen.getByTestId('url-input') as HTMLInputElement).value).toBe('ws://example.test:9999/demo');
  });

  it('a failed connect shows the reason inline, next to the URL', async () => {
    const { transport } = setup();
    fireEvent.click(screen.getByTestId('connect-button'));
    act(() => {
      transport.emit({ type: 'connection-opening', connectionId: 'ws-1', url: 'ws://example.test:9999/demo', time: 1 });
      transport.emit({ type: 'connection-error', connectionId: 'ws-1', message: 'WebSocket error', time: 2 });
      transport.emit({
        type: 'connection-closed',
        connectionId: 'ws-1',
        code: 1006,
        reason: '',
        wasClean: false,
        time: 3,
      });
    });
    const problem = await within(screen.getByRole('form', { name: 'Connection' })).findByTestId('connect-problem');
    expect(problem.textContent).toMatch(/could not connect to ws:\/\/example.test:9999\/demo/i);
    expect(problem.textContent).toMatch(/1006/);
  });

  it('an http:// URL gives a clear error and no nameless connection', () => {
    const model = new CaptureModel((run) => run());
    model.applyHostMessage({
      type: 'connection-error',
      connectionId: 'ws-2',
      message: 'http://x is not a WebSocket URL: use ws:// or wss://',
      time: 1,
    });
    expect(model.getSnapshot().connections.size).toBe(0);
    expect(model.getSnapshot().connectProblem).toMatch(/not a WebSocket URL/);
  });

  it('the empty state offers connect, the demo, paste and a HAR import', () => {
    const { sent } = setup();
    const empty = screen.getByTestId('empty-state');
    expect(within(empty).getByRole('link', { name: /paste/i }).getAttribute('href')).toBe('paste.html');
    expect(within(empty).getByRole('button', { name: /Import a HAR/ })).toBeTruthy();
    fireEvent.click(within(empty).getByRole('button', { name: /demo/ }));
    expect(sent).toContainEqual({ type: 'connect', url: 'ws://example.test:9999/demo', protocols: [] });
  });
});
