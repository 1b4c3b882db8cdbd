// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { CodeView, FALLBACK_CHARS } from './CodeView';
import { monacoWanted } from './monaco-loader';

afterEach(cleanup);

describe('CodeView fallback', () => {
  it('is what jsdom gets: Monaco is not attempted', () => {
    expect(monacoWanted()).toBe(false);
  });

  it('renders the text as text, never as markup', () => {
    const text = '{\n  "a": "<b>bold</b>",\n  "n": 1\n}';
    render(<CodeView text={text} language="json" theme="light" />);
    const view = screen.getByTestId('code-view');
    expect(view.getAttribute('data-editor')).toBe('plain');
    const pre = view.querySelector('pre')!;
    expect(pre.textContent).toBe(text);
    expect(pre.querySelector('b')).toBeNull();
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('shows the truncation notice and honours testId', () => {
    render(<CodeView text={"1(h'00ff')_0"} language="edn" theme="dark" truncated testId="edn-view" />);
    const view = screen.getByTestId('edn-view');
    expect(screen.getByRole('note').textContent).toBe('text cut at 12 characters');
    expect(view.querySelector('pre')!.textContent).toBe("1(h'00ff')_0");
  });

  it('previews only the first chunk of a huge text', () => {
    const text = 'x'.repeat(FALLBACK_CHARS + 5000);
    render(<CodeView text={text} language="json" theme="light" />);
    const pre = screen.getByTestId('code-view').querySelector('pre')!;
    expect(pre.textContent!.startsWith('x'.repeat(FALLBACK_CHARS) + '\n…')).toBe(true);
    expect(pre.textContent!.length).toBeLessThan(FALLBACK_CHARS + 200);
  });
});
