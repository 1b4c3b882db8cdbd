/**
 * Rows may wait to be read under a flood, except while the list filters by what
 * rows say (format, protocol, event, keep-alives, text, path): the session tells the worker.
 */
import { expect, it } from 'vitest';
import type { Transport } from '../protocol/transport.js';
import type { WorkerClient } from '../worker/client.js';
import { InspectorSession } from './session.js';
import { NO_FILTERS } from './capture-model.js';

it('tells the worker when rows may wait and when they may not', () => {
  const told: boolean[] = [];
  const worker = {
    onSummaries: () => () => {},
    onFilterProgress: () => () => {},
    onReread: () => () => {},
    onTailRows: () => () => {},
    filter: () => {},
    deferRows: (allowed: boolean) => told.push(allowed),
  } as unknown as WorkerClient;
  const transport: Transport = { listen: () => () => {}, send: () => {} };
  const session = new InspectorSession(transport, worker);
  session.setFilters({ direction: 'sent' });
  expect(told).toEqual([]); // direction and connection need no read rows
  session.setFilters({ format: 'cbor' });
  expect(told).toEqual([false]);
  session.setFilters({ event: 'tick' });
  expect(told).toEqual([false]);
  session.setFilters({ format: 'all', event: '' });
  expect(told).toEqual([false, true]);
  session.setFilters({ hideQuiet: true });
  session.setFilters(NO_FILTERS);
  session.setFilters({ protocol: 'mqtt' });
  expect(told).toEqual([false, true, false, true, false]);
});
