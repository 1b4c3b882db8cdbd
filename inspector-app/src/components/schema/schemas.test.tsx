// @vitest-environment jsdom
/**
 * Protobuf schemas in the UI: load .proto files (file picker and paste), kept in the storage
 * passed in and listed with remove; per connection a message type or auto; raw fields read
 * another way from the node bar ("read as").
 */
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import protobuf from 'protobufjs';
import { App } from '../../App.js';
import { MemoryTransport } from '../../protocol/transport.js';
import { inProcessWorker } from '../../worker/in-process.js';
import { memorySchemas, webStorageSchemas, type SchemaStorage } from './schema-storage.js';
import { testHostCapabilities, wireFrame } from '../../test/host-fixtures.js';

const capabilities = testHostCapabilities();
const PROTO =
  'syntax = "proto3";\npackage demo;\nenum Side { BUY = 0; SELL = 1; }\nmessage Trade { string symbol = 1; Side side = 2; double price = 3; uint32 qty = 4; }\n';
const Trade = protobuf.parse(PROTO, new protobuf.Root(), { keepCase: true }).root.lookupType('demo.Trade');
const trade = Trade.encode(Trade.fromObject({ symbol: 'ACME', side: 1, price: 12.5, qty: 300 })).finish();
const wire = wireFrame;

afterEach(cleanup);

async function openFrame(data: Uint8Array, storage: SchemaStorage) {
  const transport = new MemoryTransport();
  render(<App transport={transport} worker={inProcessWorker()} capabilities={capabilities} schemaStorage={storage} />);
  act(() =>
    transport.emit({
      type: 'connection-opened',
      connectionId: 'c1',
      url: 'ws://x/trades',
      protocol: '',
      time: 1_700_000_000_000,
    } as never),
  );
  act(() => transport.emit({ type: 'frames', frames: [wire(data)] }));
  await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(1));
  fireEvent.mouseDown(screen.getAllByTestId('frame-row')[0]);
  await waitFor(() => expect(screen.getAllByTestId('tree-row').length).toBeGreaterThan(1));
}

const labels = () => screen.getAllByTestId('tree-row').map((r) => r.getAttribute('data-path'));

describe('the Schemas dialog', () => {
  it('rows listed before the schema was loaded are read again: their previews follow it', async () => {
    const transport = new MemoryTransport();
    render(
      <App
        transport={transport}
        worker={inProcessWorker()}
        capabilities={capabilities}
        schemaStorage={memorySchemas()}
      />,
    );
    act(() =>
      transport.emit({
        type: 'frames',
        frames: [wire(trade), wire(Trade.encode(Trade.fromObject({ symbol: 'ZZZ', qty: 1 })).finish())],
      }),
    );
    await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(2));
    const rowText = () => screen.getAllByTestId('frame-row').map((r) => r.textContent ?? '');
    expect(rowText()[0]).toContain('{1: "ACME"');
    fireEvent.click(screen.getByTestId('schemas-button'));
    fireEvent.change(screen.getByLabelText('File name'), { target: { value: 'demo.proto' } });
    fireEvent.change(screen.getByLabelText('Proto source'), { target: { value: PROTO } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(rowText()[0]).toContain('{symbol: "ACME", side: SELL (1), price: 12.5, qty: 300}'));
    expect(rowText()[1]).toContain('{symbol: "ZZZ", qty: 1}');
    await waitFor(() =>
      expect(screen.getByTestId('schema-reread').textContent).toBe('Listed binary frames read again: 2.'),
    );
  });

  it('pasting a .proto names the fields of the open frame, and the file is stored', async () => {
    const storage = memorySchemas();
    await openFrame(trade, storage);
    expect(labels()).toContain('${1}');
    fireEvent.click(screen.getByTestId('schemas-button'));
    fireEvent.change(screen.getByLabelText('File name'), { target: { value: 'demo.proto' } });
    fireEvent.change(screen.getByLabelText('Proto source'), { target: { value: PROTO } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(labels()).toContain('$.symbol'));
    expect(
      screen
        .getAllByTestId('tree-row')
        .map((r) => r.textContent)
        .join(' '),
    ).toContain('SELL (1)');
    expect(storage.load()).toEqual([{ name: 'demo.proto', source: PROTO }]);
    expect(screen.getByTestId('schemas-button').textContent).toBe('Schemas (1)');
  });

  it('a type that fits the open frame is a plain note with a check mark; one with unknown fields is a warning', async () => {
    const storage = memorySchemas([{ name: 'demo.proto', source: PROTO }]);
    await openFrame(trade, storage);
    const banner = await screen.findByTestId('schema-reading');
    expect(banner.className).toBe('ws-banner-note');
    expect(banner.getAttribute('data-fits')).toBe('true');
    expect(banner.textContent).toMatch(
      /^✓ Protobuf schema: read as demo\.Trade, .*\(demo\.Trade: reads whole, 4 known fields\)$/,
    );
    cleanup();

    // The same trade with a field 9 the schema does not know.
    await openFrame(Uint8Array.of(...trade, 0x48, 0x01), storage);
    const poor = await screen.findByTestId('schema-reading');
    expect(poor.className).toBe('ws-banner-warning');
    expect(poor.textContent).toMatch(/^Protobuf schema \(not a perfect fit\): read as demo\.Trade, .*1 unknown\)$/);
  });

  it('stored files load at start; remove takes one away and the frame is raw again', async () => {
    const storage = memorySchemas([{ name: 'demo.proto', source: PROTO }]);
    await openFrame(trade, storage);
    await waitFor(() => expect(labels()).toContain('$.symbol'));
    fireEvent.click(screen.getByTestId('schemas-button'));
    fireEvent.click(screen.getByRole('button', { name: 'Remove demo.proto' }));
    await waitFor(() => expect(labels()).toContain('${1}'));
    expect(storage.load()).toEqual([]);
  });

  it('the file picker loads .proto files', async () => {
    const storage = memorySchemas();
    await openFrame(trade, storage);
    fireEvent.click(screen.getByTestId('schemas-button'));
    const file = new File([PROTO], 'demo.proto', { type: 'text/plain' });
    fireEvent.change(screen.getByTestId('schema-file-input'), { target: { files: [file] } });
    await waitFor(() => expect(labels()).toContain('$.symbol'));
    expect(screen.getByRole('list', { name: 'Loaded .proto files' }).textContent).toContain('demo.proto');
  });

  it('a schema that does not load says why', async () => {
    await openFrame(
      trade,
      memorySchemas([{ name: 'a.proto', source: 'syntax = "proto3"; import "b.proto"; message A { B b = 1; }' }]),
    );
    fireEvent.click(screen.getByTestId('schemas-button'));
    await waitFor(() =>
      expect(screen.getByTestId('schema-error').textContent).toMatch(/import "b\.proto" is not among the loaded files/),
    );
  });

  it('a broken file pasted next to a good one is marked and left out; the good one keeps reading the frame', async () => {
    await openFrame(trade, memorySchemas([{ name: 'demo.proto', source: PROTO }]));
    await waitFor(() => expect(labels()).toContain('$.symbol'));
    fireEvent.click(screen.getByTestId('schemas-button'));
    fireEvent.change(screen.getByLabelText('File name'), { target: { value: 'bad.proto' } });
    fireEvent.change(screen.getByLabelText('Proto source'), {
      target: { value: 'syntax = "proto3";\nmessage Foo { int32 a = 1 }' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() =>
      expect(screen.getByTestId('schema-error').textContent).toMatch(
        /1 of 2 files left out.*bad\.proto: illegal token/,
      ),
    );
    const listed = within(screen.getByRole('list', { name: 'Loaded .proto files' }))
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(listed[0]).toMatch(/^demo\.proto/);
    expect(listed[0]).not.toMatch(/not loaded/);
    expect(listed[1]).toMatch(/^bad\.proto.*not loaded/);
    expect(screen.getByTestId('schemas-button').textContent).toBe('Schemas (2, 1 not loaded)');
    // The frame is still read with demo.proto, and its type stays choosable.
    await waitFor(() => expect(labels()).toContain('$.symbol'));
    expect(
      screen
        .getAllByTestId('tree-row')
        .map((r) => r.textContent)
        .join(' '),
    ).toContain('SELL (1)');
    expect(screen.getByLabelText(/Message type for #1/)).toBeTruthy();
  });

  it('per connection: raw keeps the raw tree, a type or auto reads with the schema', async () => {
    await openFrame(trade, memorySchemas([{ name: 'demo.proto', source: PROTO }]));
    await waitFor(() => expect(labels()).toContain('$.symbol'));
    fireEvent.click(screen.getByTestId('schemas-button'));
    const select = await screen.findByLabelText(/Message type for #1/);
    expect((select as HTMLSelectElement).value).toBe('auto');
    fireEvent.change(select, { target: { value: 'raw' } });
    await waitFor(() => expect(labels()).toContain('${1}'));
    fireEvent.change(select, { target: { value: 'demo.Trade' } });
    await waitFor(() => expect(labels()).toContain('$.symbol'));
  });
});

describe('the Schemas dialog as a dialog', () => {
  it('has a heading and a close control, takes focus on open, and Escape closes it (not the frame) and gives focus back', async () => {
    await openFrame(trade, memorySchemas());
    const button = screen.getByTestId('schemas-button');
    fireEvent.click(button);
    const dialog = screen.getByRole('dialog', { name: 'Protobuf schemas' });
    expect(within(dialog).getByRole('heading', { name: 'Protobuf schemas' })).toBeTruthy();
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));

    // The close control closes it and focus goes back to the button.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(button);

    // Escape, even from inside the paste field, closes the dialog and leaves the frame open.
    fireEvent.click(button);
    const name = screen.getByLabelText('File name');
    name.focus();
    fireEvent.keyDown(name, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(button);
    expect(screen.getAllByTestId('tree-row').length).toBeGreaterThan(1);
  });
});

describe('read as', () => {
  it('a raw length-delimited field shows its reading and switches to another in one click', async () => {
    // field 1 LEN 08 01: read as a message {1: 1}; also packed [8, 1], text, bytes.
    await openFrame(new Uint8Array([0x0a, 0x02, 0x08, 0x01, 0x10, 0x05]), memorySchemas());
    const row = screen.getAllByTestId('tree-row').find((r) => r.getAttribute('data-path') === '${1}')!;
    fireEvent.mouseDown(row);
    await waitFor(() => expect(screen.getByTestId('read-as-message').getAttribute('aria-pressed')).toBe('true'));
    fireEvent.click(screen.getByTestId('read-as-packed'));
    await waitFor(() =>
      expect(screen.getAllByTestId('tree-row').some((r) => r.textContent?.includes('packed'))).toBe(true),
    );
  });
});

describe('schema storage', () => {
  it('keeps files in a Web Storage, and reads a broken entry as none', () => {
    const items = new Map<string, string>();
    const web = {
      getItem: (k: string) => items.get(k) ?? null,
      setItem: (k: string, v: string) => void items.set(k, v),
    };
    const storage = webStorageSchemas(web);
    storage.save([{ name: 'a.proto', source: 'x' }]);
    expect(webStorageSchemas(web).load()).toEqual([{ name: 'a.proto', source: 'x' }]);
    items.set('wirescope.protobuf-schemas', '{not json');
    expect(storage.load()).toEqual([]);
  });
});
