// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from '../../App.js';
import { MemoryTransport } from '../../protocol/transport.js';
import { inProcessWorker } from '../../worker/in-process.js';
import { TextTab } from '../detail/TextTab.js';
import { hex } from '../../../../codecs/test/helpers/hex.js';
import { testHostCapabilities, wireFrame } from '../../test/host-fixtures.js';
import { handlersWithFrame } from '../../worker/test/ingest-frames.js';

const capabilities = testHostCapabilities();
const wire = (data: Uint8Array, opcode: 'text' | 'binary' = 'binary') => wireFrame(data, { opcode });

afterEach(cleanup);

async function open(bytes: Uint8Array, opcode: 'text' | 'binary' = 'binary') {
  const copied: string[] = [];
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: { writeText: async (t: string) => void copied.push(t) },
  });
  const transport = new MemoryTransport();
  render(<App transport={transport} worker={inProcessWorker()} capabilities={capabilities} />);
  act(() => transport.emit({ type: 'frames', frames: [wire(bytes, opcode)] }));
  await waitFor(() => expect(screen.queryAllByTestId('frame-row')).toHaveLength(1));
  fireEvent.mouseDown(screen.getByTestId('frame-row'));
  await screen.findByTestId('frame-detail');
  return copied;
}
const shown = () => screen.getByTestId('text-view').textContent ?? '';

describe('the Text tab', () => {
  it('shows the whole frame by default; a visible toggle shows the selection; Copy copies what is shown', async () => {
    const copied = await open(hex('a2 61 61 01 61 62 82 02 03'));
    await waitFor(() => expect(screen.getAllByTestId('tree-row').length).toBeGreaterThan(1));
    const byte8 = (await screen.findAllByText('03')).find((el) => el.getAttribute('data-offset') === '8')!;
    fireEvent.mouseDown(byte8);
    fireEvent.click(byte8);
    await waitFor(() => expect(screen.getByTestId('selected-range').textContent).toContain('$.b[1]'));
    fireEvent.click(screen.getByTestId('tab-text'));
    await waitFor(() => expect(shown()).toContain('"b"'));
    expect(shown()).toContain('"a": 1');
    const toggle = screen.getByRole('radio', { name: 'selection: $.b[1]' });
    fireEvent.click(toggle);
    await waitFor(() => expect(shown().trim()).toBe('3'));
    fireEvent.click(screen.getByRole('button', { name: 'Copy shown JSON' }));
    await waitFor(() => expect(copied).toEqual(['3']));
    fireEvent.click(screen.getByRole('radio', { name: 'whole frame' }));
    await waitFor(() => expect(shown()).toContain('"a": 1'));
    // How JSON shows what it cannot hold is said beside it.
    expect(screen.getByTestId('json-mapping-note').textContent).toMatch(/byte strings/);
  });

  it('a malformed frame says why and offers its bytes as text or hex', async () => {
    await open(hex('a2 61 61 01 61 62 ff'));
    fireEvent.click(screen.getByTestId('tab-text'));
    const why = await screen.findByTestId('text-undecodable');
    expect(why.textContent).toMatch(/Malformed: .*byte 6/);
    fireEvent.click(screen.getByRole('radio', { name: 'hex' }));
    await waitFor(() => expect(shown()).toContain('a2 61 61 01 61 62 ff'));
    fireEvent.click(screen.getByRole('radio', { name: 'what decoded' }));
    await waitFor(() => expect(shown()).toContain('"a": 1'));
  });

  it('a frame nothing decodes says why and shows its bytes as hex or text', async () => {
    const calls: string[] = [];
    const client = {
      call: async (_m: string, p: { mode: string }) => {
        calls.push(p.mode);
        return { text: p.mode === 'raw-hex' ? '68 69' : 'hi', truncated: false };
      },
    } as unknown as Parameters<typeof TextTab>[0]['client'];
    render(
      <TextTab
        client={client}
        frameId={1}
        format="auto"
        rootId={null}
        selection={null}
        reason="no decoder could read this frame at byte 0"
        mode="json"
        onMode={() => {}}
        scope="frame"
        onScope={() => {}}
        theme="light"
      />,
    );
    expect(screen.getByTestId('text-undecodable').textContent).toMatch(
      /Nothing decoded this frame as a value \(no decoder could read this frame at byte 0\)/,
    );
    await waitFor(() => expect(shown()).toBe('68 69'));
    fireEvent.click(screen.getByRole('radio', { name: 'text' }));
    await waitFor(() => expect(shown()).toBe('hi'));
    expect(calls).toEqual(['raw-hex', 'raw-text']);
  });

  it('EDN is pretty-printed: one item per line, indented', () => {
    const h = handlersWithFrame(hex('a2 61 61 01 61 62 82 02 03'));
    const root = h.methods.decode({ frameId: 1, format: 'auto' })!.root!;
    expect(h.methods.text({ frameId: 1, format: 'auto', nodeId: root.id, mode: 'edn-pretty' }).text).toBe(
      '{\n  "a": 1,\n  "b": [\n    2,\n    3\n  ]\n}',
    );
  });
});
