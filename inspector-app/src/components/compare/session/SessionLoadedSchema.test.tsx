// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { FromWorker, IngestFrame, ToWorker } from '../../../worker/api';
import { WorkerClient } from '../../../worker/client';
import { createDispatcher } from '../../../worker/dispatcher';
import { SessionCompare } from './SessionCompare';
import { SessionRun } from './session-run';
import {
  createProtobufTraffic,
  demoProtoFiles,
  ENVELOPE_TYPE,
} from '../../../../../demo-server/streams/protobuf-schema';

/**
 * With the demo's .proto files loaded, the Session view shows the loaded-schema
 * row (every Envelope written with the real schema, the schema's size apart) and the saved
 * report has it. The decode worker's dispatcher runs in the test's thread behind a real
 * WorkerClient, so the rows are the worker's own.
 */
afterEach(cleanup);

const FRAMES = 30;
const LABEL = `Protobuf (.proto ${ENVELOPE_TYPE})`;

function inProcessWorker(): { client: WorkerClient; dispatch: (m: ToWorker) => void } {
  const fake = {
    onmessage: null as ((e: MessageEvent<FromWorker>) => void) | null,
    onerror: null as unknown,
    postMessage: (message: ToWorker) => setTimeout(() => dispatch(structuredClone(message)), 0),
    terminate() {},
  };
  const dispatch = createDispatcher((message) => {
    const copy = structuredClone(message);
    setTimeout(() => fake.onmessage?.({ data: copy } as MessageEvent<FromWorker>), 0);
  });
  return { client: new WorkerClient(fake as unknown as Worker), dispatch };
}

describe('the Session view with a loaded .proto', () => {
  it('shows the loaded-schema row in the totals and saves it in the report', async () => {
    const { client, dispatch } = inProcessWorker();
    const traffic = createProtobufTraffic({ seed: 5 });
    const frames: IngestFrame[] = Array.from({ length: FRAMES }, (_, i) => ({
      frameId: i + 1,
      connectionId: 'pb',
      direction: 'received' as const,
      time: 1 + i,
      opcode: 'binary' as const,
      data: traffic.next().data as Uint8Array,
    }));
    dispatch({ type: 'ingest', frames });
    dispatch({ type: 'call', callId: 1_000, method: 'setSchema', params: { files: demoProtoFiles() } });
    const saved: { text: string; name: string }[] = [];
    render(
      <SessionCompare
        client={client}
        source={{
          run: new SessionRun(),
          connections: [{ connectionId: 'pb', label: '#1', url: 'ws://localhost:8080/demo/protobuf' }],
          filteredIds: null,
          heldFrames: FRAMES,
          machine: { runtime: 'TestBrowser/1', os: 'TestOS', cores: 2 },
          save: (text, name) => saved.push({ text, name }),
        }}
        currentConnectionId="pb"
        clipboard={{ writeText: async () => {} }}
      />,
    );
    fireEvent.click(screen.getByTestId('session-run'));
    await waitFor(() => expect(screen.getByTestId('session-status').textContent).toMatch(/Compared/), {
      timeout: 30_000,
    });
    const row = within(screen.getByTestId('session-totals'))
      .getAllByRole('row')
      .find((r) => r.getAttribute('data-codec') === 'protobuf-loaded');
    expect(row).toBeTruthy();
    const cells = within(row!);
    expect(cells.getByRole('rowheader').textContent).toBe(LABEL);
    // Every Envelope is held (none left out), and the schema's own size is its own column.
    expect(row!.querySelectorAll('td')[0].textContent).toBe(String(FRAMES));
    const schemaBytes = demoProtoFiles().reduce((n, f) => n + new TextEncoder().encode(f.source).length, 0) + 1;
    expect(row!.textContent).toContain(
      `${schemaBytes.toLocaleString('en-US')} B (${(schemaBytes / FRAMES).toFixed(1)} B/message)`,
    );
    // Written back byte for byte: its size cell is the captured frames' size.
    const captured = within(screen.getByTestId('session-totals'))
      .getAllByRole('row')
      .find((r) => r.getAttribute('data-codec') === 'captured')!;
    expect(row!.querySelectorAll('td')[1].textContent).toBe(captured.querySelectorAll('td')[1].textContent);
    fireEvent.click(screen.getByTestId('session-save-md'));
    expect(saved[0].text).toContain(LABEL);
  }, 60_000);
});
