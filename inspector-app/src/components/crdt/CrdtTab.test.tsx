// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { CrdtSummary, WorkerMethods } from '../../worker/api';
import { CrdtTab, MAX_VIEW_CHARS } from './CrdtTab';

afterEach(cleanup);

/** A fake client answering `crdt` only. */
function fakeClient(answer: (frameId: number) => CrdtSummary | null | Error) {
  const calls: unknown[] = [];
  return {
    calls,
    call<M extends keyof WorkerMethods>(
      method: M,
      params: WorkerMethods[M]['params'],
    ): Promise<WorkerMethods[M]['result']> {
      calls.push({ method, params });
      if (method !== 'crdt') return Promise.reject(new Error(`unexpected ${method}`));
      const a = answer((params as WorkerMethods['crdt']['params']).frameId);
      return a instanceof Error ? Promise.reject(a) : Promise.resolve(a as WorkerMethods[M]['result']);
    },
  };
}

const model: CrdtSummary = {
  kind: 'model',
  viewJson: '{\n  "title": "hello"\n}',
  clock: [
    { sid: '123456', time: 42 },
    { sid: '777', time: 9 },
  ],
  metadataBytes: 30,
  contentBytes: 90,
  notes: ['truncated at byte 118'],
};

const yjsUpdate: CrdtSummary = {
  kind: 'yjs',
  title: 'update',
  viewJson: '{"message":"sync","step":"update"}',
  clock: [{ sid: '42', time: 5 }],
  metadataBytes: 12,
  contentBytes: 5,
  notes: [],
  ops: [{ nodeId: 9, id: '42.0', op: 'insert string', target: '"t"', detail: '"hello"', span: 5, bytes: 11 }],
};

describe('CrdtTab', () => {
  it('shows a Yjs message: its name, client clocks, byte split and one line per struct', async () => {
    render(<CrdtTab client={fakeClient(() => yjsUpdate)} frameId={1} format="auto" />);
    const rows = await screen.findAllByTestId('crdt-clock-row');
    expect(rows.map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent))).toEqual([['42', '5']]);
    expect(screen.getByRole('table', { name: 'Clock table' }).querySelector('th')?.textContent).toBe('client');
    expect(screen.getByTestId('crdt-kind').textContent).toBe('Yjs update');
    expect(screen.getByTestId('crdt-bytes-content').textContent).toBe('5 B');
    const op = screen.getByTestId('crdt-op-row');
    expect(Array.from(op.querySelectorAll('td')).map((td) => td.textContent)).toEqual([
      '42.0',
      'insert string',
      '"t"',
      '"hello"',
      '11 B',
    ]);
    expect(screen.getByText('Structs and deleted ranges (1)')).toBeTruthy();
    expect(screen.getByTestId('crdt-tab').textContent).toContain('client.clock id and length');
  });

  it('renders kind, clock rows, byte split and the document view', async () => {
    const client = fakeClient(() => model);
    render(<CrdtTab client={client} frameId={3} format="auto" />);
    expect(client.calls).toEqual([{ method: 'crdt', params: { frameId: 3, format: 'auto' } }]);
    const rows = await screen.findAllByTestId('crdt-clock-row');
    expect(rows.map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent))).toEqual([
      ['123456', '42'],
      ['777', '9'],
    ]);
    const bytes = screen.getByTestId('crdt-bytes');
    expect(screen.getByTestId('crdt-bytes-metadata').textContent).toBe('30 B');
    expect(screen.getByTestId('crdt-bytes-content').textContent).toBe('90 B');
    expect(bytes.textContent).toContain('(25.0%)');
    expect(bytes.textContent).toContain('(75.0%)');
    expect(bytes.textContent).toContain('total 120 B');
    expect(screen.getByRole('img', { name: 'metadata 25.0%, content 75.0% of 120 bytes' })).toBeTruthy();
    expect(screen.getByTestId('crdt-kind').textContent).toContain('model');
    expect(screen.getByTestId('crdt-view').textContent).toBe(model.viewJson);
    expect(screen.getByRole('list', { name: 'Notes' }).textContent).toBe('truncated at byte 118');
    expect(screen.getByTestId('crdt-tab').textContent).toContain('Tree tab');
  });

  it('shows a server clock as "server"', async () => {
    const client = fakeClient(() => ({ ...model, clock: [{ sid: 'server', time: 1000 }] }));
    render(<CrdtTab client={client} frameId={1} format="crdt-model" />);
    const [row] = await screen.findAllByTestId('crdt-clock-row');
    expect(row!.textContent).toBe('server1000');
    expect(screen.getByText('Clock (server clock)')).toBeTruthy();
  });

  it('shows patches without a clock table and caps a huge view', async () => {
    const big = '"' + 'x'.repeat(MAX_VIEW_CHARS + 10) + '"';
    const client = fakeClient(() => ({
      kind: 'patch',
      viewJson: big,
      clock: [],
      metadataBytes: 5,
      contentBytes: 0,
      notes: [],
    }));
    render(<CrdtTab client={client} frameId={1} format="auto" />);
    const view = await screen.findByTestId('crdt-view');
    expect(view.textContent!.length).toBe(MAX_VIEW_CHARS);
    expect(screen.getByTestId('crdt-view-cut').textContent).toContain('Showing the first 204,800 of ');
    expect(screen.queryAllByTestId('crdt-clock-row')).toHaveLength(0);
    expect(screen.getByTestId('crdt-kind').textContent).toContain('patch');
  });

  it('says when the frame is not a CRDT, shows errors, and reloads per frame', async () => {
    const client = fakeClient((id) => (id === 1 ? null : new Error('frame evicted')));
    const { rerender } = render(<CrdtTab client={client} frameId={1} format="auto" />);
    expect(await screen.findByText(/not a json-joy CRDT/)).toBeTruthy();
    rerender(<CrdtTab client={client} frameId={2} format="auto" />);
    expect((await screen.findByRole('alert')).textContent).toBe('frame evicted');
  });

  it('points to the Tree tab and selects the root there', async () => {
    const onSelectNode = vi.fn();
    render(<CrdtTab client={fakeClient(() => model)} frameId={1} format="auto" onSelectNode={onSelectNode} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Show the CRDT node tree in the Tree tab' }));
    expect(onSelectNode).toHaveBeenCalledWith(0);
  });

  it('lists a patch as one compact line per operation, the JSON only on request', async () => {
    const patch: CrdtSummary = {
      kind: 'patch',
      viewJson: '{\n  "id": [\n    11019,\n    60\n  ],\n  "ops": []\n}',
      clock: [],
      metadataBytes: 20,
      contentBytes: 5,
      notes: [],
      ops: [
        {
          nodeId: 3,
          id: '11019.60',
          op: 'ins_str',
          target: '65537.21',
          detail: '"demo " after 65537.29',
          span: 5,
          bytes: 12,
        },
        { nodeId: 7, id: '11019.65', op: 'new_obj', target: '', detail: '', span: 1, bytes: 1 },
      ],
    };
    render(<CrdtTab client={fakeClient(() => patch)} frameId={1} format="auto" />);
    const rows = await screen.findAllByTestId('crdt-op-row');
    expect(rows.map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent))).toEqual([
      ['11019.60', 'ins_str', '65537.21', '"demo " after 65537.29', '12 B'],
      ['11019.65', 'new_obj', '', '', '1 B'],
    ]);
    // The verbose JSON is one click away, not the first thing shown.
    expect(screen.getByTestId('crdt-view').closest('details')!.open).toBe(false);
  });
});
