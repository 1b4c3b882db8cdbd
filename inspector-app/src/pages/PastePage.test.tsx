// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { PastePage } from './PastePage.js';
import { inProcessWorker } from '../worker/in-process.js';

afterEach(cleanup);
beforeEach(() => window.history.replaceState(null, '', '/paste.html'));

function paste(text: string) {
  render(<PastePage worker={inProcessWorker()} />);
  fireEvent.change(screen.getByTestId('paste-input'), { target: { value: text } });
  fireEvent.click(screen.getByTestId('decode-button'));
}

describe('paste page', () => {
  it('decodes cbor.me-style hex with comments at once and puts it in the URL hash', async () => {
    paste('a2        # map(2)\n  61 61   # "a"\n  01\n  0x61, 0x62  # "b"\n  f5');
    await waitFor(() =>
      expect(screen.getAllByTestId('tree-row').map((r) => r.getAttribute('data-path'))).toEqual(['$', '$.a', '$.b']),
    );
    expect(window.location.hash).toBe('#b64=omFhAWFi9Q');
    expect(screen.queryByTestId('error-banner')).toBeNull();
  });

  it('the heading names every format the page reads, Protobuf and JSON text included', () => {
    render(<PastePage worker={inProcessWorker()} />);
    const heading = screen.getByTestId('paste-formats').textContent ?? '';
    for (const name of ['CBOR', 'MessagePack', 'Protobuf', 'JSON text', 'json-joy']) expect(heading).toContain(name);
  });

  it('one frame: no Diff tab (there is nothing to diff against)', async () => {
    paste('83 01 02 03');
    await waitFor(() => expect(screen.getAllByTestId('tree-row')).toHaveLength(4));
    expect(screen.getByTestId('tab-tree')).toBeTruthy();
    expect(screen.queryByTestId('tab-diff')).toBeNull();
  });

  it('a pasted frame has no direction: its header shows no arrow', async () => {
    paste('83 01 02 03');
    await waitFor(() => expect(screen.getAllByTestId('tree-row')).toHaveLength(4));
    expect(screen.getByTestId('frame-detail').textContent).toMatch(/^Frame #1\s*decode as/);
    expect(screen.queryByTestId('frame-direction')).toBeNull();
    expect(screen.getByText('Frame #1').parentElement!.textContent).not.toMatch(/[↓↑]/);
  });

  it('decodes base64 and base64url', async () => {
    paste('gwECAw==');
    await waitFor(() => expect(screen.getAllByTestId('tree-row')).toHaveLength(4));
  });

  it('says where hex input is broken', () => {
    paste('83 01 0g');
    expect(screen.getByTestId('paste-error').textContent).toContain('character 7');
  });

  it('a malformed frame shows the error banner with its offset', async () => {
    // {"a": a text string of 16 bytes} with 2 of them: the string's head at byte 3 declares more than remains.
    paste('a1 61 61 78 10 41 42');
    const banner = await screen.findByTestId('error-banner');
    expect(banner.getAttribute('data-offset')).toBe('3');
    expect(banner.textContent).toMatch(/length|remain|truncat/i);
  });

  it('opens the frame from a link', async () => {
    window.history.replaceState(null, '', '/paste.html#hex=8301%2002%2003');
    render(<PastePage worker={inProcessWorker()} />);
    await waitFor(() => expect(screen.getAllByTestId('tree-row')).toHaveLength(4));
  });

  it('says when a frame is too large for a link, its numbers with thousands separators', async () => {
    paste('00'.repeat(50 * 1024 + 1).replace(/^00/, '5a 00 00 c8 00 '));
    const note = await screen.findByTestId('hash-note');
    expect(window.location.hash).toBe('');
    expect(note.textContent).toMatch(/above the \d{1,3}(,\d{3})+-byte limit/);
    expect(note.textContent).not.toMatch(/\d{4}/);
  });

  it('shows the link that carries the frame, with a Copy button', async () => {
    paste('83 01 02 03');
    const link = await screen.findByTestId('paste-link');
    expect(window.location.hash).toBe('#b64=gwECAw');
    expect((link as HTMLInputElement).value).toBe(window.location.href);
    const writes: string[] = [];
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: async (t: string) => void writes.push(t) },
    });
    fireEvent.click(screen.getByTestId('paste-link-copy'));
    await waitFor(() => expect(writes).toEqual([window.location.href]));
    await waitFor(() => expect(screen.getByTestId('paste-link-copy').textContent).toMatch(/copied/i));
    // No link for input that did not parse.
    fireEvent.change(screen.getByTestId('paste-input'), { target: { value: '83 01 0g' } });
    fireEvent.click(screen.getByTestId('decode-button'));
    expect(screen.queryByTestId('paste-link')).toBeNull();
  });

  it('a word that is also base64 or hex (ping, cafe) is the text frame, and its link says so', async () => {
    for (const word of ['ping', 'cafe']) {
      paste(word);
      await screen.findByText(`${word.length} bytes from raw`, { exact: false });
      expect(window.location.hash).toBe(`#b64=${btoa(word).replace(/=+$/, '')}&text`);
      await waitFor(() => expect(screen.getAllByTestId('tree-row')[0].textContent).toContain(word));
      expect(screen.queryByTestId('error-banner')).toBeNull();
      cleanup();
    }
    // The link opens it as the text frame it was, not as the CBOR text string "afe" its bytes also spell.
    window.history.replaceState(null, '', '/paste.html#b64=Y2FmZQ&text');
    render(<PastePage worker={inProcessWorker()} />);
    await screen.findByText('4 bytes from link, as a text frame', { exact: false });
    expect((screen.getByTestId('paste-input') as HTMLTextAreaElement).value).toBe('cafe');
    await waitFor(() => expect(screen.getAllByTestId('tree-row')[0].textContent).toContain('cafe'));
  });

  it('a base64 paste that decodes cleanly keeps its bytes', async () => {
    paste('oWFhAQ==');
    await screen.findByText('4 bytes from base64', { exact: false });
    await waitFor(() =>
      expect(screen.getAllByTestId('tree-row').map((r) => r.getAttribute('data-path'))).toEqual(['$', '$.a']),
    );
  });

  it('bytes no decoder reads: the tree pane says why and offers the hex and text views', async () => {
    paste('ff ff ff ff fe 00 12 99 88');
    const note = await screen.findByTestId('tree-empty');
    expect(note.textContent).toMatch(/no decoder reads/i);
    fireEvent.click(within(note).getByRole('button', { name: /hex/i }));
    await waitFor(() => expect(screen.getByRole('tab', { selected: true }).textContent).toMatch(/^Hex/));
    // Unknown bytes have no error to mark: no "error at byte", no red cell past the end.
    expect(screen.getByTestId('hex-status').textContent).not.toMatch(/error at byte/);
    expect(document.querySelector('.hex-error, [data-testid=hex-byte-error]')).toBeNull();
  });
});
