// @vitest-environment jsdom
/**
 * A page posting 300,000 socket events (forged, or real sockets
 * opened and closed in a loop) made the panel hang. Each connection event copied the whole
 * connection map (quadratic), and the status bar and the filter rendered every connection.
 * Work per connection event must be constant, and what is rendered bounded.
 */
import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { CaptureModel } from './capture-model.js';
import { StatusBar } from '../components/shell/StatusBar.js';
import { FilterBar } from '../components/list/FilterBar.js';
import { NO_FILTERS } from './capture-model.js';

function cpuMsToOpen(count: number): number {
  const model = new CaptureModel((run) => run());
  const start = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    model.applyHostMessage({ type: 'connection-opening', connectionId: `d:${i}`, url: `wss://a.test/${i}`, time: i });
    model.applyHostMessage({
      type: 'connection-closed',
      connectionId: `d:${i}`,
      code: 1006,
      reason: '',
      wasClean: false,
      time: i,
    });
  }
  expect(Object.keys(model.connectionInfo())).toHaveLength(count);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

describe('a flood of connections', () => {
  it('costs the capture model the same per connection event, however many there are (ratio, not time)', () => {
    cpuMsToOpen(500); // warm-up
    const small = Math.max(1, cpuMsToOpen(1000));
    const large = cpuMsToOpen(8000);
    // Linear: ~8 times; copying the map on every event made it ~64 times.
    expect(large / small).toBeLessThan(24);
  }, 120_000);

  it('the status bar and the connection filter render a bounded number of connections, and say how many more', async () => {
    const model = new CaptureModel((run) => run());
    for (let i = 0; i < 10_000; i++)
      model.applyHostMessage({ type: 'connection-opening', connectionId: `d:${i}`, url: `wss://a.test/${i}`, time: i });
    // Over 2,000 connections the model notifies at most every 100 ms: wait for the last one.
    while (model.getSnapshot().connections.size < 10_000) await new Promise((r) => setTimeout(r, 20));
    const snapshot = model.getSnapshot();
    const labels = new Map([...snapshot.connections.keys()].map((id, i) => [id, `#${i + 1}`]));
    const view = render(
      <div>
        <StatusBar snapshot={snapshot} hostName="panel" capBytes={1 << 28} />
        <FilterBar
          filters={{ ...NO_FILTERS, connection: 'd:3' }}
          connections={snapshot.connections}
          connectionLabels={labels}
          onChange={() => {}}
          search={null}
        />
      </div>,
    );
    const shown = view.getAllByTestId('connection-status');
    expect(shown.length).toBeLessThanOrEqual(8);
    // Shortened (the host said once, by the first label shown); the whole URL in the title.
    expect(shown.at(-1)!.textContent).toContain('…/9999');
    expect(shown.at(-1)!.title).toMatch(/^wss:\/\/a\.test\/9999$/m);
    expect(view.getByTestId('connections-more').textContent).toMatch(/9,?99\d more connections/);
    const options = view.container.querySelectorAll('option');
    expect(options.length).toBeLessThan(600);
    // The selected connection stays selectable even when it is not among the newest.
    expect([...options].some((o) => o.value === 'd:3')).toBe(true);
    view.unmount();
  });
});
