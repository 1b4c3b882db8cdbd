// @vitest-environment jsdom
/**
 * New message in the app: a toolbar button where the host can send on the page; the socket
 * chosen among those the page has (closed ones listed, not choosable, and said so), the
 * format and text taken from the socket's last sent frame, and the composed bytes going to
 * the host as a `send` (or `deliver`) frame action.
 */
import { afterEach, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { encode as cbor2Encode } from 'cbor2';
import { App } from '../../App.js';
import type { AppMessage, HostMessage } from '../../protocol/messages.js';
import { MemoryTransport, type HostCapabilities } from '../../protocol/transport.js';
import { inProcessWorker } from '../../worker/in-process.js';

afterEach(cleanup);

const panel: HostCapabilities = {
  connect: false,
  sendFrames: false,
  files: true,
  theme: 'light',
  hostName: 'panel',
  frameActions: ['send', 'deliver'],
};
const T = 1_700_000_000_000;
const opened = (connectionId: string, url: string): HostMessage[] => [
  { type: 'connection-opening', connectionId, url, time: T },
  { type: 'connection-opened', connectionId, url, protocol: '', extensions: '', time: T },
];

function mount(caps: HostCapabilities, messages: HostMessage[]) {
  const asked: Extract<AppMessage, { type: 'frame-action' }>[] = [];
  const transport = new MemoryTransport((m) => {
    if (m.type === 'frame-action') asked.push(m);
  });
  render(<App transport={transport} worker={inProcessWorker()} capabilities={caps} />);
  for (const m of messages) transport.emit(m);
  return { transport, asked };
}

const editText = () => screen.getByTestId('edit-text') as HTMLTextAreaElement;
const sendButton = () =>
  within(screen.getByTestId('new-message')).getByRole('button', { name: 'Send' }) as HTMLButtonElement;

it('a host without page actions has no New message button', async () => {
  mount({ ...panel, frameActions: undefined }, opened('s:1', 'wss://a/'));
  await screen.findByTestId('app');
  expect(screen.queryByRole('button', { name: 'New message' })).toBeNull();
});

it("starts from the socket's last sent frame in its own format and sends the edited value as CBOR on that socket", async () => {
  const sent = cbor2Encode(
    new Map<string, unknown>([
      ['op', 'join'],
      ['room', 1],
    ]),
  );
  const { transport, asked } = mount(panel, [
    ...opened('s:1', 'wss://a.example/cbor'),
    {
      type: 'frames',
      frames: [{ connectionId: 's:1', direction: 'sent', time: T, opcode: 'binary', data: sent }],
    },
  ]);
  await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(1));
  fireEvent.click(screen.getByRole('button', { name: 'New message' }));
  const group = await screen.findByRole('region', { name: 'New message' });
  expect(within(group).getByLabelText('New message on')).toBeTruthy();
  await waitFor(() => expect(editText().value).toBe('{"op": "join", "room": 1}'));
  expect((screen.getByTestId('edit-format') as HTMLSelectElement).value).toBe('edn');
  await waitFor(() => expect(screen.getByTestId('edit-change').textContent).toMatch(/the original bytes, unchanged/));
  fireEvent.change(editText(), { target: { value: '{"op": "leave", "room": 2}' } });
  await waitFor(() => expect(screen.getByTestId('edit-change').textContent).toMatch(/changed/));
  await waitFor(() => expect(sendButton().disabled).toBe(false));
  fireEvent.click(sendButton());
  await waitFor(() => expect(asked).toHaveLength(1));
  const m = asked[0]!;
  expect({ ...m, data: [...m.data] }).toEqual({
    type: 'frame-action',
    requestId: 1,
    action: 'send',
    connectionId: 's:1',
    opcode: 'binary',
    data: [
      ...cbor2Encode(
        new Map<string, unknown>([
          ['op', 'leave'],
          ['room', 2],
        ]),
      ),
    ],
  });
  transport.emit({ type: 'frame-action-result', requestId: 1, ok: true });
  expect((await screen.findByTestId('new-message-outcome')).textContent).toMatch(/sent$/);
  fireEvent.click(within(group).getByRole('button', { name: 'Deliver to page' }));
  await waitFor(() => expect(asked.map((a) => a.action)).toEqual(['send', 'deliver']));
});

it('closed sockets are listed but not choosable; a socket that closes says so and cannot be sent on', async () => {
  const { transport, asked } = mount(panel, [...opened('s:1', 'wss://a/old'), ...opened('s:2', 'wss://a/live')]);
  transport.emit({ type: 'connection-closed', connectionId: 's:1', code: 1000, reason: '', wasClean: true, time: T });
  fireEvent.click(await screen.findByRole('button', { name: 'New message' }));
  const socket = (await screen.findByTestId('new-message-socket')) as HTMLSelectElement;
  const options = [...socket.options].map((o) => ({ text: o.textContent, disabled: o.disabled }));
  expect(options).toEqual([
    { text: '#1 wss://a/old — closed', disabled: true },
    { text: '#2 wss://a/live', disabled: false },
  ]);
  expect(socket.value).toBe('s:2');
  // With no frame read on it, a socket starts in hex.
  await waitFor(() => expect((screen.getByTestId('edit-format') as HTMLSelectElement).value).toBe('hex'));
  fireEvent.change(editText(), { target: { value: '01 02' } });
  await waitFor(() => expect(sendButton().disabled).toBe(false));
  transport.emit({ type: 'connection-closed', connectionId: 's:2', code: 1001, reason: '', wasClean: true, time: T });
  expect((await screen.findByTestId('new-message-closed')).textContent).toMatch(/#2 is closed: nothing can be sent/);
  expect(sendButton().disabled).toBe(true);
  expect(asked).toHaveLength(0);
});

it('JSON text goes out as a text frame', async () => {
  const { asked } = mount(panel, [
    ...opened('s:1', 'wss://a/json'),
    {
      type: 'frames',
      frames: [
        {
          connectionId: 's:1',
          direction: 'received',
          time: T,
          opcode: 'text',
          data: new TextEncoder().encode('{"x": 1}'),
        },
      ],
    },
  ]);
  await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(1));
  fireEvent.click(await screen.findByRole('button', { name: 'New message' }));
  await waitFor(() => expect((screen.getByTestId('edit-format') as HTMLSelectElement).value).toBe('json'));
  await waitFor(() => expect(sendButton().disabled).toBe(false));
  fireEvent.click(sendButton());
  await waitFor(() => expect(asked).toHaveLength(1));
  expect(asked[0]!.opcode).toBe('text');
  expect(new TextDecoder().decode(asked[0]!.data)).toBe('{"type": "hello", "n": 1}');
});

const closed = (connectionId: string): HostMessage => ({
  type: 'connection-closed',
  connectionId,
  code: 1000,
  reason: '',
  wasClean: true,
  time: T,
});
const sentFrame = (connectionId: string, text: string): HostMessage => ({
  type: 'frames',
  frames: [{ connectionId, direction: 'sent', time: T, opcode: 'text', data: new TextEncoder().encode(text) }],
});
const outcome = () => screen.queryByTestId('new-message-outcome');

it('keeps its socket and the draft when that socket closes after a send, though another socket is listed', async () => {
  const { transport, asked } = mount(panel, [...opened('s:5', 'wss://a/five'), ...opened('s:6', 'wss://a/six')]);
  transport.emit(closed('s:6'));
  fireEvent.click(await screen.findByRole('button', { name: 'New message' }));
  const socket = (await screen.findByTestId('new-message-socket')) as HTMLSelectElement;
  expect(socket.value).toBe('s:5');
  await waitFor(() => expect((screen.getByTestId('edit-format') as HTMLSelectElement).value).toBe('hex'));
  fireEvent.change(screen.getByTestId('edit-format'), { target: { value: 'json' } });
  await waitFor(() => expect((screen.getByTestId('edit-format') as HTMLSelectElement).value).toBe('json'));
  fireEvent.change(editText(), { target: { value: '{"type":"mine"}' } });
  await waitFor(() => expect(sendButton().disabled).toBe(false));
  fireEvent.click(sendButton());
  await waitFor(() => expect(asked).toHaveLength(1));
  transport.emit({ type: 'frame-action-result', requestId: 1, ok: true });
  transport.emit(sentFrame('s:5', '{"type":"mine"}'));
  await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(1));
  fireEvent.change(editText(), { target: { value: '{"type":"second"}' } });
  transport.emit(closed('s:5'));
  expect((await screen.findByTestId('new-message-closed')).textContent).toMatch(/#1 is closed: nothing can be sent/);
  expect(socket.value).toBe('s:5');
  expect(editText().value).toBe('{"type":"second"}');
  expect(sendButton().disabled).toBe(true);
});

it('a socket opening later does not take New message away from the socket it is on', async () => {
  const { transport } = mount(panel, opened('s:1', 'wss://a/one'));
  fireEvent.click(await screen.findByRole('button', { name: 'New message' }));
  const socket = (await screen.findByTestId('new-message-socket')) as HTMLSelectElement;
  await waitFor(() => expect((screen.getByTestId('edit-format') as HTMLSelectElement).value).toBe('hex'));
  fireEvent.change(editText(), { target: { value: '01 02' } });
  for (const m of opened('s:2', 'wss://a/two')) transport.emit(m);
  await waitFor(() => expect(socket.options).toHaveLength(2));
  expect(socket.value).toBe('s:1');
  expect(editText().value).toBe('01 02');
});

it('the sent outcome goes when the text, the format or the socket changes, or the socket closes', async () => {
  const { transport } = mount(panel, [...opened('s:1', 'wss://a/one'), ...opened('s:2', 'wss://a/two')]);
  fireEvent.click(await screen.findByRole('button', { name: 'New message' }));
  const socket = (await screen.findByTestId('new-message-socket')) as HTMLSelectElement;
  let requestId = 0;
  const sendOnce = async (text: string) => {
    fireEvent.change(editText(), { target: { value: text } });
    await waitFor(() => expect(sendButton().disabled).toBe(false));
    fireEvent.click(sendButton());
    transport.emit({ type: 'frame-action-result', requestId: ++requestId, ok: true });
    expect((await screen.findByTestId('new-message-outcome')).textContent).toBe(`${text.split(' ').length} B sent`);
  };
  await waitFor(() => expect((screen.getByTestId('edit-format') as HTMLSelectElement).value).toBe('hex'));
  await sendOnce('01 02');
  fireEvent.change(editText(), { target: { value: '01 02 03' } });
  await waitFor(() => expect(outcome()).toBeNull());

  await sendOnce('01 02 03');
  fireEvent.change(screen.getByTestId('edit-format'), { target: { value: 'edn' } });
  await waitFor(() => expect(outcome()).toBeNull());

  fireEvent.change(screen.getByTestId('edit-format'), { target: { value: 'hex' } });
  await waitFor(() => expect((screen.getByTestId('edit-format') as HTMLSelectElement).value).toBe('hex'));
  await sendOnce('0a');
  fireEvent.change(socket, { target: { value: 's:1' } });
  await waitFor(() => expect(socket.value).toBe('s:1'));
  expect(outcome()).toBeNull();

  await waitFor(() => expect((screen.getByTestId('edit-format') as HTMLSelectElement).value).toBe('hex'));
  await sendOnce('0b 0c');
  transport.emit(closed('s:1'));
  await screen.findByTestId('new-message-closed');
  expect(outcome()).toBeNull();
});

const inspector: HostCapabilities = {
  connect: true,
  sendFrames: true,
  files: true,
  theme: 'light',
  hostName: 'inspector',
  frameActions: ['send'],
};
const cborReceived = (connectionId: string): HostMessage => ({
  type: 'frames',
  frames: [
    {
      connectionId,
      direction: 'received',
      time: T,
      opcode: 'binary',
      data: cbor2Encode(new Map<string, unknown>([['type', 'welcome']])),
    },
  ],
});

it("Compose opened before Connect says to connect first, then starts as it does when opened after the socket's first frame", async () => {
  const { transport } = mount(inspector, []);
  fireEvent.click(await screen.findByTestId('compose-toggle'));
  const group = await screen.findByRole('region', { name: 'Compose' });
  expect(group.textContent).toMatch(/Connect first: Compose sends on the inspector's own connections/);
  expect(group.textContent).not.toMatch(/page/);
  for (const m of opened('s:1', 'ws://localhost/demo')) transport.emit(m);
  transport.emit(cborReceived('s:1'));
  await waitFor(() => expect((screen.getByTestId('edit-format') as HTMLSelectElement).value).toBe('edn'));
  expect(editText().value).toBe('{"type": "hello", "n": 1}');
  const before = editText().value;
  cleanup();

  const again = mount(inspector, [...opened('s:1', 'ws://localhost/demo'), cborReceived('s:1')]);
  await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(1));
  fireEvent.click(await screen.findByTestId('compose-toggle'));
  await waitFor(() => expect((screen.getByTestId('edit-format') as HTMLSelectElement).value).toBe('edn'));
  expect(editText().value).toBe(before);
  expect(again.asked).toHaveLength(0);
});

const unknownReceived = (connectionId: string): HostMessage => ({
  type: 'frames',
  frames: [
    { connectionId, direction: 'received', time: T, opcode: 'binary', data: Uint8Array.of(0xff, 0xfe, 0x00, 0x13) },
  ],
});

it('Compose opened before Connect follows the frames until something is typed, starting as it would had it been opened after them', async () => {
  const { transport } = mount(inspector, []);
  fireEvent.click(await screen.findByTestId('compose-toggle'));
  await screen.findByRole('region', { name: 'Compose' });
  for (const m of opened('s:1', 'ws://localhost/demo')) transport.emit(m);
  // The first frame is nothing the editor writes (hex); the next is CBOR.
  transport.emit(unknownReceived('s:1'));
  await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(1));
  transport.emit(cborReceived('s:1'));
  await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(2));
  await waitFor(() => expect((screen.getByTestId('edit-format') as HTMLSelectElement).value).toBe('edn'));
  expect(editText().value).toBe('{"type": "hello", "n": 1}');
  const before = editText().value;
  cleanup();

  mount(inspector, [...opened('s:1', 'ws://localhost/demo'), unknownReceived('s:1'), cborReceived('s:1')]);
  await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(2));
  fireEvent.click(await screen.findByTestId('compose-toggle'));
  await waitFor(() => expect((screen.getByTestId('edit-format') as HTMLSelectElement).value).toBe('edn'));
  expect(editText().value).toBe(before);
});

it('a draft typed after the first frame is kept when more frames arrive', async () => {
  const { transport } = mount(inspector, opened('s:1', 'ws://localhost/demo'));
  fireEvent.click(await screen.findByTestId('compose-toggle'));
  transport.emit(unknownReceived('s:1'));
  await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(1));
  await waitFor(() => expect((screen.getByTestId('edit-format') as HTMLSelectElement).value).toBe('hex'));
  fireEvent.change(editText(), { target: { value: 'ff' } });
  transport.emit(cborReceived('s:1'));
  await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(2));
  await new Promise((r) => setTimeout(r, 50));
  expect((screen.getByTestId('edit-format') as HTMLSelectElement).value).toBe('hex');
  expect(editText().value).toBe('ff');
});

it('an editor with the caret in it is not started again when frames arrive', async () => {
  const { transport } = mount(inspector, opened('s:1', 'ws://localhost/demo'));
  fireEvent.click(await screen.findByTestId('compose-toggle'));
  await waitFor(() => expect((screen.getByTestId('edit-format') as HTMLSelectElement).value).toBe('hex'));
  editText().focus();
  transport.emit(cborReceived('s:1'));
  await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(1));
  await new Promise((r) => setTimeout(r, 50));
  expect((screen.getByTestId('edit-format') as HTMLSelectElement).value).toBe('hex');
  expect(document.activeElement).toBe(editText());
});

it('a typed draft is kept when the first frame arrives on its socket', async () => {
  const { transport } = mount(inspector, opened('s:1', 'ws://localhost/demo'));
  fireEvent.click(await screen.findByTestId('compose-toggle'));
  await waitFor(() => expect((screen.getByTestId('edit-format') as HTMLSelectElement).value).toBe('hex'));
  fireEvent.change(editText(), { target: { value: 'ff' } });
  transport.emit(cborReceived('s:1'));
  await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(1));
  await new Promise((r) => setTimeout(r, 50));
  expect((screen.getByTestId('edit-format') as HTMLSelectElement).value).toBe('hex');
  expect(editText().value).toBe('ff');
});

it('an empty hex text cannot be sent (it would be a 0-byte frame)', async () => {
  const { asked } = mount(inspector, opened('s:1', 'ws://localhost/demo'));
  fireEvent.click(await screen.findByTestId('compose-toggle'));
  await waitFor(() => expect((screen.getByTestId('edit-format') as HTMLSelectElement).value).toBe('hex'));
  expect(editText().value).toBe('');
  await waitFor(() => expect(screen.getByTestId('edit-change').textContent).toMatch(/0 B/));
  expect(sendButton().disabled).toBe(true);
  fireEvent.click(sendButton());
  fireEvent.change(editText(), { target: { value: '00' } });
  await waitFor(() => expect(sendButton().disabled).toBe(false));
  expect(asked).toHaveLength(0);
});

it('with actions turned off in the options, Send and Deliver to page are off and say why; turned on again, they work', async () => {
  const sent = cbor2Encode({ op: 'join' });
  const { transport, asked } = mount(panel, [
    ...opened('s:1', 'wss://a.example/cbor'),
    { type: 'frames', frames: [{ connectionId: 's:1', direction: 'sent', time: T, opcode: 'binary', data: sent }] },
    { type: 'page-actions', allowed: false },
  ]);
  await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(1));
  fireEvent.click(screen.getByRole('button', { name: 'New message' }));
  const group = await screen.findByRole('region', { name: 'New message' });
  await waitFor(() => expect(editText().value).toBe('{"op": "join"}'));
  await waitFor(() => expect(screen.getByTestId('edit-change').textContent).toMatch(/unchanged/));
  const deliver = within(group).getByRole('button', { name: 'Deliver to page' }) as HTMLButtonElement;
  expect(sendButton().disabled).toBe(true);
  expect(deliver.disabled).toBe(true);
  expect(within(group).getByTestId('new-message-blocked').textContent).toMatch(/actions on the page are turned off/);
  expect(sendButton().title).toMatch(/^Send: actions on the page are turned off/);
  fireEvent.click(sendButton());
  expect(asked).toHaveLength(0);

  transport.emit({ type: 'page-actions', allowed: true });
  await waitFor(() => expect(sendButton().disabled).toBe(false));
  expect(within(group).queryByTestId('new-message-blocked')).toBeNull();
  fireEvent.click(sendButton());
  await waitFor(() => expect(asked).toHaveLength(1));
});

it('New message and Edit and send fold each other: the one opened last is in front, the other keeps its draft behind Show', async () => {
  const sent = cbor2Encode({ op: 'join' });
  mount(panel, [
    ...opened('s:1', 'wss://a.example/cbor'),
    { type: 'frames', frames: [{ connectionId: 's:1', direction: 'sent', time: T, opcode: 'binary', data: sent }] },
  ]);
  await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(1));
  fireEvent.click(screen.getByRole('button', { name: 'New message' }));
  const composer = await screen.findByRole('region', { name: 'New message' });
  await waitFor(() => expect(within(composer).getByTestId('edit-text')).toBeTruthy());
  fireEvent.change(within(composer).getByTestId('edit-text'), { target: { value: '{"op": "draft"}' } });

  fireEvent.mouseDown(screen.getAllByTestId('frame-row')[0]!);
  fireEvent.click(await screen.findByRole('button', { name: 'Edit and send' }));
  const edit = await screen.findByTestId('edit-and-send');
  await waitFor(() => expect(composer.getAttribute('data-folded')).not.toBeNull());
  expect(within(composer).getByTestId('new-message-folded').textContent).toMatch(/folded while Edit and send is open/);
  expect(edit.getAttribute('data-folded')).toBeNull();

  fireEvent.click(within(composer).getByRole('button', { name: 'Show' }));
  await waitFor(() => expect(edit.getAttribute('data-folded')).not.toBeNull());
  expect(composer.getAttribute('data-folded')).toBeNull();
  expect((within(composer).getByTestId('edit-text') as HTMLTextAreaElement).value).toBe('{"op": "draft"}');

  // The frame's own button brings Edit and send back; closing it leaves New message alone and in front.
  fireEvent.click(screen.getByRole('button', { name: 'Edit and send' }));
  await waitFor(() => expect(composer.getAttribute('data-folded')).not.toBeNull());
  fireEvent.click(within(screen.getByTestId('edit-and-send')).getByRole('button', { name: 'Cancel' }));
  await waitFor(() => expect(screen.queryByTestId('edit-and-send')).toBeNull());
  expect(composer.getAttribute('data-folded')).toBeNull();
});
