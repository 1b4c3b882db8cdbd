// @vitest-environment jsdom
/**
 * Intercept in the app: the Intercept button and rules editor only where the host can; rules
 * go to the host as they change (the enabled ones); frames a rule held or dropped are marked
 * in the list; the held frames of the selected frame's connection show "N held" with
 * Forward / Edit and forward / Drop / Forward all, which ask the host about the first held frame.
 */
import { afterEach, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from '../../App.js';
import type { AppMessage, HoldState } from '../../protocol/messages.js';
import { KIND_DROPPED, KIND_HELD, KIND_SENT, type PackedFrames } from '../../protocol/packed-frames.js';
import { MemoryTransport, type HostCapabilities } from '../../protocol/transport.js';
import { inProcessWorker } from '../../worker/in-process.js';

afterEach(cleanup);

const capabilities: HostCapabilities = {
  connect: false,
  sendFrames: false,
  files: true,
  theme: 'light',
  hostName: 'panel',
};

/** Three sent frames on doc:1: the first held (number 1), the second dropped, the third plain. */
function packed(): PackedFrames {
  return {
    bytes: new Uint8Array([0xa1, 0x61, 0x61, 0x01, 0x02, 0x03]),
    ends: new Float64Array([4, 5, 6]),
    times: new Float64Array([1_700_000_000_000, 1_700_000_000_001, 1_700_000_000_002]),
    kinds: new Uint8Array([KIND_SENT | KIND_HELD, KIND_SENT | KIND_DROPPED, KIND_SENT]),
    connectionOf: new Uint32Array([0, 0, 0]),
    connections: ['doc:1'],
  } as unknown as PackedFrames;
}

const holdState = (over: Partial<HoldState> = {}): HoldState => ({
  type: 'hold-state',
  connectionId: 'doc:1',
  direction: 'sent',
  time: 1,
  held: 1,
  heldBytes: 4,
  head: 1,
  forwarded: 0,
  dropped: 1,
  lost: 0,
  ...over,
});

function mount(caps: HostCapabilities) {
  const asked: AppMessage[] = [];
  const transport = new MemoryTransport((m) => void asked.push(m));
  render(<App transport={transport} worker={inProcessWorker()} capabilities={caps} />);
  transport.emit({ type: 'frames-packed', packed: packed() });
  return { transport, asked };
}

it('a host without intercept shows no Intercept button and no held controls', async () => {
  mount({ ...capabilities, frameActions: ['send', 'deliver'] });
  await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(3));
  expect(screen.queryByTestId('intercept-button')).toBeNull();
  expect(screen.getAllByTestId('frame-row')[0]!.hasAttribute('data-held')).toBe(false);
});

it('rules go to the host as they change, the enabled ones only', async () => {
  const { asked } = mount({ ...capabilities, frameActions: ['send', 'deliver'], intercept: true });
  fireEvent.click(screen.getByTestId('intercept-button'));
  const dialog = screen.getByTestId('intercept-dialog');
  fireEvent.click(within(dialog).getByRole('button', { name: 'Add rule' }));
  fireEvent.change(within(dialog).getByLabelText('Rule 1 contains'), { target: { value: 'temp' } });
  fireEvent.change(within(dialog).getByLabelText('Rule 1 action'), { target: { value: 'drop' } });
  const rules = asked.filter((m) => m.type === 'set-intercept-rules');
  expect(rules.at(-1)).toMatchObject({
    rules: [{ direction: 'both', url: '', contains: 'temp', action: 'drop' }],
  });
  fireEvent.click(within(dialog).getByLabelText('Rule 1 on'));
  expect(asked.filter((m) => m.type === 'set-intercept-rules').at(-1)).toEqual({
    type: 'set-intercept-rules',
    rules: [],
  });
});

it('a rule for a format goes to the host restricted to the connections that showed that format', async () => {
  const { asked } = mount({ ...capabilities, frameActions: ['send', 'deliver'], intercept: true });
  await waitFor(() => expect(screen.getAllByTestId('frame-row')[0]!.getAttribute('data-format')).toBe('cbor'));
  fireEvent.click(screen.getByTestId('intercept-button'));
  const dialog = screen.getByTestId('intercept-dialog');
  fireEvent.click(within(dialog).getByRole('button', { name: 'Add rule' }));
  fireEvent.change(within(dialog).getByLabelText('Rule 1 format'), { target: { value: 'cbor' } });
  await waitFor(() =>
    expect(asked.filter((m) => m.type === 'set-intercept-rules').at(-1)).toMatchObject({
      rules: [{ action: 'pause', connectionIds: ['doc:1'] }],
    }),
  );
});

it('held and dropped rows are marked; the held frame shows N held with Forward, Edit and forward, Drop and Forward all', async () => {
  const { transport, asked } = mount({ ...capabilities, frameActions: ['send', 'deliver'], intercept: true });
  await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(3));
  const rows = screen.getAllByTestId('frame-row');
  expect(rows.map((r) => [r.hasAttribute('data-held'), r.hasAttribute('data-dropped')])).toEqual([
    [true, false],
    [false, true],
    [false, false],
  ]);
  transport.emit(holdState());
  fireEvent.mouseDown(rows[2]!);
  await waitFor(() => expect(screen.getByTestId('held-count').textContent).toMatch(/^1 held \(sent/));
  for (const name of ['Forward', 'Edit and forward', 'Drop', 'Forward all'])
    expect(screen.getByRole('button', { name })).toBeTruthy();
  // Edit and forward from another frame selects the first held frame first.
  fireEvent.click(screen.getByRole('button', { name: 'Edit and forward' }));
  await waitFor(() => expect(screen.getAllByTestId('frame-row')[0]!.getAttribute('aria-selected')).toBe('true'));
  fireEvent.click(screen.getByRole('button', { name: 'Forward' }));
  await waitFor(() => expect(asked.some((m) => m.type === 'hold-action')).toBe(true));
  const request = asked.find((m) => m.type === 'hold-action')!;
  expect(request).toMatchObject({ action: 'forward', connectionId: 'doc:1', direction: 'sent', seq: 1 });
  transport.emit({ type: 'frame-action-result', requestId: (request as { requestId: number }).requestId, ok: true });
  await waitFor(() => expect(screen.getByTestId('held-outcome').textContent).toBe('forwarded'));
  transport.emit(holdState({ held: 0, head: 0, lost: 1 }));
  await waitFor(() => expect(screen.getByTestId('held-lost').textContent).toMatch(/1 held sent frame not sent/));
  expect(screen.queryByRole('button', { name: 'Forward' })).toBeNull();
});

it("the held frame's editor is Edit and forward, and its button forwards the edit (no Send beside Forward)", async () => {
  const { transport } = mount({ ...capabilities, frameActions: ['send', 'deliver'], intercept: true });
  await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(3));
  transport.emit(holdState());
  fireEvent.mouseDown(screen.getAllByTestId('frame-row')[0]!);
  await waitFor(() => expect(screen.getByTestId('held-count').textContent).toMatch(/^1 held \(sent/));
  fireEvent.click(screen.getByRole('button', { name: 'Edit and forward' }));
  const editor = await screen.findByRole('group', { name: 'Edit and forward' });
  await waitFor(() => expect(within(editor).getByRole('button', { name: 'Forward the edit' })).toBeTruthy());
  expect(within(editor).queryByRole('button', { name: 'Send' })).toBeNull();
});
