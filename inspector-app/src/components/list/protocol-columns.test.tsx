// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { App } from '../../App.js';
import { MemoryTransport } from '../../protocol/transport.js';
import type { WireFrame } from '../../protocol/messages.js';
import { inProcessWorker } from '../../worker/in-process.js';
import { LIST_COLUMNS } from './columns.js';
import { testHostCapabilities } from '../../test/host-fixtures.js';

const capabilities = testHostCapabilities();
const text = (s: string, extra: Partial<WireFrame> = {}): WireFrame => ({
  connectionId: 'c1',
  direction: 'received',
  time: 1_700_000_000_000,
  opcode: 'text',
  data: new TextEncoder().encode(s),
  ...extra,
});
const rows = () => screen.queryAllByTestId('frame-row');
const ids = () => rows().map((r) => r.getAttribute('data-frame-id'));
const cell = (row: HTMLElement, column: string) => row.querySelector(`[data-column="${column}"]`) as HTMLElement;

afterEach(cleanup);

async function setup() {
  const transport = new MemoryTransport();
  render(<App transport={transport} worker={inProcessWorker()} capabilities={capabilities} />);
  act(() =>
    transport.emit({
      type: 'frames',
      frames: [
        text('0{"sid":"abc","upgrades":[],"pingInterval":25000,"pingTimeout":20000,"maxPayload":1000000}'),
        text('40{"sid":"s1"}'),
        text('42["chat message",{"text":"hi"}]', { direction: 'sent' }),
        text('2'),
        text('3', { direction: 'sent' }),
        text('[null,"5","room:lobby","new_msg",{"body":"yo"}]'),
        {
          connectionId: 'c1',
          direction: 'received',
          time: 1_700_000_000_000,
          opcode: 'binary',
          data: new CborEncoder().encode({ plain: 1 }),
        },
        text('42["price:tick",{"p":1}]'),
      ],
    }),
  );
  await waitFor(() => expect(rows()).toHaveLength(8));
  return transport;
}

describe('the protocol and event / topic columns', () => {
  it('show the protocol, the event or topic, and the message type when there is no event', async () => {
    await setup();
    const r = rows();
    expect(cell(r[2], 'protocol').textContent).toBe('socket.io');
    expect(cell(r[2], 'event').textContent).toBe('chat message');
    expect(cell(r[2], 'event').title).toContain('EVENT');
    expect(cell(r[1], 'event').textContent).toBe('CONNECT');
    expect(cell(r[3], 'protocol').textContent).toBe('engine.io');
    expect(cell(r[3], 'event').textContent).toBe('ping');
    expect(cell(r[5], 'protocol').textContent).toBe('phoenix');
    expect(cell(r[5], 'event').textContent).toBe('room:lobby new_msg');
    expect(cell(r[6], 'protocol').textContent).toBe('');
    // Keep-alives are dimmed, not hidden.
    expect(r[3].className).toContain('ws-quiet');
    expect(r[4].className).toContain('ws-quiet');
    expect(r[2].className).not.toContain('ws-quiet');
  });

  it('header cells name every column in full, as DevTools headers do', async () => {
    await setup();
    const header = screen.getByTestId('frame-list-header');
    for (const c of LIST_COLUMNS) {
      const h = header.querySelector(`[data-column="${c.id}"]`) as HTMLElement;
      expect(h, c.id).toBeTruthy();
      expect(h.getAttribute('aria-label') ?? h.title).toBe(c.fullName);
    }
    expect(within(header).getByText('protocol')).toBeTruthy();
    expect(within(header).getByText('event / topic')).toBeTruthy();
  });

  it('filters by protocol, by event text, and hides keep-alives', async () => {
    await setup();
    fireEvent.change(screen.getByTestId('protocol-filter'), { target: { value: 'socket.io' } });
    await waitFor(() => expect(ids()).toEqual(['2', '3', '8']));
    fireEvent.change(screen.getByTestId('protocol-filter'), { target: { value: 'none' } });
    await waitFor(() => expect(ids()).toEqual(['7']));
    fireEvent.change(screen.getByTestId('protocol-filter'), { target: { value: 'all' } });
    fireEvent.change(screen.getByTestId('event-filter'), { target: { value: 'PRICE' } });
    await waitFor(() => expect(ids()).toEqual(['8']));
    fireEvent.change(screen.getByTestId('event-filter'), { target: { value: '' } });
    await waitFor(() => expect(rows()).toHaveLength(8));
    fireEvent.click(screen.getByTestId('hide-keepalives'));
    await waitFor(() => expect(ids()).toEqual(['1', '2', '3', '6', '7', '8']));
  });

  it('offers the protocols it recognizes in the dropdown', async () => {
    await setup();
    const options = [...(screen.getByTestId('protocol-filter') as HTMLSelectElement).options].map((o) => o.value);
    for (const p of [
      'all',
      'socket.io',
      'engine.io',
      'phoenix',
      'graphql-ws',
      'centrifugo',
      'wamp',
      'stomp',
      'mqtt',
      'none',
    ])
      expect(options).toContain(p);
  });
});

describe('the hide keep-alives toggle', () => {
  it('shows its new state at once, before the list has redrawn', async () => {
    const { FilterBar } = await import('./FilterBar.js');
    const { NO_FILTERS } = await import('../../state/capture-model.js');
    const changes: unknown[] = [];
    // The parent does not re-render with new filters (as while the next snapshot is pending).
    render(
      <FilterBar
        filters={NO_FILTERS}
        connections={new Map()}
        connectionLabels={new Map()}
        onChange={(p) => changes.push(p)}
        search={null}
      />,
    );
    const box = screen.getByTestId('hide-keepalives') as HTMLInputElement;
    fireEvent.click(box);
    expect(box.checked).toBe(true);
    expect(changes).toEqual([{ hideQuiet: true }]);
  });
});
