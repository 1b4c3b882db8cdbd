// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { NodeActions } from './NodeActions.js';
import type { WorkerMethods } from '../../worker/api.js';
import { handlersWithFrame } from '../../worker/test/ingest-frames.js';

afterEach(cleanup);

/** A clipboard that keeps what was written (the environment passed in, not a mock). */
function recordingClipboard() {
  const written: string[] = [];
  return { written, writeText: async (t: string) => void written.push(t) };
}

describe('copy a node from the tree', () => {
  it('copies its value as JSON and EDN, its field bytes as hex, and its path', async () => {
    const bytes = new CborEncoder().encode({ a: 1, list: [1, 'x'] });
    const handlers = handlersWithFrame(bytes.slice());
    const client = {
      call: async <M extends keyof WorkerMethods>(m: M, p: WorkerMethods[M]['params']) =>
        (handlers.methods[m] as (x: unknown) => WorkerMethods[M]['result'])(p),
    };
    const root = handlers.methods.decode({ frameId: 1, format: 'auto' })!.root!;
    const list = handlers.methods
      .children({ frameId: 1, format: 'auto', nodeId: root.id })
      .nodes.find((n) => n.path === '$.list')!;
    const clipboard = recordingClipboard();
    render(<NodeActions client={client} frameId={1} format="auto" node={list} bytes={bytes} clipboard={clipboard} />);
    fireEvent.click(screen.getByTestId('copy-node-json'));
    await waitFor(() => expect(clipboard.written).toHaveLength(1));
    fireEvent.click(screen.getByTestId('copy-node-edn'));
    await waitFor(() => expect(clipboard.written).toHaveLength(2));
    fireEvent.click(screen.getByTestId('copy-node-hex'));
    await waitFor(() => expect(clipboard.written).toHaveLength(3));
    fireEvent.click(screen.getByTestId('copy-node-path'));
    await waitFor(() => expect(clipboard.written).toHaveLength(4));
    expect(JSON.parse(clipboard.written[0])).toEqual([1, 'x']);
    expect(clipboard.written[1]).toBe('[1, "x"]');
    // key "list" (64 6c 69 73 74) then the array (82 01 61 78)
    expect(clipboard.written[2]).toBe('64 6c 69 73 74 82 01 61 78');
    expect(clipboard.written[3]).toBe('$.list');
    // The notice is set after the clipboard's promise settles: wait for it, do not race it.
    await waitFor(() => expect(screen.getByTestId('node-copy-notice').textContent).toBe('copied path'));
  });
});
