// @vitest-environment jsdom
import { afterEach, beforeEach, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { PastePage } from './PastePage.js';
import { inProcessWorker } from '../worker/in-process.js';

afterEach(cleanup);
beforeEach(() => window.history.replaceState(null, '', '/paste.html'));

it('edits the pasted frame in its own encoding, shows the difference, and the new link opens the new bytes', async () => {
  render(<PastePage worker={inProcessWorker()} />);
  fireEvent.change(screen.getByTestId('paste-input'), { target: { value: '83 01 02 03' } });
  fireEvent.click(screen.getByTestId('decode-button'));
  await waitFor(() => expect(screen.getAllByTestId('tree-row')).toHaveLength(4));
  fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
  const text = (await screen.findByLabelText('Edit the frame')) as HTMLTextAreaElement;
  expect(text.value).toBe('[1, 2, 3]');
  expect((screen.getByTestId('edit-format') as HTMLSelectElement).value).toBe('edn');
  fireEvent.change(text, { target: { value: '[1, 2, 3, 4]' } });
  await waitFor(() =>
    expect(screen.getByTestId('edit-change').textContent).toMatch(/^5 B \(\+1 B\) · .* first at offset 0/),
  );
  fireEvent.click(screen.getByRole('button', { name: 'Show the edit' }));
  await waitFor(() => expect(screen.getAllByTestId('tree-row')).toHaveLength(5));
  expect(window.location.hash).toBe('#b64=hAECAwQ');
  const link = (screen.getByTestId('paste-link') as HTMLInputElement).value;
  expect(link).toBe(window.location.href);
  expect(screen.queryByTestId('paste-edit')).toBeNull();

  cleanup();
  window.history.replaceState(null, '', new URL(link).pathname + new URL(link).hash);
  render(<PastePage worker={inProcessWorker()} />);
  await waitFor(() => expect(screen.getAllByTestId('tree-row')).toHaveLength(5));
  expect((screen.getByTestId('paste-input') as HTMLTextAreaElement).value).toBe('84 01 02 03 04');
});

it('a bad edit says where and cannot be shown', async () => {
  render(<PastePage worker={inProcessWorker()} />);
  fireEvent.change(screen.getByTestId('paste-input'), { target: { value: 'a1 61 61 01' } });
  fireEvent.click(screen.getByTestId('decode-button'));
  await waitFor(() => expect(screen.getAllByTestId('tree-row').length).toBeGreaterThan(0));
  fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
  const text = (await screen.findByLabelText('Edit the frame')) as HTMLTextAreaElement;
  fireEvent.change(text, { target: { value: '{"a": }' } });
  await waitFor(() => expect(screen.getByTestId('edit-error').textContent).toMatch(/^1:7: /));
  expect((screen.getByRole('button', { name: 'Show the edit' }) as HTMLButtonElement).disabled).toBe(true);
  expect(window.location.hash).toBe('#b64=oWFhAQ');
  // The paste page sends nothing: the bad text's note speaks of what this page makes.
  fireEvent.change(text, { target: { value: '{"a": "x}' } });
  await waitFor(() =>
    expect(screen.getByTestId('edit-error').textContent).toBe(
      `1:7: this string is not closed: end it with '"' — no new bytes and no new link until the text reads`,
    ),
  );
});
