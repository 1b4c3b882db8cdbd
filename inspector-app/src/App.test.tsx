// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { MsgPackEncoder } from '@jsonjoy.com/json-pack/lib/msgpack/MsgPackEncoder.js';
import { App } from './App.js';
import { MemoryTransport } from './protocol/transport.js';
import { inProcessWorker } from './worker/in-process.js';
import { testHostCapabilities, wireFrame } from './test/host-fixtures.js';

const capabilities = testHostCapabilities();
const cbor = (v: unknown) => new CborEncoder().encode(v);
const msgpack = (v: unknown) => new MsgPackEncoder().encode(v);
const wire = wireFrame;

afterEach(cleanup);

function setup() {
  const transport = new MemoryTransport();
  const worker = inProcessWorker();
  render(<App transport={transport} worker={worker} capabilities={capabilities} />);
  return { transport, worker };
}

const rows = () => screen.queryAllByTestId('frame-row');
const selectedOffsets = () =>
  screen.queryAllByTestId('hex-byte-selected').map((el) => Number(el.getAttribute('data-offset')));
const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);

describe('frame list', () => {
  it('shows frames from the transport in order with direction, size and format', async () => {
    const { transport } = setup();
    act(() => {
      transport.emit({
        type: 'connection-opened',
        connectionId: 'c1',
        url: 'ws://x/y',
        protocol: '',
        extensions: '',
        time: 1,
      });
      transport.emit({
        type: 'frames',
        frames: [
          wire(cbor({ a: 1 })),
          wire(msgpack({ b: 2 }), { direction: 'sent' }),
          wire(new TextEncoder().encode('{"c":3}'), { opcode: 'text' }),
        ],
      });
    });
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(rows().map((r) => r.getAttribute('data-format'))).toEqual(['cbor', 'msgpack', 'json']);
    expect(within(rows()[1]).getByLabelText('sent')).toBeTruthy();
    expect(rows()[0].textContent).toContain('{a: 1}');
    expect(screen.getByTestId('frame-count').textContent).toBe('3 frames');
  });

  it('filters by format, by decoded text and by path; shows host drops', async () => {
    const { transport } = setup();
    act(() => {
      transport.emit({
        type: 'frames',
        frames: [
          wire(cbor({ user: { name: 'ann' } })),
          wire(msgpack({ user: { name: 'bob' } })),
          wire(cbor({ other: 'zebra' })),
        ],
      });
      transport.emit({ type: 'dropped', count: 7, reason: 'page buffer full' });
    });
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(screen.getByTestId('dropped-count').textContent).toContain('7 lost');
    fireEvent.change(screen.getByTestId('format-filter'), { target: { value: 'cbor' } });
    await waitFor(() => expect(rows()).toHaveLength(2));
    fireEvent.change(screen.getByTestId('format-filter'), { target: { value: 'all' } });
    fireEvent.change(screen.getByTestId('filter-input'), { target: { value: 'ZEBRA' } });
    await waitFor(() => expect(rows().map((r) => r.getAttribute('data-frame-id'))).toEqual(['3']));
    fireEvent.change(screen.getByTestId('filter-input'), { target: { value: '' } });
    fireEvent.change(screen.getByTestId('path-filter-input'), { target: { value: 'user.name' } });
    await waitFor(() => expect(rows().map((r) => r.getAttribute('data-frame-id'))).toEqual(['1', '2']));
    // New frames are matched against the active filter as they arrive.
    act(() =>
      transport.emit({ type: 'frames', frames: [wire(cbor({ user: { name: 'cy' } })), wire(cbor({ nope: 1 }))] }),
    );
    await waitFor(() => expect(rows().map((r) => r.getAttribute('data-frame-id'))).toEqual(['1', '2', '4']));
    // A path that does not parse (half typed) filters nothing, and says so.
    fireEvent.change(screen.getByTestId('path-filter-input'), { target: { value: 'user[' } });
    await waitFor(() => expect(rows()).toHaveLength(5));
    expect(screen.getByRole('alert').textContent).toBe('path: missing "]" at character 5 (not applied)');
  });

  it('pause keeps capturing; resume shows what arrived', async () => {
    const { transport } = setup();
    act(() => transport.emit({ type: 'frames', frames: [wire(cbor(1))] }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    fireEvent.click(screen.getByTestId('pause-button'));
    act(() => transport.emit({ type: 'frames', frames: [wire(cbor(2)), wire(cbor(3))] }));
    await waitFor(() => expect(screen.getByTestId('pause-button').textContent).toContain('2 new'));
    expect(rows()).toHaveLength(1);
    fireEvent.click(screen.getByTestId('pause-button'));
    await waitFor(() => expect(rows()).toHaveLength(3));
  });

  it('arrow keys move the selection', async () => {
    const { transport } = setup();
    act(() => transport.emit({ type: 'frames', frames: [wire(cbor(1)), wire(cbor(2))] }));
    await waitFor(() => expect(rows()).toHaveLength(2));
    const list = screen.getByTestId('frame-list');
    fireEvent.keyDown(list, { key: 'ArrowDown' });
    await waitFor(() => expect(screen.getByTestId('frame-detail').getAttribute('data-frame-id')).toBe('1'));
    fireEvent.keyDown(list, { key: 'ArrowDown' });
    await waitFor(() => expect(screen.getByTestId('frame-detail').getAttribute('data-frame-id')).toBe('2'));
  });
});

describe('keyboard after closing a frame', () => {
  async function threeFramesOpenAt(id: string) {
    const { transport } = setup();
    act(() => transport.emit({ type: 'frames', frames: [wire(cbor(1)), wire(cbor(2)), wire(cbor(3))] }));
    await waitFor(() => expect(rows()).toHaveLength(3));
    fireEvent.mouseDown(rows().find((r) => r.getAttribute('data-frame-id') === id)!);
    await waitFor(() => expect(screen.getByTestId('frame-detail').getAttribute('data-frame-id')).toBe(id));
    fireEvent.keyDown(screen.getByTestId('frame-detail'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('frame-detail')).toBeNull());
    return screen.getByTestId('frame-list');
  }

  it('after Escape, ↓ selects the frame after the one just closed', async () => {
    const list = await threeFramesOpenAt('2');
    fireEvent.keyDown(list, { key: 'ArrowDown' });
    await waitFor(() => expect(screen.getByTestId('frame-detail').getAttribute('data-frame-id')).toBe('3'));
  });

  it('after Escape, ↑ selects the frame before the one just closed', async () => {
    const list = await threeFramesOpenAt('2');
    fireEvent.keyDown(list, { key: 'ArrowUp' });
    await waitFor(() => expect(screen.getByTestId('frame-detail').getAttribute('data-frame-id')).toBe('1'));
  });
});

describe('skip keys', () => {
  async function frameOpen() {
    const { transport } = setup();
    act(() => transport.emit({ type: 'frames', frames: [wire(cbor({ a: [1, 2] })), wire(cbor(2))] }));
    await waitFor(() => expect(rows()).toHaveLength(2));
    fireEvent.mouseDown(rows()[0]);
    await waitFor(() => expect(screen.getAllByTestId('tree-row').length).toBeGreaterThan(0));
    const list = screen.getByTestId('frame-list');
    list.focus();
    return list;
  }

  it('t puts the keyboard in the tree, h in the hex beside it, b on the Bytes tab', async () => {
    const list = await frameOpen();
    fireEvent.keyDown(list, { key: 't' });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('tree-view')));
    fireEvent.keyDown(document.activeElement!, { key: 'h' });
    await waitFor(() => expect(document.activeElement?.closest('.ws-hex-pane')).toBeTruthy());
    expect(document.activeElement?.className).toContain('hex-scroll');
    fireEvent.keyDown(document.activeElement!, { key: 'b' });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('tab-bytes')));
    expect(screen.getByTestId('tab-bytes').getAttribute('aria-selected')).toBe('true');
  });

  it('/ goes to the filter and l back to the list; letters typed in the filter stay there', async () => {
    const list = await frameOpen();
    fireEvent.keyDown(list, { key: '/' });
    const filter = screen.getByTestId('filter-input');
    expect(document.activeElement).toBe(filter);
    fireEvent.keyDown(filter, { key: 't' });
    expect(document.activeElement).toBe(filter);
    fireEvent.keyDown(screen.getByTestId('tree-view'), { key: 'l' });
    expect(document.activeElement).toBe(list);
  });

  it('? lists the keys in an overlay; Esc closes it and leaves the frame open', async () => {
    const list = await frameOpen();
    fireEvent.keyDown(list, { key: '?' });
    const overlay = await screen.findByTestId('help-overlay');
    expect(overlay.getAttribute('role')).toBe('dialog');
    const keys = within(overlay)
      .getAllByRole('rowheader')
      .map((th) => th.textContent);
    expect(keys).toEqual(expect.arrayContaining(['t', 'h', 'b', '/', '?']));
    fireEvent.keyDown(overlay, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('help-overlay')).toBeNull());
    expect(screen.getByTestId('frame-detail')).toBeTruthy();
  });

  it('? pressed with nothing focused: once the overlay closes, Esc closes the frame and ↓ opens the next', async () => {
    await frameOpen();
    (document.activeElement as HTMLElement | null)?.blur();
    expect(document.activeElement).toBe(document.body);
    fireEvent.keyDown(document.body, { key: '?' });
    const overlay = await screen.findByTestId('help-overlay');
    fireEvent.keyDown(overlay, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('help-overlay')).toBeNull());
    expect(document.activeElement).toBe(screen.getByTestId('frame-list'));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('frame-detail')).toBeNull());
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    await waitFor(() => expect(screen.getByTestId('frame-detail').getAttribute('data-frame-id')).toBe('2'));
  });

  it('a focused checkbox takes no letters: t still puts the keyboard in the tree', async () => {
    await frameOpen();
    const checkbox = screen.getByTestId('app').querySelector<HTMLInputElement>('input[type=checkbox]')!;
    checkbox.focus();
    expect(document.activeElement).toBe(checkbox);
    fireEvent.keyDown(checkbox, { key: 't' });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('tree-view')));
  });
});

describe('a long value', () => {
  it("past the row preview's length (200 characters, 64 bytes) is shown whole above the tree", async () => {
    const { transport } = setup();
    const text = Array.from({ length: 20 }, (_, i) => `word${i}-long`).join(' ');
    const sig = Uint8Array.from({ length: 64 }, (_, i) => i);
    act(() => transport.emit({ type: 'frames', frames: [wire(cbor({ text, sig }))] }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    fireEvent.mouseDown(rows()[0]);
    await waitFor(() => expect(screen.getAllByTestId('tree-row').length).toBe(3));
    const row = (path: string) => screen.getAllByTestId('tree-row').find((r) => r.getAttribute('data-path') === path)!;
    fireEvent.mouseDown(row('$.text'));
    await waitFor(() => expect(screen.getByTestId('selected-value').textContent).toBe(JSON.stringify(text)));
    fireEvent.mouseDown(row('$.sig'));
    const hex = [...sig].map((b) => b.toString(16).padStart(2, '0')).join('');
    await waitFor(() => expect(screen.getByTestId('selected-value').textContent).toBe(`h'${hex}'`));
  });

  it('is shown whole, wrapped, once its row is clicked', async () => {
    const { transport } = setup();
    const long = 'https://example.com/statements/2025-Q4/settlement-report-final.pdf';
    act(() => transport.emit({ type: 'frames', frames: [wire(cbor({ short: 'ok', url: long }))] }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    fireEvent.mouseDown(rows()[0]);
    await waitFor(() => expect(screen.getAllByTestId('tree-row').length).toBe(3));
    const row = (path: string) => screen.getAllByTestId('tree-row').find((r) => r.getAttribute('data-path') === path)!;
    fireEvent.mouseDown(row('$.short'));
    await waitFor(() => expect(row('$.short').getAttribute('aria-selected')).toBe('true'));
    expect(screen.queryByTestId('selected-value')).toBeNull();
    fireEvent.mouseDown(row('$.url'));
    await waitFor(() => expect(screen.getByTestId('selected-value').textContent).toBe(JSON.stringify(long)));
  });
});

describe('tree and hex, linked both ways', () => {
  const value = {
    users: [
      { name: 'ann', id: 1 },
      { name: 'bob', id: 2 },
    ],
    ok: true,
  };
  const bytes = cbor(value);

  async function openFrame() {
    const ctx = setup();
    act(() => ctx.transport.emit({ type: 'frames', frames: [wire(bytes)] }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    fireEvent.mouseDown(rows()[0]);
    await waitFor(() => expect(screen.getAllByTestId('tree-row').length).toBeGreaterThan(2));
    return ctx;
  }
  const treeRow = (path: string) =>
    screen.getAllByTestId('tree-row').find((r) => r.getAttribute('data-path') === path)!;

  it('opens one level at once; selecting a node highlights exactly its key and bytes', async () => {
    await openFrame();
    expect(screen.getAllByTestId('tree-row').map((r) => r.getAttribute('data-path'))).toEqual(['$', '$.users', '$.ok']);
    // The root is selected first: the whole frame is highlighted.
    await waitFor(() => expect(selectedOffsets()).toEqual(range(0, bytes.length)));
    const users = treeRow('$.users');
    fireEvent.mouseDown(users);
    const keyStart = Number(users.getAttribute('data-key-start'));
    const start = Number(users.getAttribute('data-start'));
    const end = Number(users.getAttribute('data-end'));
    expect(keyStart).toBe(1);
    await waitFor(() => expect(selectedOffsets()).toEqual(range(keyStart, end)));
    expect(start).toBe(7);
    // Header, key and payload tones differ.
    const cell = (o: number) =>
      screen.getAllByTestId('hex-byte-selected').find((el) => Number(el.getAttribute('data-offset')) === o)!;
    expect(cell(1).className).toContain('hex-key');
    expect(cell(start).className).toContain('hex-header');
    expect(cell(start + 1).className).toContain('hex-payload');
  });

  it('Enter expands; clicking a byte selects the deepest node holding it, opening the tree down to it', async () => {
    await openFrame();
    const tree = screen.getByTestId('tree-view');
    fireEvent.mouseDown(treeRow('$.users'));
    fireEvent.keyDown(tree, { key: 'Enter' });
    await waitFor(() => expect(treeRow('$.users[1]')).toBeTruthy());
    const bob = bytes.findIndex((b, i) => b === 0x62 && bytes[i + 1] === 0x6f && bytes[i + 2] === 0x62); // "bob"
    const byteCell = screen.getAllByText('62').find((el) => Number(el.getAttribute('data-offset')) === bob)!;
    fireEvent.mouseDown(byteCell);
    fireEvent.click(byteCell);
    await waitFor(() => {
      const selected = screen.getAllByTestId('tree-row').find((r) => r.getAttribute('aria-selected') === 'true');
      expect(selected?.getAttribute('data-path')).toBe('$.users[1].name');
    });
  });

  it('a malformed frame shows the error with its offset, the partial tree and the marked byte', async () => {
    const { transport } = setup();
    act(() => transport.emit({ type: 'frames', frames: [wire(Uint8Array.from([0x83, 0x01, 0x02]))] }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    fireEvent.mouseDown(rows()[0]);
    const banner = await screen.findByTestId('error-banner');
    expect(banner.getAttribute('data-offset')).toBe('3');
    await waitFor(() => expect(screen.getAllByTestId('tree-row').length).toBe(3));
    expect(screen.getByTestId('hex-byte-error').getAttribute('data-offset')).toBe('3');
  });
});
