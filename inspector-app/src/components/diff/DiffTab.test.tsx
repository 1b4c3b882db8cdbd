// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { DiffRow, FrameDiff, WorkerMethods } from '../../worker/api';
import { DiffTab, type DiffTabProps } from './DiffTab';

afterEach(cleanup);

function fakeClient(answer: (a: number, b: number) => FrameDiff | Error) {
  const calls: unknown[] = [];
  return {
    calls,
    call<M extends keyof WorkerMethods>(
      method: M,
      params: WorkerMethods[M]['params'],
    ): Promise<WorkerMethods[M]['result']> {
      calls.push({ method, params });
      if (method !== 'diff') return Promise.reject(new Error(`unexpected ${method}`));
      const p = params as WorkerMethods['diff']['params'];
      const a = answer(p.frameA, p.frameB);
      return a instanceof Error ? Promise.reject(a) : Promise.resolve(a as WorkerMethods[M]['result']);
    },
  };
}

const ROWS: DiffRow[] = [
  {
    path: '$.users[0].name',
    change: 'changed',
    before: '"Ada"',
    after: '"Ada Lovelace"',
    sizeBefore: 4,
    sizeAfter: 13,
  },
  { path: '$.users[1]', change: 'removed', before: '{id: 2, …}', after: '', sizeBefore: 20, sizeAfter: 0 },
  { path: '$.total', change: 'added', before: '', after: '3', sizeBefore: 0, sizeAfter: 1 },
];

const OPTIONS = [
  { frameId: 1, label: '#1 ↑ 120 B' },
  { frameId: 2, label: '#2 ↓ 98 B' },
  { frameId: 3, label: '#3 ↓ 101 B' },
];

/** The frames around ROWS: 6 and 4 bytes more than their fields (heads, unchanged fields). */
const FRAMES_OF_ROWS = { frameBefore: 30, frameAfter: 18 };

function setup(over: Partial<DiffTabProps> = {}, answer: FrameDiff | Error = { rows: ROWS, ...FRAMES_OF_ROWS }) {
  const client = fakeClient(() => answer);
  const onPickB = vi.fn();
  const props: DiffTabProps = { client, frameA: 1, frameB: null, frameOptions: OPTIONS, onPickB, ...over };
  return { ...render(<DiffTab {...props} />), client, onPickB, props };
}

describe('DiffTab', () => {
  it('asks for the other frame and offers the recent ones except frame A', () => {
    const { client, onPickB } = setup();
    expect(client.calls).toHaveLength(0);
    const select = screen.getByRole('combobox', { name: 'Frame to compare with' }) as HTMLSelectElement;
    expect(Array.from(select.options).map((o) => o.value)).toEqual(['', '2', '3']);
    fireEvent.change(select, { target: { value: '3' } });
    expect(onPickB).toHaveBeenCalledWith(3);
  });

  it('keeps the picker list as it was while the picker has focus, frames arriving meanwhile', () => {
    const { rerender, props } = setup();
    const select = screen.getByRole('combobox', { name: 'Frame to compare with' }) as HTMLSelectElement;
    const values = () => Array.from(select.options).map((o) => o.value);
    fireEvent.focus(select);
    rerender(<DiffTab {...props} frameOptions={[...OPTIONS.slice(1), { frameId: 4, label: '#4 ↓ 7 B' }]} />);
    expect(values()).toEqual(['', '2', '3']);
    fireEvent.blur(select);
    expect(values()).toEqual(['', '2', '3', '4']);
  });

  it('renders rows with changes, sizes and deltas, and totals', async () => {
    const { client } = setup({ frameB: 2 });
    expect(client.calls).toEqual([{ method: 'diff', params: { frameA: 1, frameB: 2 } }]);
    const rows = await screen.findAllByTestId('diff-row');
    expect(screen.getByTestId('diff-table')).toBeTruthy();
    expect(rows.map((r) => r.getAttribute('data-change'))).toEqual(['changed', 'removed', 'added']);
    expect(rows.map((r) => r.querySelector('[data-testid="diff-delta"]')!.textContent)).toEqual([
      '+9 B',
      '−20 B',
      '+1 B',
    ]);
    expect(rows.map((r) => r.querySelector('[data-testid="diff-size"]')!.textContent)).toEqual([
      '4 → 13',
      '20 → 0',
      '0 → 1',
    ]);
    expect(rows[0]!.textContent).toContain('"Ada Lovelace"');
    expect(rows[1]!.querySelector('.ws-change-removed')!.textContent).toBe('removed');
    expect(rows[0]!.querySelector('[data-testid="diff-delta"]')!.className).toContain('ws-delta-up');
    expect(rows[1]!.querySelector('[data-testid="diff-delta"]')!.className).toContain('ws-delta-down');
    const totals = screen.getByTestId('diff-totals').textContent;
    expect(totals).toContain('3 differences: 1 added, 1 removed, 1 changed');
    expect(totals).toContain('frames 30 → 18 B (−12 B)');
    expect(totals).toContain('fields listed 24 → 14 B (−10 B)');
    expect((screen.getByRole('combobox') as HTMLSelectElement).value).toBe('2');
  });

  it("heads the totals with the frames' own sizes, not the sum of the fields (which leaves out the root map's head)", async () => {
    // frame #59 (MQTT, 87 B) against #2 (CBOR, 69 B): every field differs; the CBOR map's head is 1 byte.
    const rows: DiffRow[] = [
      { path: '$.type', change: 'removed', before: '"PUBLISH"', after: '', sizeBefore: 1, sizeAfter: 0 },
      { path: '$.topic', change: 'removed', before: '"sensors/…"', after: '', sizeBefore: 23, sizeAfter: 0 },
      { path: '$.payload', change: 'removed', before: '{4 entries}', after: '', sizeBefore: 63, sizeAfter: 0 },
      { path: '$.kind', change: 'added', before: '', after: '"envelope"', sizeBefore: 0, sizeAfter: 15 },
      { path: '$.seq', change: 'added', before: '', after: '1', sizeBefore: 0, sizeAfter: 5 },
      { path: '$.body', change: 'added', before: '', after: "h'84a5…'", sizeBefore: 0, sizeAfter: 48 },
    ];
    setup({ frameB: 2 }, { rows, frameBefore: 87, frameAfter: 69 });
    await screen.findAllByTestId('diff-row');
    expect(screen.getByTestId('diff-frame-sizes').textContent).toBe('frames 87 → 69 B (−18 B)');
    expect(screen.getByTestId('diff-field-sizes').textContent).toBe('fields listed 87 → 68 B (−19 B)');
  });

  it('names no second figure when the fields listed are the whole frames', async () => {
    const rows: DiffRow[] = [{ path: '$', change: 'changed', before: '1', after: '300', sizeBefore: 1, sizeAfter: 3 }];
    setup({ frameB: 2 }, { rows, frameBefore: 1, frameAfter: 3 });
    expect((await screen.findByTestId('diff-totals')).textContent).toBe(
      '1 difference: 0 added, 0 removed, 1 changed · frames 1 → 3 B (+2 B)',
    );
  });

  it('says when the frames hold the same value, and shows errors', async () => {
    setup({ frameB: 3 }, { rows: [], frameBefore: 12, frameAfter: 9 });
    expect((await screen.findByTestId('diff-totals')).textContent).toBe(
      'The frames hold the same value. · frames 12 → 9 B (−3 B)',
    );
    expect(screen.queryByTestId('diff-table')).toBeNull();
    cleanup();
    setup({ frameB: 3 }, new Error('frame 3 is no longer held'));
    expect((await screen.findByRole('alert')).textContent).toBe('frame 3 is no longer held');
  });

  it('reruns when frame B changes and does not diff a frame with itself', async () => {
    const { client, rerender, props } = setup({ frameB: 2 });
    await screen.findAllByTestId('diff-row');
    rerender(<DiffTab {...props} frameB={3} />);
    expect(client.calls).toHaveLength(2);
    await screen.findAllByTestId('diff-row');
    rerender(<DiffTab {...props} frameB={1} />);
    expect(client.calls).toHaveLength(2);
    expect(screen.getByText('Pick a different frame to compare with.')).toBeTruthy();
  });
});
