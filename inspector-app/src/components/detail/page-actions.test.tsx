// @vitest-environment jsdom
/**
 * Send again and Deliver to page in the app: shown only where the host can, the frame's own
 * bytes, connection and opcode go to the host, its answer is said beside the buttons (a closed
 * socket says so); frames wirescope sent or delivered are marked in the list, and the mark
 * survives a capture file's export and import.
 */
import { afterEach, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { Model } from 'json-joy/lib/json-crdt/model/Model.js';
import { App } from '../../App.js';
import type { AppMessage, WireFrame } from '../../protocol/messages.js';
import { MemoryTransport, type HostCapabilities } from '../../protocol/transport.js';
import { parseCapture, serializeCapture } from '../../sources/capture-file.js';
import { parseHar, buildHar } from '../../../../codecs/capture/har.js';
import { FrameActionClient } from '../../state/frame-action-client.js';
import { inProcessWorker } from '../../worker/in-process.js';

afterEach(cleanup);

const capabilities: HostCapabilities = {
  connect: false,
  sendFrames: false,
  files: true,
  theme: 'light',
  hostName: 'panel',
};
const frame = (data: number[], over: Partial<WireFrame> = {}): WireFrame => ({
  connectionId: 'doc:1',
  direction: 'received',
  time: 1_700_000_000_000,
  opcode: 'binary',
  data: new Uint8Array(data),
  ...over,
});

function mount(caps: HostCapabilities, frames: WireFrame[]) {
  const asked: AppMessage[] = [];
  const transport = new MemoryTransport((m) => {
    if (m.type === 'frame-action') asked.push(m);
  });
  render(<App transport={transport} worker={inProcessWorker()} capabilities={caps} />);
  transport.emit({ type: 'frames', frames });
  return { transport, asked };
}

it('a host without frameActions shows no Send again / Deliver to page', async () => {
  mount(capabilities, [frame([0xa1, 0x61, 0x61, 0x01])]);
  await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(1));
  fireEvent.mouseDown(screen.getAllByTestId('frame-row')[0]!);
  await waitFor(() => expect(screen.getByTestId('frame-detail')).toBeTruthy());
  expect(screen.queryByRole('button', { name: 'Send again' })).toBeNull();
  expect(screen.queryByRole('button', { name: 'Deliver to page' })).toBeNull();
});

it("Send again asks the host with the frame's bytes, connection and opcode, and says what the host answered", async () => {
  const { transport, asked } = mount({ ...capabilities, frameActions: ['send', 'deliver'] }, [
    frame([0xa1, 0x61, 0x61, 0x01]),
  ]);
  await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(1));
  fireEvent.mouseDown(screen.getAllByTestId('frame-row')[0]!);
  fireEvent.click(await screen.findByRole('button', { name: 'Send again' }));
  await waitFor(() => expect(asked).toHaveLength(1));
  const m = asked[0] as Extract<AppMessage, { type: 'frame-action' }>;
  expect({ ...m, data: [...m.data] }).toEqual({
    type: 'frame-action',
    requestId: 1,
    action: 'send',
    connectionId: 'doc:1',
    opcode: 'binary',
    data: [0xa1, 0x61, 0x61, 0x01],
  });
  transport.emit({ type: 'frame-action-result', requestId: 1, ok: true });
  expect((await screen.findByTestId('page-action-outcome')).textContent).toBe('sent again');
  fireEvent.click(screen.getByRole('button', { name: 'Deliver to page' }));
  await waitFor(() => expect(asked).toHaveLength(2));
  transport.emit({ type: 'frame-action-result', requestId: 2, ok: false, error: 'the socket is closed' });
  await waitFor(() =>
    expect(screen.getByTestId('page-action-outcome').textContent).toBe(
      'not delivered to the page: the socket is closed',
    ),
  );
});

it('a done Send again is no longer said once its socket closes: the buttons are off, saying why', async () => {
  const { transport, asked } = mount({ ...capabilities, frameActions: ['send', 'deliver'] }, [frame([0x01])]);
  await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(1));
  fireEvent.mouseDown(screen.getAllByTestId('frame-row')[0]!);
  fireEvent.click(await screen.findByRole('button', { name: 'Send again' }));
  await waitFor(() => expect(asked).toHaveLength(1));
  transport.emit({ type: 'frame-action-result', requestId: 1, ok: true });
  expect((await screen.findByTestId('page-action-outcome')).textContent).toBe('sent again');
  transport.emit({
    type: 'connection-closed',
    connectionId: 'doc:1',
    code: 1000,
    reason: '',
    wasClean: true,
    time: 1_700_000_000_000,
  });
  await waitFor(() => expect(screen.queryByTestId('page-action-outcome')).toBeNull());
  expect(screen.getByTestId('page-actions-blocked').textContent).toMatch(/closed/);
  expect((screen.getByRole('button', { name: 'Send again' }) as HTMLButtonElement).disabled).toBe(true);
});

it('Edit and send: the frame as EDN, the new bytes and what changed before sending; a bad edit says where and sends nothing; the edit goes out as its bytes', async () => {
  const original = new CborEncoder().encode({ a: 1, b: 'x' });
  const { transport, asked } = mount({ ...capabilities, frameActions: ['send', 'deliver'] }, [frame([...original])]);
  await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(1));
  fireEvent.mouseDown(screen.getAllByTestId('frame-row')[0]!);
  fireEvent.click(await screen.findByRole('button', { name: 'Edit and send' }));
  const text = (await screen.findByLabelText('Edit the frame (CBOR as EDN)')) as HTMLTextAreaElement;
  expect(text.value).toBe('{"a": 1, "b": "x"}');
  await waitFor(() => expect(screen.getByTestId('edit-change').textContent).toMatch(/the original bytes, unchanged/));
  fireEvent.change(text, { target: { value: '{"a": 1,\n "b": }' } });
  await waitFor(() =>
    expect(screen.getByTestId('edit-error').textContent).toMatch(/^2:\d+: .* — nothing will be sent$/),
  );
  const send = () => screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement;
  expect(send().disabled).toBe(true);
  fireEvent.change(text, { target: { value: '{"a": 1000, "b": "x"}' } });
  await waitFor(() =>
    expect(screen.getByTestId('edit-change').textContent).toMatch(/^\d+ B \(\+2 B\) · .* first at offset 3/),
  );
  fireEvent.click(send());
  await waitFor(() => expect(asked).toHaveLength(1));
  const m = asked[0] as Extract<AppMessage, { type: 'frame-action' }>;
  expect([...m.data]).toEqual([...new CborEncoder().encode({ a: 1000, b: 'x' })]);
  expect(m.action).toBe('send');
  transport.emit({ type: 'frame-action-result', requestId: m.requestId, ok: true });
  expect((await screen.findByTestId('page-action-outcome')).textContent).toBe('edited frame sent');
  expect(screen.queryByTestId('edit-and-send')).toBeNull();
});

it('a failed Edit and send says why until the text or its format is edited again', async () => {
  const original = new CborEncoder().encode({ a: 1 });
  const { transport, asked } = mount({ ...capabilities, frameActions: ['send', 'deliver'] }, [frame([...original])]);
  await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(1));
  fireEvent.mouseDown(screen.getAllByTestId('frame-row')[0]!);
  fireEvent.click(await screen.findByRole('button', { name: 'Edit and send' }));
  const text = (await screen.findByLabelText('Edit the frame (CBOR as EDN)')) as HTMLTextAreaElement;
  fireEvent.change(text, { target: { value: '{"a": 2}' } });
  const send = () => screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement;
  await waitFor(() => expect(send().disabled).toBe(false));
  fireEvent.click(send());
  await waitFor(() => expect(asked).toHaveLength(1));
  const m = asked[0] as Extract<AppMessage, { type: 'frame-action' }>;
  transport.emit({ type: 'frame-action-result', requestId: m.requestId, ok: false, error: 'the socket is closed' });
  expect((await screen.findByTestId('page-action-outcome')).textContent).toMatch(/^edited frame not sent/);
  expect(screen.getByTestId('edit-and-send')).toBeTruthy();
  fireEvent.change(text, { target: { value: '{"a": 3}' } });
  await waitFor(() => expect(screen.queryByTestId('page-action-outcome')).toBeNull());
});

it('Edit and send on a json-joy CRDT frame says it is view only and offers its bytes as hex', async () => {
  const model = Model.create();
  model.api.set({ title: 'doc' });
  mount({ ...capabilities, frameActions: ['send', 'deliver'] }, [frame([...model.toBinary()])]);
  await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(1));
  fireEvent.mouseDown(screen.getAllByTestId('frame-row')[0]!);
  fireEvent.click(await screen.findByRole('button', { name: 'Edit and send' }));
  await screen.findByLabelText('Edit the frame (hex)');
  expect(screen.getByTestId('edit-note').textContent).toMatch(/^a json-joy CRDT frame is view only/);
});

it("the list's context menu offers the same actions by name; choosing one acts on that frame", async () => {
  const { asked } = mount({ ...capabilities, frameActions: ['send', 'deliver'] }, [frame([1]), frame([2])]);
  await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(2));
  const second = screen.getAllByTestId('frame-row')[1]!;
  expect(fireEvent.contextMenu(second, { clientX: 40, clientY: 60 })).toBe(false); // the browser's own menu is not shown
  const menu = await screen.findByRole('menu', { name: 'Act on the page' });
  expect([...menu.querySelectorAll('[role=menuitem]')].map((b) => b.textContent)).toEqual([
    'Send again',
    'Edit and send',
    'Deliver to page',
  ]);
  fireEvent.click(screen.getByRole('menuitem', { name: 'Deliver to page' }));
  expect(screen.queryByRole('menu')).toBeNull();
  await waitFor(() => expect(asked).toHaveLength(1));
  const m = asked[0] as Extract<AppMessage, { type: 'frame-action' }>;
  expect([m.action, [...m.data]]).toEqual(['deliver', [2]]);
  fireEvent.contextMenu(second, { clientX: 40, clientY: 60 });
  fireEvent.click(await screen.findByRole('menuitem', { name: 'Edit and send' }));
  expect(await screen.findByLabelText(/^Edit the frame/)).toBeTruthy();
});

it("without actions a right-click keeps the browser's own menu", async () => {
  mount(capabilities, [frame([1])]);
  await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(1));
  expect(fireEvent.contextMenu(screen.getAllByTestId('frame-row')[0]!)).toBe(true);
  expect(screen.queryByRole('menu')).toBeNull();
});

it('frames wirescope sent or delivered are marked in the list; the others are not', async () => {
  mount(capabilities, [
    frame([1]),
    frame([2], { direction: 'sent', origin: 'wirescope' }),
    frame([3], { origin: 'wirescope' }),
  ]);
  await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(3));
  const rows = screen.getAllByTestId('frame-row');
  expect(rows.map((r) => r.getAttribute('data-origin'))).toEqual([null, 'wirescope', 'wirescope']);
  expect(rows.map((r) => r.querySelector('[data-column="direction"]')!.getAttribute('aria-label'))).toEqual([
    'received',
    'sent by wirescope',
    'delivered to the page by wirescope',
  ]);
  expect(rows.map((r) => r.querySelector('[data-column="direction"]')!.textContent)).toEqual(['↓', '⇡', '⇣']);
  // The frame's header marks it the same way, with the same words.
  fireEvent.mouseDown(rows[1]!);
  const mark = await screen.findByRole('img', { name: 'sent by wirescope' });
  expect(mark.textContent).toBe('⇡');
  fireEvent.mouseDown(screen.getAllByTestId('frame-row')[0]!);
  await waitFor(() => expect(screen.getByTestId('frame-direction').textContent).toBe('↓'));
  expect(screen.getByTestId('frame-direction').getAttribute('aria-label')).toBe('received');
});

it('the mark survives the capture file and HAR (write, read back)', () => {
  const frames = [
    frame([1]),
    frame([2], { direction: 'sent', origin: 'wirescope' }),
    frame([104, 105], { opcode: 'text', origin: 'wirescope' }),
  ];
  const connections = [{ connectionId: 'doc:1', url: 'ws://x.test/', protocol: '', extensions: '', time: 1 }];
  const back = parseCapture(new TextDecoder().decode(serializeCapture(connections, frames)));
  expect(back.frames.map((f) => f.origin)).toEqual([undefined, 'wirescope', 'wirescope']);
  const har = parseHar(buildHar(connections, frames, { creator: 'wirescope' }));
  expect(har.frames.map((f) => f.origin)).toEqual([undefined, 'wirescope', 'wirescope']);
});

it('an answer that never comes is reported, not waited on forever', async () => {
  const due: (() => void)[] = [];
  const client = new FrameActionClient(new MemoryTransport(), { setTimeout: (fn) => due.push(fn), clearTimeout() {} });
  const outcome = client.act({ action: 'send', connectionId: 'c', opcode: 'text', data: new Uint8Array() });
  for (const fn of due) fn();
  expect(await outcome).toEqual({ ok: false, error: 'no answer from the extension' });
});
