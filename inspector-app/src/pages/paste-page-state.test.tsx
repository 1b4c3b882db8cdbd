// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { PastePage } from './PastePage.js';
import { inProcessWorker } from '../worker/in-process.js';

afterEach(cleanup);
beforeEach(() => window.history.replaceState(null, '', '/paste.html'));

const decode = (text: string) => {
  fireEvent.change(screen.getByTestId('paste-input'), { target: { value: text } });
  fireEvent.click(screen.getByTestId('decode-button'));
};

describe('paste page state', () => {
  it('a parse error clears the previous result and the URL hash', async () => {
    render(<PastePage worker={inProcessWorker()} />);
    decode('83 01 02 03');
    await waitFor(() => expect(screen.getAllByTestId('tree-row')).toHaveLength(4));
    expect(window.location.hash).not.toBe('');
    decode('83 01 0');
    expect(screen.getByTestId('paste-error').textContent).toMatch(/odd number of hex digits/);
    await waitFor(() => expect(screen.queryAllByTestId('tree-row')).toHaveLength(0));
    expect(screen.queryByTestId('frame-detail')).toBeNull();
    expect(window.location.hash).toBe('');
  });

  it('Open file… is a button, and the file replaces the textarea', async () => {
    render(<PastePage worker={inProcessWorker()} />);
    decode('83 01 02 03');
    expect(screen.getByRole('button', { name: 'Open file…' })).toBeTruthy();
    const file = new File([Uint8Array.from([0xa1, 0x61, 0x61, 0x01])], 'frame.bin');
    fireEvent.change(screen.getByTestId('paste-file'), { target: { files: [file] } });
    await waitFor(() => expect((screen.getByTestId('paste-input') as HTMLTextAreaElement).value).toBe('a1 61 61 01'));
    await waitFor(() =>
      expect(screen.getAllByTestId('tree-row').map((r) => r.getAttribute('data-path'))).toEqual(['$', '$.a']),
    );
  });

  it('?theme=dark is honoured by the whole page, the input strip included', async () => {
    window.history.replaceState(null, '', '/paste.html?theme=dark');
    render(<PastePage worker={inProcessWorker()} />);
    expect(screen.getByTestId('paste-page').getAttribute('data-theme')).toBe('dark');
    decode('01');
    await waitFor(() => expect(screen.getByTestId('app').getAttribute('data-theme')).toBe('dark'));
  });

  it('a dark system theme darkens the input strip too', () => {
    const win = Object.create(window) as Window;
    Object.defineProperty(win, 'matchMedia', {
      value: () => ({ matches: true, addEventListener() {}, removeEventListener() {} }),
    });
    Object.defineProperty(win, 'location', { value: window.location });
    Object.defineProperty(win, 'history', { value: window.history });
    render(<PastePage worker={inProcessWorker()} win={win} />);
    expect(screen.getByTestId('paste-page').getAttribute('data-theme')).toBe('dark');
  });

  it('has a heading and an example that decodes', async () => {
    render(<PastePage worker={inProcessWorker()} />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toMatch(/paste/i);
    fireEvent.click(screen.getByRole('button', { name: 'Try an example' }));
    expect((screen.getByTestId('paste-input') as HTMLTextAreaElement).value).toMatch(/#/);
    await waitFor(() => expect(screen.getAllByTestId('tree-row').length).toBeGreaterThan(1));
  });
});
