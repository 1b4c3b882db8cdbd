// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { composeOutcome, switchedText } from '../../worker/compose-text.js';
import type { EditSyntax } from '../../worker/edit-text.js';
import { FrameEditor, type FrameEditorState, hexPreview } from './FrameEditor.js';

afterEach(cleanup);

/** The editor with the worker's pure functions in process; the buttons say what they would send. */
function mountEditor(initial: { syntax: EditSyntax; text: string }, original: Uint8Array | null = null) {
  const seen: FrameEditorState[] = [];
  render(
    <FrameEditor
      label="Message"
      initial={initial}
      syntaxes={['edn', 'msgpack', 'json', 'hex']}
      encode={async (syntax, text) => composeOutcome(syntax, text, original)}
      switchText={async (from, text, to) => switchedText(from, text, to)}
    >
      {(state) => {
        seen.push(state);
        return (
          <button type="button" disabled={!state.bytes}>
            Send
          </button>
        );
      }}
    </FrameEditor>,
  );
  return { seen, send: () => screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement };
}

const typeText = (text: string) => fireEvent.change(screen.getByTestId('edit-text'), { target: { value: text } });

it('a text that encodes shows its bytes and size, and hands the bytes to the buttons', async () => {
  const { seen, send } = mountEditor({ syntax: 'edn', text: '{"a": 1}' });
  await waitFor(() => expect(send().disabled).toBe(false));
  expect(screen.getByTestId('edit-change').textContent).toMatch(/^4 B · a new frame/);
  expect(screen.getByTestId('edit-bytes').textContent).toBe('a1 61 61 01');
  expect([...seen.at(-1)!.bytes!]).toEqual([0xa1, 0x61, 0x61, 0x01]);
});

it('a bad text says its line and column and leaves nothing to send', async () => {
  const { send } = mountEditor({ syntax: 'edn', text: '{"a": 1}' });
  await waitFor(() => expect(send().disabled).toBe(false));
  typeText('{"a":\n  ]');
  await waitFor(() => expect(screen.getByTestId('edit-error').textContent).toMatch(/^2:3: .* — nothing will be sent$/));
  expect(send().disabled).toBe(true);
});

it('while a new text is not yet encoded the old bytes are not offered', async () => {
  const { seen, send } = mountEditor({ syntax: 'hex', text: '01' });
  await waitFor(() => expect(send().disabled).toBe(false));
  typeText('02');
  // At once, before the worker answered for "02": no bytes, though "01"'s line is still shown.
  expect(seen.at(-1)).toMatchObject({ text: '02', bytes: null });
  expect(send().disabled).toBe(true);
  await waitFor(() => expect([...(seen.at(-1)!.bytes ?? [])]).toEqual([2]));
});

it('against an original it shows the difference', async () => {
  mountEditor({ syntax: 'hex', text: '01 02 03' }, new Uint8Array([1, 2, 3]));
  await waitFor(() => expect(screen.getByTestId('edit-change').textContent).toMatch(/the original bytes, unchanged/));
  typeText('01 02 03 04 05');
  await waitFor(() =>
    expect(screen.getByTestId('edit-change').textContent).toMatch(
      /^5 B \(\+2 B\) · 2 B changed in 1 range, first at offset 3/,
    ),
  );
});

it('choosing another format rewrites the same bytes in it (hex to EDN) or keeps a text valid in both (JSON to EDN)', async () => {
  const { send } = mountEditor({ syntax: 'hex', text: 'a1 61 61 01' });
  fireEvent.change(screen.getByTestId('edit-format'), { target: { value: 'edn' } });
  await waitFor(() => expect((screen.getByTestId('edit-text') as HTMLTextAreaElement).value).toBe('{"a": 1}'));
  fireEvent.change(screen.getByTestId('edit-format'), { target: { value: 'json' } });
  await waitFor(() => expect((screen.getByTestId('edit-format') as HTMLSelectElement).value).toBe('json'));
  expect((screen.getByTestId('edit-text') as HTMLTextAreaElement).value).toBe('{"a": 1}');
  await waitFor(() => expect(screen.getByTestId('edit-bytes').textContent).toBe('7b 22 61 22 3a 20 31 7d'));
  expect(send().disabled).toBe(false);
});

it('the text box and the format choice are labelled', () => {
  mountEditor({ syntax: 'json', text: '1' });
  expect(screen.getByLabelText('Message')).toBe(screen.getByTestId('edit-text'));
  expect(screen.getByLabelText('written as')).toBe(screen.getByTestId('edit-format'));
});

it('text typed while a format switch is being answered is kept', async () => {
  let answer: (text: string) => void = () => {};
  render(
    <FrameEditor
      label="Message"
      initial={{ syntax: 'hex', text: '01' }}
      syntaxes={['edn', 'hex']}
      encode={async (syntax, text) => composeOutcome(syntax, text, null)}
      switchText={() => new Promise<string>((resolve) => (answer = resolve))}
    >
      {() => null}
    </FrameEditor>,
  );
  fireEvent.change(screen.getByTestId('edit-format'), { target: { value: 'edn' } });
  typeText('{"typed": true}');
  answer('1');
  await waitFor(() => expect(screen.getByTestId('edit-bytes').textContent).toMatch(/^a1 65/));
  expect((screen.getByTestId('edit-text') as HTMLTextAreaElement).value).toBe('{"typed": true}');
});

describe('the byte preview', () => {
  it('shows the changed bytes when they lie past the first 48: from a little before the first difference, with its offset', () => {
    const bytes = Uint8Array.from({ length: 547 }, (_, i) => i & 255);
    const preview = hexPreview(bytes, 463);
    expect(preview.startsWith('@448: … c0 c1')).toBe(true);
    expect(preview).toContain(' cf '); // byte 463
    expect(preview.endsWith(' …')).toBe(true);
    expect(hexPreview(bytes.subarray(0, 20), 3)).toBe(
      [...bytes.subarray(0, 20)].map((b) => b.toString(16).padStart(2, '0')).join(' '),
    );
  });
});
