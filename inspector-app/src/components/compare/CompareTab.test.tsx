// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { CompareRowView, FormatChoice } from '../../worker/api';
import type { CompareHandlers } from '../../worker/client';
import { CompareTab, WARM_AFTER_MS, type CompareTabProps } from './CompareTab';

afterEach(cleanup);

interface Job {
  frameId: number;
  nodeId: number;
  handlers: CompareHandlers;
  cancel: ReturnType<typeof vi.fn>;
}

/** A fake client: records each job; the test drives rows and the end by hand. */
function fakeClient() {
  const jobs: Job[] = [];
  const warms: { frameId: number; nodeId: number }[] = [];
  return {
    jobs,
    warms,
    warmCompare(frameId: number, _format: FormatChoice, nodeId: number) {
      warms.push({ frameId, nodeId });
    },
    compare(frameId: number, _format: FormatChoice, nodeId: number, handlers: CompareHandlers) {
      const cancel = vi.fn();
      jobs.push({ frameId, nodeId, handlers, cancel });
      return cancel;
    },
  };
}

const row = (codec: string, size: number, over: Partial<CompareRowView> = {}): CompareRowView => ({
  codec,
  family: 'cbor',
  size,
  gzipSize: Math.round(size * 0.6),
  deflateSize: Math.round(size * 0.58),
  encodeOpsPerSec: 100_000 - size,
  decodeOpsPerSec: 50_000 + size,
  lossless: 'yes',
  unsupported: null,
  ...over,
});

const unsupported = (codec: string): CompareRowView => ({
  codec,
  family: 'crdt',
  size: null,
  gzipSize: null,
  deflateSize: null,
  encodeOpsPerSec: null,
  decodeOpsPerSec: null,
  lossless: '',
  unsupported: 'value holds bytes',
});

function setup(over: Partial<CompareTabProps> = {}) {
  const client = fakeClient();
  const props: CompareTabProps = {
    client,
    frameId: 1,
    format: 'auto',
    nodeId: 0,
    nodeLabel: '$',
    originalSize: 200,
    ...over,
  };
  const utils = render(<CompareTab {...props} />);
  return { ...utils, client, props };
}

/** Markdown in the worker's shape (codecs/compare/format.ts formatMarkdown, title `frame #1`). */
const markdown = (codecs: readonly string[]): string =>
  [
    '### frame #1',
    '',
    '| codec | size | lossless |',
    '| --- | ---: | --- |',
    ...codecs.map((c) => `| ${c} | 100 | yes |`),
  ].join('\n');

const bodyRows = () => within(screen.getByTestId('compare-table')).getAllByTestId('compare-row');
const codecsInOrder = () => bodyRows().map((r) => r.querySelector('td')!.textContent);

describe('CompareTab', () => {
  it('does not auto-run; the button names the node', () => {
    const { client, rerender, props } = setup();
    expect(client.jobs).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Run comparison of the whole frame' })).toBeTruthy();
    rerender(<CompareTab {...props} nodeId={4} nodeLabel="$.users" />);
    expect(screen.getByRole('button', { name: 'Run comparison of $.users' })).toBeTruthy();
  });

  it('asks the worker to warm the comparison lanes once per node shown for WARM_AFTER_MS (it decides by size), not again on Run', () => {
    vi.useFakeTimers();
    try {
      const { client, rerender, props } = setup();
      expect(client.warms).toEqual([]);
      act(() => vi.advanceTimersByTime(WARM_AFTER_MS));
      expect(client.warms).toEqual([{ frameId: 1, nodeId: 0 }]);
      rerender(<CompareTab {...props} nodeLabel="$ " />);
      act(() => vi.advanceTimersByTime(WARM_AFTER_MS));
      expect(client.warms).toHaveLength(1);
      // Stepping on: a node shown for less than the pause is not warmed for.
      rerender(<CompareTab {...props} nodeId={3} nodeLabel="$.a" />);
      act(() => vi.advanceTimersByTime(WARM_AFTER_MS - 50));
      rerender(<CompareTab {...props} nodeId={4} nodeLabel="$.users" />);
      act(() => vi.advanceTimersByTime(WARM_AFTER_MS));
      expect(client.warms).toEqual([
        { frameId: 1, nodeId: 0 },
        { frameId: 1, nodeId: 4 },
      ]);
      fireEvent.click(screen.getByRole('button', { name: /Run comparison/ }));
      act(() => vi.advanceTimersByTime(WARM_AFTER_MS));
      expect(client.warms).toHaveLength(2);
      expect(client.jobs).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows rows progressively, then the table sorted by size, with ratios and greyed unsupported rows', () => {
    const { client } = setup({ nodeId: 3, nodeLabel: '$.users' });
    fireEvent.click(screen.getByRole('button', { name: /Run comparison/ }));
    expect(client.jobs).toHaveLength(1);
    expect(client.jobs[0]).toMatchObject({ frameId: 1, nodeId: 3 });
    expect(screen.getByTestId('compare-progress').textContent).toBe('0 / 16 codecs');
    const { handlers } = client.jobs[0]!;
    act(() => handlers.onRow(row('json', 300, { family: 'json' }), 1, 16));
    expect(screen.getByTestId('compare-progress').textContent).toBe('1 / 16 codecs');
    expect(bodyRows()).toHaveLength(1);
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('1');
    act(() => handlers.onRow(row('cbor', 100), 2, 16));
    act(() => handlers.onRow(unsupported('json-crdt'), 3, 16));
    expect(screen.getByTestId('compare-progress').textContent).toBe('3 / 16 codecs');
    // Unsupported codecs are grouped by reason below the measured ones.
    expect(codecsInOrder()).toEqual(['cbor', 'json']);
    expect(screen.getByTestId('compare-row-group').textContent).toContain('json-crdt');
    act(() => handlers.onEnd(false, null, '| codec |'));
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByTestId('compare-status').textContent).toBe('3 codecs compared');
    const cells = Array.from(bodyRows()[0]!.querySelectorAll('td')).map((td) => td.textContent);
    expect(cells).toEqual(['cbor', 'cbor', '100', '0.50×', '60', '58', '99.9k', '50.1k', 'yes']);
    const grey = screen.getByTestId('compare-row-group');
    expect(grey.className).toContain('ws-row-unsupported');
    expect(grey.textContent).toContain('unsupported: value holds bytes');
    // Both charts show the measured codecs only.
    expect(screen.getByRole('img', { name: 'cbor gzip: 60 B' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'json decode: 19.9 µs per op (50.3k ops/s)' })).toBeTruthy();
    expect(screen.queryByRole('img', { name: /json-crdt/ })).toBeNull();
  });

  it('sorts by clicking headers and toggles direction', () => {
    const { client } = setup();
    fireEvent.click(screen.getByRole('button', { name: /Run comparison/ }));
    const { handlers } = client.jobs[0]!;
    act(() => {
      handlers.onRow(row('b-codec', 300), 1, 3);
      handlers.onRow(row('a-codec', 200), 2, 3);
      handlers.onRow(row('c-codec', 100), 3, 3);
      handlers.onEnd(false, null, 'md');
    });
    expect(codecsInOrder()).toEqual(['c-codec', 'a-codec', 'b-codec']);
    fireEvent.click(screen.getByRole('button', { name: 'Sort by size (B)' }));
    expect(codecsInOrder()).toEqual(['b-codec', 'a-codec', 'c-codec']);
    fireEvent.click(screen.getByRole('button', { name: 'Sort by codec' }));
    expect(codecsInOrder()).toEqual(['a-codec', 'b-codec', 'c-codec']);
    expect(screen.getByRole('button', { name: 'Sort by codec' }).closest('th')!.getAttribute('aria-sort')).toBe(
      'ascending',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Sort by encode ops/s' }));
    expect(codecsInOrder()).toEqual(['c-codec', 'a-codec', 'b-codec']);
  });

  it('one codec is "1 codec", not "1 codecs"', () => {
    const { client } = setup();
    fireEvent.click(screen.getByRole('button', { name: /Run comparison/ }));
    act(() => client.jobs[0]!.handlers.onRow(row('cbor', 100), 1, 16));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel comparison' }));
    expect(screen.getByTestId('compare-status').textContent).toBe('cancelled after 1 codec');
  });

  it('cancel calls the cancel function and reports how far it got', () => {
    const { client } = setup();
    fireEvent.click(screen.getByRole('button', { name: /Run comparison/ }));
    const job = client.jobs[0]!;
    act(() => {
      job.handlers.onRow(row('cbor', 100), 1, 16);
      job.handlers.onRow(row('json', 150), 2, 16);
    });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel comparison' }));
    expect(job.cancel).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('compare-status').textContent).toBe('cancelled after 2 codecs');
    // A row still in flight is ignored; the end still brings the partial Markdown.
    act(() => {
      job.handlers.onRow(row('msgpack', 90), 3, 16);
      job.handlers.onEnd(true, 'The operation was aborted', markdown(['cbor', 'json', 'msgpack']));
    });
    expect(bodyRows()).toHaveLength(2);
    expect(screen.getByTestId('compare-status').textContent).toBe('cancelled after 2 codecs');
    expect(screen.queryByRole('alert')).toBeNull();
    expect((screen.getByRole('button', { name: 'Copy comparison as Markdown' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
  });

  it('shows errors from the worker', () => {
    const { client } = setup();
    fireEvent.click(screen.getByRole('button', { name: /Run comparison/ }));
    act(() => client.jobs[0]!.handlers.onEnd(false, 'the frame does not decode', ''));
    expect(screen.getByRole('alert').textContent).toBe('the frame does not decode');
  });

  it('resets and cancels the running job when the node changes', () => {
    const { client, rerender, props } = setup();
    fireEvent.click(screen.getByRole('button', { name: /Run comparison/ }));
    const job = client.jobs[0]!;
    act(() => job.handlers.onRow(row('cbor', 100), 1, 16));
    rerender(<CompareTab {...props} nodeId={7} nodeLabel="$.items" />);
    expect(job.cancel).toHaveBeenCalledTimes(1);
    expect(screen.queryByTestId('compare-table')).toBeNull();
    expect(screen.queryByRole('progressbar')).toBeNull();
    act(() => job.handlers.onRow(row('json', 100), 2, 16));
    expect(screen.queryByTestId('compare-table')).toBeNull();
    expect(screen.getByRole('button', { name: 'Run comparison of $.items' })).toBeTruthy();
  });

  it('copies the Markdown through the injected clipboard and shows a toast', async () => {
    const writeText = vi.fn(async (_: string) => {});
    const { client } = setup({ clipboard: { writeText } });
    const copyButton = screen.getByRole('button', { name: 'Copy comparison as Markdown' }) as HTMLButtonElement;
    expect(copyButton.disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: /Run comparison/ }));
    act(() => {
      client.jobs[0]!.handlers.onRow(row('cbor', 100), 1, 1);
      client.jobs[0]!.handlers.onEnd(false, null, '| codec | size |\n|---|---|\n| cbor | 100 |');
    });
    await act(async () => {
      fireEvent.click(copyButton);
    });
    expect(writeText).toHaveBeenCalledWith('| codec | size |\n|---|---|\n| cbor | 100 |');
    expect(screen.getByTestId('compare-toast').textContent).toBe('Copied as Markdown');
  });

  it('falls back to a selected textarea and execCommand when the clipboard rejects', async () => {
    const writeText = vi.fn(async () => {
      throw new Error('denied');
    });
    const exec = vi.fn((_: string) => true);
    const original = document.execCommand;
    document.execCommand = exec as unknown as typeof document.execCommand;
    try {
      const { client } = setup({ clipboard: { writeText } });
      fireEvent.click(screen.getByRole('button', { name: /Run comparison/ }));
      act(() => client.jobs[0]!.handlers.onEnd(false, null, markdown(['cbor'])));
      await act(async () => {
        fireEvent.click(screen.getByRole('button', { name: 'Copy comparison as Markdown' }));
      });
      expect(exec).toHaveBeenCalledWith('copy');
      expect(screen.getByTestId('compare-toast').textContent).toBe('Copied as Markdown');
      expect(document.querySelector('textarea')).toBeNull();
    } finally {
      document.execCommand = original;
    }
  });

  it('says why for every "—": a tooltip on the cell and a numbered footnote', () => {
    const { client } = setup();
    fireEvent.click(screen.getByRole('button', { name: /Run comparison/ }));
    const { handlers } = client.jobs[0]!;
    const tooFast = 'faster than the clock can time here: every run took less than its resolution';
    act(() => {
      handlers.onRow(row('cbor', 100, { encodeOpsPerSec: null, why: { encode: tooFast } }), 1, 2);
      handlers.onRow(
        row('ion', 120, {
          decodeOpsPerSec: null,
          lossless: 'no: decode',
          why: { decode: 'the decoder failed: bad byte' },
        }),
        2,
        2,
      );
      handlers.onEnd(false, null, '');
    });
    const dashes = screen.getAllByTestId('compare-why');
    expect(dashes.map((d) => d.getAttribute('title'))).toEqual([tooFast, 'the decoder failed: bad byte']);
    expect(dashes.map((d) => d.textContent)).toEqual(['—1', '—2']);
    const notes = within(screen.getByTestId('compare-footnotes'))
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(notes).toEqual([tooFast, 'the decoder failed: bad byte']);
  });

  it('groups unsupported codecs that share a reason into one row', () => {
    const { client } = setup();
    fireEvent.click(screen.getByRole('button', { name: /Run comparison/ }));
    const { handlers } = client.jobs[0]!;
    act(() => {
      handlers.onRow(row('cbor', 100), 1, 4);
      handlers.onRow(unsupported('json-crdt'), 2, 4);
      handlers.onRow(unsupported('json-crdt-compact'), 3, 4);
      handlers.onRow({ ...unsupported('bson'), family: 'bson', unsupported: 'the root is not an object' }, 4, 4);
      handlers.onEnd(false, null, '');
    });
    const groups = screen.getAllByTestId('compare-row-group');
    expect(groups).toHaveLength(2);
    expect(groups[0]!.textContent).toContain('json-crdt, json-crdt-compact');
    expect(groups[0]!.textContent).toContain('unsupported (2 codecs): value holds bytes');
    expect(groups[1]!.textContent).toContain('bson');
  });

  it('charts carry their values, an axis and which way is better', () => {
    const { client } = setup();
    fireEvent.click(screen.getByRole('button', { name: /Run comparison/ }));
    const { handlers } = client.jobs[0]!;
    act(() => {
      handlers.onRow(row('cbor', 100), 1, 2);
      handlers.onRow(row('json', 300, { family: 'json' }), 2, 2);
      handlers.onEnd(false, null, '');
    });
    const charts = screen.getByTestId('compare-charts');
    expect(within(charts).getAllByText(/lower is better/)).toHaveLength(2);
    const size = within(charts).getByRole('figure', { name: /Size per codec/ });
    expect(
      within(size)
        .getAllByTestId('chart-value')
        .map((v) => v.textContent),
    ).toEqual(['100 B', '60 B', '300 B', '180 B']);
    expect(within(size).getByTestId('chart-axis').textContent).toBe('0 B150 B300 B');
  });

  // A cancelled run's Markdown said nothing of being partial (11 of 16 rows, no marker), and
  // a run cancelled before any row copied a header-only table.
  it('a cancelled run copies Markdown that says it is partial', async () => {
    const writeText = vi.fn(async (_: string) => {});
    const { client } = setup({ clipboard: { writeText } });
    fireEvent.click(screen.getByRole('button', { name: /Run comparison/ }));
    const job = client.jobs[0]!;
    act(() => {
      job.handlers.onRow(row('cbor', 100), 1, 16);
      job.handlers.onRow(row('json', 150), 2, 16);
    });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel comparison' }));
    act(() => job.handlers.onEnd(true, null, markdown(['cbor', 'json'])));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy comparison as Markdown' }));
    });
    const copied = writeText.mock.calls[0]![0];
    expect(copied.split('\n')[0]).toBe('### frame #1 (cancelled: 2 of 16 codecs)');
    expect(copied).toContain('| json | 100 | yes |');
  });

  it('a run cancelled before any row has nothing to copy', () => {
    const { client } = setup({ clipboard: { writeText: vi.fn(async () => {}) } });
    fireEvent.click(screen.getByRole('button', { name: /Run comparison/ }));
    const job = client.jobs[0]!;
    fireEvent.click(screen.getByRole('button', { name: 'Cancel comparison' }));
    act(() => job.handlers.onEnd(true, null, markdown([])));
    expect(screen.getByTestId('compare-status').textContent).toBe('cancelled after 0 codecs');
    expect((screen.getByRole('button', { name: 'Copy comparison as Markdown' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });

  it('a finished run copies the Markdown unchanged', async () => {
    const writeText = vi.fn(async (_: string) => {});
    const { client } = setup({ clipboard: { writeText } });
    fireEvent.click(screen.getByRole('button', { name: /Run comparison/ }));
    act(() => {
      client.jobs[0]!.handlers.onRow(row('cbor', 100), 1, 1);
      client.jobs[0]!.handlers.onEnd(false, null, markdown(['cbor']));
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy comparison as Markdown' }));
    });
    expect(writeText).toHaveBeenCalledWith(markdown(['cbor']));
  });
});
