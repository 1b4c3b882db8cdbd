// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { StrictMode } from 'react';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { App } from './App.js';
import { MemoryTransport } from './protocol/transport.js';
import { inProcessWorker } from './worker/in-process.js';
import { testHostCapabilities } from './test/host-fixtures.js';

const capabilities = testHostCapabilities();

afterEach(cleanup);

describe('the app under React StrictMode (development: effects mount, unmount and mount again)', () => {
  it('still receives frames from its transport after React mounted it twice', async () => {
    const transport = new MemoryTransport();
    render(
      <StrictMode>
        <App transport={transport} worker={inProcessWorker()} capabilities={capabilities} />
      </StrictMode>,
    );
    act(() =>
      transport.emit({
        type: 'frames',
        frames: [
          {
            connectionId: 'c1',
            direction: 'received',
            time: 1,
            opcode: 'text',
            data: new TextEncoder().encode('{"a":1}'),
          },
          { connectionId: 'c1', direction: 'sent', time: 2, opcode: 'text', data: new TextEncoder().encode('[2]') },
        ],
      }),
    );
    await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(2));
    expect(transport.sent.filter((m) => m.type === 'hello').length).toBeGreaterThan(0);
  });

  it('connects once to the ?connect= URL, though React ran the effect twice', async () => {
    const transport = new MemoryTransport();
    render(
      <StrictMode>
        <App
          transport={transport}
          worker={inProcessWorker()}
          capabilities={{ ...capabilities, connect: true }}
          connectUrl="ws://localhost:8080/demo"
        />
      </StrictMode>,
    );
    await waitFor(() => expect(transport.sent.some((m) => m.type === 'connect')).toBe(true));
    expect(transport.sent.filter((m) => m.type === 'connect')).toEqual([
      { type: 'connect', url: 'ws://localhost:8080/demo', protocols: [] },
    ]);
  });
});
