// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { SessionRow } from '../../../../../codecs/compare/session/groups';
import type { SessionChartData } from '../../../../../codecs/compare/session/cumulative';
import type { SessionHandlers } from '../../../worker/client';
import type { SessionEnd, SessionScope } from '../../../worker/api';
import { SessionCompare, type SessionSource } from './SessionCompare';
import { CompareModes } from './CompareModes';
import { SessionRun } from './session-run';

afterEach(cleanup);

interface Job {
  scope: SessionScope;
  negotiated: Readonly<Record<string, string>>;
  handlers: SessionHandlers;
  cancel: ReturnType<typeof vi.fn>;
}

function fakeClient() {
  const jobs: Job[] = [];
  return {
    jobs,
    compareSession(scope: SessionScope, negotiated: Readonly<Record<string, string>>, handlers: SessionHandlers) {
      const cancel = vi.fn();
      jobs.push({ scope, negotiated, handlers, cancel });
      return cancel;
    },
  };
}

const size = (total: number) => ({ payload: total - 10, headers: 10, total });
function row(
  codec: string,
  label: string,
  connectionId: string | null,
  direction: SessionRow['direction'],
  n: number,
  over: Partial<SessionRow> = {},
): SessionRow {
  return {
    codec,
    label,
    connectionId,
    direction,
    messages: 10,
    size: n,
    gzip: n / 2,
    deflate: n / 2 - 180,
    plainWire: { payload: n, headers: 40, total: n + 40 },
    wire: { contextTakeover: size(n / 4), noContextTakeover: size(n / 3), negotiated: null },
    left: 0,
    leftReason: null,
    ...over,
  };
}

const machine = { runtime: 'TestBrowser/1', os: 'TestOS', cores: 2 };

/** A finished job's end over 10 messages, with a chart of the captured bytes at messages 5 and 10. */
const endWithCapturedChart = (notCharted: SessionChartData['notCharted'], workerMs = 1): SessionEnd => ({
  cancelled: false,
  error: null,
  chart: { at: [5, 10], series: [{ codec: 'captured', label: 'As captured', bytes: [400, 800] }], notCharted },
  messages: 10,
  workerMs,
});

function setup(over: Partial<SessionSource> = {}, connectionId = 'c1') {
  const client = fakeClient();
  const run = new SessionRun();
  const saved: { text: string; name: string; type: string }[] = [];
  const source: SessionSource = {
    run,
    connections: [
      { connectionId: 'c1', label: '#1', url: 'wss://one.example/feed' },
      {
        connectionId: 'c2',
        label: '#2',
        url: 'wss://two.example/',
        extensions: 'permessage-deflate; client_max_window_bits=15',
      },
    ],
    filteredIds: null,
    heldFrames: 30,
    machine,
    save: (text, name, type) => saved.push({ text, name, type }),
    ...over,
  };
  const clipboard = { writeText: vi.fn(async () => {}) };
  render(<SessionCompare client={client} source={source} currentConnectionId={connectionId} clipboard={clipboard} />);
  return { client, run, saved, clipboard };
}

describe('SessionCompare', () => {
  it('says what to do when no frames are held', () => {
    setup({ heldFrames: 0 });
    expect(screen.getByTestId('session-empty').textContent).toMatch(/connect to a server or open a capture file/);
  });

  it('starts on the current frame\u2019s connection and sends its scope', () => {
    const { client } = setup();
    expect((screen.getByTestId('session-scope') as HTMLSelectElement).value).toBe('connection:c1');
    fireEvent.click(screen.getByTestId('session-run'));
    expect(client.jobs[0].scope).toEqual({ kind: 'connection', connectionId: 'c1' });
    // c1's header is not recorded: nothing negotiated is sent.
    expect(client.jobs[0].negotiated).toEqual({});
  });

  it('the filter choice is off without a filter; with one it sends the ids, and says so when it matches nothing', () => {
    setup();
    expect((screen.getByRole('option', { name: /Current filter/ }) as HTMLOptionElement).disabled).toBe(true);
    cleanup();
    const { client } = setup({ filteredIds: [3, 5] });
    fireEvent.change(screen.getByTestId('session-scope'), { target: { value: 'filter' } });
    fireEvent.click(screen.getByTestId('session-run'));
    expect(client.jobs[0].scope).toEqual({ kind: 'frames', frameIds: [3, 5] });
    cleanup();
    setup({ filteredIds: [] });
    fireEvent.change(screen.getByTestId('session-scope'), { target: { value: 'filter' } });
    expect(screen.getByTestId('session-scope-empty').textContent).toMatch(/filter matches no frames/);
    expect((screen.getByTestId('session-run') as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows progress, streams rows, cancels, and explains every dash', () => {
    const { client, run } = setup();
    fireEvent.click(screen.getByTestId('session-run'));
    const job = client.jobs[0];
    act(() => job.handlers.onProgress({ done: 200, total: 1000, phase: 'encode', codec: 'cbor' }));
    expect(screen.getByTestId('session-progress').textContent).toMatch(/encoding cbor 200 \/ 1,000/);
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('200');
    act(() => {
      job.handlers.onRows([row('captured', 'As captured', 'c1', 'client-to-server', 1000)]);
      job.handlers.onRows([row('captured', 'As captured', 'c1', 'server-to-client', 3000)]);
      job.handlers.onRows([row('captured', 'As captured', null, null, 4000)]);
      job.handlers.onRows([
        row('json', 'JSON', 'c1', 'client-to-server', 0, {
          messages: 0,
          left: 10,
          leftReason: 'message 1: the frame does not decode',
        }),
      ]);
    });
    const totals = screen.getByTestId('session-totals');
    expect(within(totals).getByText('4,000 B')).toBeTruthy();
    // Without a recorded header the negotiated column is not shown at all; both variants are.
    expect(within(totals).queryByText('wire, as negotiated')).toBeNull();
    expect(within(totals).getByText('wire, pmd no context takeover')).toBeTruthy();
    fireEvent.click(screen.getByTestId('session-cancel'));
    expect(job.cancel).toHaveBeenCalled();
    act(() => job.handlers.onEnd({ cancelled: true, error: null, chart: null, messages: 20, workerMs: 12 }));
    expect(screen.getByTestId('session-status').textContent).toMatch(/Cancelled/);
    expect(run.get().phase).toBe('cancelled');
    expect(screen.getByTestId('session-negotiated').textContent).toMatch(
      /does not record the negotiated Sec-WebSocket-Extensions: both/,
    );
    // The per-direction JSON row has no messages: every dash says why.
    const dashes = screen.getAllByTestId('session-dash');
    expect(dashes.length).toBeGreaterThan(0);
    for (const d of dashes) expect(d.getAttribute('title')).toBeTruthy();
    expect(dashes.some((d) => /does not decode/.test(d.getAttribute('title') ?? ''))).toBe(true);
  });

  it('uses a recorded extension header and says so', () => {
    const { client } = setup({}, 'c2');
    fireEvent.click(screen.getByTestId('session-run'));
    expect(client.jobs[0].negotiated).toEqual({ c2: 'permessage-deflate; client_max_window_bits=15' });
    act(() => {
      client.jobs[0].handlers.onRows([
        row('captured', 'As captured', 'c2', 'server-to-client', 800, {
          wire: { contextTakeover: size(200), noContextTakeover: size(300), negotiated: size(210) },
        }),
      ]);
      client.jobs[0].handlers.onRows([
        row('captured', 'As captured', null, null, 800, {
          wire: { contextTakeover: size(200), noContextTakeover: size(300), negotiated: size(210) },
        }),
      ]);
      client.jobs[0].handlers.onEnd(endWithCapturedChart([], 1500));
    });
    expect(screen.getByTestId('session-negotiated').textContent).toMatch(
      /negotiated "permessage-deflate; client_max_window_bits=15" \(recorded in the capture\)/,
    );
    expect(within(screen.getByTestId('session-totals')).getByText('210 B')).toBeTruthy();
    expect(screen.getByTestId('session-status').textContent).toMatch(/10 messages .* in 1\.50 s \(worker\)/);
    const chart = screen.getByTestId('session-chart');
    expect(chart.querySelector('svg[role=img]')?.getAttribute('aria-label')).toMatch(/As captured ends at 800 B/);
  });

  it('shows the columns other modules’ rows bring (snappy, brotli, schema) with reasons for their dashes, and lists the messages left out', () => {
    const { client } = setup();
    fireEvent.click(screen.getByTestId('session-run'));
    const extra = { snappy: 900, brotli: { unsupported: 'not in this browser: no brotli compressor' } };
    const avro = {
      ...extra,
      left: 2,
      leftReason: 'message 3: a bigint beyond int64',
      mismatches: [
        { message: 3, reason: 'a bigint beyond int64' },
        { message: 9, reason: 'a union of map and array' },
      ],
      schema: { bytes: 120, text: '{"type":"record"}', messages: 10, perMessage: 12 },
    };
    act(() => {
      client.jobs[0].handlers.onRows([
        row('captured', 'As captured', 'c1', 'server-to-client', 1000, extra),
        row('captured', 'As captured', null, null, 1000, extra),
      ]);
      client.jobs[0].handlers.onRows([
        row('avro', 'Avro (inferred)', 'c1', 'server-to-client', 400, avro),
        row('avro', 'Avro (inferred)', null, null, 400, avro),
      ]);
    });
    const totals = screen.getByTestId('session-totals');
    expect(within(totals).getByText('snappy each')).toBeTruthy();
    expect(within(totals).getByText('brotli each')).toBeTruthy();
    expect(within(totals).getByText('120 B (12.0 B/message)')).toBeTruthy();
    expect(within(totals).getAllByTitle(/not in this browser/).length).toBe(2);
    expect(within(totals).getByTitle('no schema: the codec describes itself')).toBeTruthy();
    expect(screen.getByTestId('session-left').textContent).toContain(
      'Avro (inferred): message 3: a bigint beyond int64; message 9: a union of map and array',
    );
  });

  it('copies the report as Markdown and saves HTML and Markdown', async () => {
    const { client, saved, clipboard } = setup();
    fireEvent.click(screen.getByTestId('session-run'));
    act(() => {
      client.jobs[0].handlers.onRows([row('captured', 'As captured', 'c1', 'server-to-client', 1234)]);
      client.jobs[0].handlers.onRows([row('captured', 'As captured', null, null, 1234)]);
      client.jobs[0].handlers.onEnd({ cancelled: false, error: null, chart: null, messages: 10, workerMs: 5 });
    });
    await act(async () => fireEvent.click(screen.getByTestId('session-copy')));
    expect(clipboard.writeText).toHaveBeenCalledWith(expect.stringContaining('| As captured | 10 | 1,234 |'));
    expect(screen.getByTestId('session-toast').textContent).toBe('Copied the report as Markdown');
    fireEvent.click(screen.getByTestId('session-save-html'));
    fireEvent.click(screen.getByTestId('session-save-md'));
    expect(saved.map((s) => s.name)).toEqual(['wirescope-session.html', 'wirescope-session.md']);
    expect(saved[0].text).toMatch(/^<!doctype html>/);
    expect(saved[0].text).toContain('TestBrowser/1; TestOS; 2 logical cores');
  });
});

describe('CompareModes', () => {
  it('switches between this frame and the session, and keeps the choice in the run', () => {
    const run = new SessionRun();
    const client = fakeClient();
    const source: SessionSource = { run, connections: [], filteredIds: null, heldFrames: 3, machine };
    render(
      <CompareModes client={client} session={source}>
        <p>frame view</p>
      </CompareModes>,
    );
    expect(screen.getByText('frame view')).toBeTruthy();
    fireEvent.click(screen.getByTestId('compare-mode-session'));
    expect(screen.getByTestId('session-compare')).toBeTruthy();
    // A new frame remounts the tab: the choice stays.
    cleanup();
    render(
      <CompareModes client={client} session={source}>
        <p>frame view</p>
      </CompareModes>,
    );
    expect(screen.getByTestId('session-compare')).toBeTruthy();
  });

  it('without a session source shows only the frame view', () => {
    render(
      <CompareModes client={fakeClient()}>
        <p>frame view</p>
      </CompareModes>,
    );
    expect(screen.queryByTestId('compare-mode-session')).toBeNull();
  });
});

describe('SessionCompare: dashes, left-out groups, shares, picker counts and notes', () => {
  it('a codec with no messages shows dashes with the reason in the permessage-deflate columns, not "0 B"', () => {
    const { client } = setup();
    fireEvent.click(screen.getByTestId('session-run'));
    const zero = { payload: 0, headers: 0, total: 0 };
    act(() => {
      client.jobs[0].handlers.onRows([row('captured', 'As captured', null, null, 1000)]);
      client.jobs[0].handlers.onRows([
        row('avro', 'Avro (inferred)', null, null, 0, {
          messages: 0,
          size: 0,
          gzip: 0,
          deflate: 0,
          left: 10,
          leftReason: 'message 1: Avro runs in the CLI only',
          wire: { contextTakeover: zero, noContextTakeover: zero, negotiated: null },
        }),
      ]);
    });
    const avro = screen.getByTestId('session-totals').querySelector('tr[data-codec=avro]') as HTMLElement;
    expect(avro.textContent).not.toMatch(/0 B/);
    expect(
      within(avro)
        .getAllByTestId('session-dash')
        .every((d) => /Avro runs in the CLI only/.test(d.getAttribute('title') ?? '')),
    ).toBe(true);
  });

  it('messages left out for one reason are grouped', () => {
    const { client } = setup();
    fireEvent.click(screen.getByTestId('session-run'));
    const why = 'Avro runs in the CLI only';
    const mismatches = Array.from({ length: 51 }, (_, i) => ({ message: i + 1, reason: why }));
    act(() =>
      client.jobs[0].handlers.onRows([
        row('avro', 'Avro (inferred)', null, null, 0, {
          messages: 0,
          left: 51,
          leftReason: `message 1: ${why}`,
          mismatches,
        }),
      ]),
    );
    const text = screen.getByTestId('session-left').textContent ?? '';
    expect(text).toContain(`Avro (inferred): 51 messages (first: 1): ${why}`);
    expect(text).not.toContain('message 2:');
  });

  it("every left-out message is counted by reason, not only the 50 listed (the report's grouping, left-out.ts)", () => {
    const { client } = setup();
    fireEvent.click(screen.getByTestId('session-run'));
    const mismatches = Array.from({ length: 50 }, (_, i) => ({ message: i + 1, reason: 'a list' }));
    const leftReasons = [
      { reason: 'a list', count: 100, first: 1 },
      { reason: 'seq: string where the schema has int32', count: 20, first: 107 },
    ];
    act(() =>
      client.jobs[0].handlers.onRows([
        row('protobuf', 'Protobuf (inferred)', null, null, 10, {
          left: 120,
          leftReason: 'message 1: a list',
          mismatches,
          leftReasons,
        }),
      ]),
    );
    const text = screen.getByTestId('session-left').textContent ?? '';
    expect(text).toContain(
      'Protobuf (inferred): 100 messages (first: 1): a list; 20 messages (first: 107): seq: string where the schema has int32',
    );
    expect(text).not.toContain('more');
  });

  it('no share per message when a schema codec encoded none; small shares keep two significant digits', () => {
    const { client } = setup();
    fireEvent.click(screen.getByTestId('session-run'));
    act(() => {
      client.jobs[0].handlers.onRows([
        row('protobuf', 'Protobuf (inferred)', null, null, 0, {
          messages: 0,
          left: 10,
          leftReason: 'message 1: a list',
          schema: { bytes: 66, text: 'message Frame {}', messages: 0, perMessage: 0 },
        }),
      ]);
      client.jobs[0].handlers.onRows([
        row('avro', 'Avro (inferred)', null, null, 400, {
          schema: { bytes: 433, text: '{}', messages: 10_000, perMessage: 0.0433 },
        }),
      ]);
    });
    const totals = screen.getByTestId('session-totals');
    expect(within(totals).getByText('66 B (no message encoded)')).toBeTruthy();
    expect(within(totals).getByText('433 B (0.043 B/message)')).toBeTruthy();
    expect(totals.textContent).not.toMatch(/0\.0 B\/message/);
  });

  it('compares the frames held and shown, with their counts in the picker', () => {
    const shown = [
      { frameId: 1, connectionId: 'c1' },
      { frameId: 2, connectionId: 'c1' },
      { frameId: 4, connectionId: 'c2' },
    ];
    const { client } = setup({ heldFrames: 3, shown });
    expect(screen.getByRole('option', { name: /Connection #1/ }).textContent).toMatch(/\(2 frames\)/);
    expect(screen.getByRole('option', { name: /Whole capture/ }).textContent).toMatch(/\(3 frames\)/);
    fireEvent.click(screen.getByTestId('session-run'));
    expect(client.jobs[0].scope).toEqual({ kind: 'frames', frameIds: [1, 2] });
    fireEvent.change(screen.getByTestId('session-scope'), { target: { value: 'all' } });
    act(() => client.jobs[0].handlers.onEnd({ cancelled: false, error: null, chart: null, messages: 2, workerMs: 1 }));
    fireEvent.click(screen.getByTestId('session-run'));
    expect(client.jobs[1].scope).toEqual({ kind: 'frames', frameIds: [1, 2, 4] });
  });

  it('the "Not charted" note has no nested parentheses', () => {
    const { client } = setup();
    fireEvent.click(screen.getByTestId('session-run'));
    act(() => {
      client.jobs[0].handlers.onRows([row('captured', 'As captured', null, null, 800)]);
      client.jobs[0].handlers.onEnd(
        endWithCapturedChart([
          {
            codec: 'avro',
            label: 'Avro (inferred)',
            why: 'not in the codec registry the chart re-encodes with (a schema codec needs the schema inferred from the whole session)',
          },
        ]),
      );
    });
    const note = screen.getByText(/Not charted/).textContent ?? '';
    expect(note).not.toMatch(/\([^)]*\(/);
  });

  it('the "Not charted" note names codecs as the table does, with the table\'s reason', () => {
    const { client } = setup();
    fireEvent.click(screen.getByTestId('session-run'));
    act(() => {
      client.jobs[0].handlers.onRows([row('captured', 'As captured', null, null, 800)]);
      client.jobs[0].handlers.onEnd(
        endWithCapturedChart([{ codec: 'avro', label: 'Avro (inferred)', why: 'no frame has an Avro type' }]),
      );
    });
    expect(screen.getByText(/Not charted/).textContent).toBe('Not charted: Avro (inferred): no frame has an Avro type');
  });
});
