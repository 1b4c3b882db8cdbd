// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { FilterBar } from './FilterBar.js';
import { NO_FILTERS, type ConnectionState } from '../../state/capture-model.js';

afterEach(cleanup);

const connection = (connectionId: string, url: string): ConnectionState => ({
  connectionId,
  url,
  protocol: '',
  status: 'open',
  detail: '',
});

describe('the connection filter', () => {
  it('names each connection short, as the status bar does, with its whole URL as the tooltip', () => {
    const long = 'wss://realtime.example-exchange.test/demo/market-data/level2?symbols=BTC-USD,ETH-USD';
    const connections = new Map([
      ['c1', connection('c1', long)],
      ['c2', connection('c2', 'ws://localhost:8080/demo')],
    ]);
    render(
      <FilterBar
        filters={{ ...NO_FILTERS, connection: 'c1' }}
        connections={connections}
        connectionLabels={
          new Map([
            ['c1', '#1'],
            ['c2', '#2'],
          ])
        }
        onChange={() => {}}
        search={null}
      />,
    );
    const select = screen.getByRole('combobox', { name: 'Connection' }) as HTMLSelectElement;
    expect([...select.options].map((o) => [o.textContent, o.title])).toEqual([
      ['all connections', ''],
      ['#1 realtime.example-exchange.test/…/level2', long],
      ['#2 localhost:8080/demo', 'ws://localhost:8080/demo'],
    ]);
    // The choice's URL is the select's tooltip.
    expect(select.title).toBe(long);
  });
});
