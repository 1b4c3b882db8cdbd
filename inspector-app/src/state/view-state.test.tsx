// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { App } from '../App.js';
import { MemoryTransport } from '../protocol/transport.js';
import { inProcessWorker } from '../worker/in-process.js';
import type { CompareRowView, FormatChoice } from '../worker/api.js';
import type { CompareHandlers } from '../worker/client.js';
import { CompareTab } from '../components/compare/CompareTab.js';
import { CompareCache } from './compare-cache.js';
import { testHostCapabilities, wireFrame } from '../test/host-fixtures.js';

const capabilities = testHostCapabilities();
const cbor = (v: unknown) => new CborEncoder().encode(v);
const wire = wireFrame;
const rows = () => screen.queryAllByTestId('frame-row');

afterEach(cleanup);

async function twoFrames() {
  const transport = new MemoryTransport();
  render(<App transport={transport} worker={inProcessWorker()} capabilities={capabilities} />);
  act(() =>
    transport.emit({ type: 'frames', frames: [wire(cbor({ a: [1, 2, 3], b: 'x' })), wire(cbor({ c: 'yy', d: [4] }))] }),
  );
  await waitFor(() => expect(rows()).toHaveLength(2));
  fireEvent.mouseDown(rows()[0]);
  await screen.findByTestId('frame-detail');
}

describe('view state survives stepping through frames', () => {
  it('the chosen tab stays when another frame is selected (click or arrow key)', async () => {
    await twoFrames();
    fireEvent.click(screen.getByTestId('tab-hex'));
    fireEvent.mouseDown(rows()[1]);
    await waitFor(() => expect(screen.getByTestId('frame-detail').getAttribute('data-frame-id')).toBe('2'));
    expect(screen.getByTestId('tab-hex').getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(screen.getByTestId('frame-list'), { key: 'ArrowUp' });
    await waitFor(() => expect(screen.getByTestId('frame-detail').getAttribute('data-frame-id')).toBe('1'));
    expect(screen.getByTestId('tab-hex').getAttribute('aria-selected')).toBe('true');
  });

  it('sort by size stays on for the next frame', async () => {
    await twoFrames();
    fireEvent.click(screen.getByLabelText(/sort by size/));
    fireEvent.mouseDown(rows()[1]);
    await waitFor(() => expect(screen.getByTestId('frame-detail').getAttribute('data-frame-id')).toBe('2'));
    expect((screen.getByLabelText(/sort by size/) as HTMLInputElement).checked).toBe(true);
  });
});

describe('sort by size in the tree', () => {
  it('shows the largest item of the whole array first, beyond the first page', async () => {
    const transport = new MemoryTransport();
    render(<App transport={transport} worker={inProcessWorker()} capabilities={capabilities} />);
    const users = Array.from({ length: 1500 }, (_, i) => (i === 1400 ? 'x'.repeat(100) : `u${i}`));
    act(() => transport.emit({ type: 'frames', frames: [wire(cbor({ users }))] }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    fireEvent.mouseDown(rows()[0]);
    const treeRow = (path: string) =>
      screen.queryAllByTestId('tree-row').find((r) => r.getAttribute('data-path') === path);
    await waitFor(() => expect(treeRow('$.users')).toBeTruthy());
    fireEvent.mouseDown(treeRow('$.users')!);
    fireEvent.keyDown(screen.getByTestId('tree-view'), { key: 'Enter' });
    await waitFor(() => expect(treeRow('$.users[0]')).toBeTruthy());
    fireEvent.click(screen.getByLabelText(/sort by size/));
    await waitFor(() =>
      expect(
        screen
          .getAllByTestId('tree-row')
          .map((r) => r.getAttribute('data-path'))
          .slice(0, 3),
      ).toEqual(['$', '$.users', '$.users[1400]']),
    );
  });
});

function fakeClient() {
  const jobs: { handlers: CompareHandlers; cancel: ReturnType<typeof vi.fn> }[] = [];
  return {
    jobs,
    compare(_frameId: number, _format: FormatChoice, _nodeId: number, handlers: CompareHandlers) {
      const cancel = vi.fn();
      jobs.push({ handlers, cancel });
      return cancel;
    },
    warmCompare() {},
  };
}
const row = (codec: string, size: number): CompareRowView => ({
  codec,
  family: 'cbor',
  size,
  gzipSize: size,
  deflateSize: size,
  encodeOpsPerSec: 1,
  decodeOpsPerSec: 1,
  lossless: 'yes',
  unsupported: null,
});

describe('comparison results are cached per frame', () => {
  it('a running comparison keeps going while its tab is away, and shows its rows on return', () => {
    const client = fakeClient();
    const cache = new CompareCache();
    const props = { client, cache, frameId: 1, format: 'auto' as const, nodeId: 0, nodeLabel: '$', originalSize: 100 };
    const first = render(<CompareTab {...props} />);
    fireEvent.click(screen.getByRole('button', { name: /Run comparison/ }));
    act(() => client.jobs[0].handlers.onRow(row('cbor', 90), 1, 2));
    first.unmount(); // the user opened another tab
    expect(client.jobs[0].cancel).not.toHaveBeenCalled();
    act(() => {
      client.jobs[0].handlers.onRow(row('json', 120), 2, 2);
      client.jobs[0].handlers.onEnd(false, null, '| md |');
    });
    render(<CompareTab {...props} />);
    expect(screen.getByTestId('compare-status').textContent).toBe('2 codecs compared');
    expect(client.jobs).toHaveLength(1);
  });

  it('an evicted frame drops its results', () => {
    const client = fakeClient();
    const cache = new CompareCache();
    cache.run(client, 1, 'auto', 0);
    cache.run(client, 2, 'auto', 0);
    cache.retainFrames((frameId) => frameId !== 1);
    expect(client.jobs[0].cancel).toHaveBeenCalledTimes(1);
    expect(cache.get('1:auto:0')).toBeUndefined();
    expect(cache.get('2:auto:0')?.phase).toBe('running');
  });
});
