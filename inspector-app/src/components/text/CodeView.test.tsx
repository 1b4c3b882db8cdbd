// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { CodeView, FALLBACK_CHARS } from './CodeView';
import { CodeEditor } from './CodeEditor';
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

describe('CodeEditor fallback', () => {
  it('is a usable textarea that reports edits', () => {
    const onChange = vi.fn();
    render(<CodeEditor value='{"a":1}' onChange={onChange} language="json" theme="light" ariaLabel="Frame to send" />);
    const input = screen.getByTestId('composer-input') as HTMLTextAreaElement;
    expect(input.tagName).toBe('TEXTAREA');
    expect(input.value).toBe('{"a":1}');
    expect(screen.getByLabelText('Frame to send')).toBe(input);
    expect(screen.getByTestId('composer-input-box').style.height).toBe('160px');
    fireEvent.change(input, { target: { value: '{"a":2}' } });
    expect(onChange).toHaveBeenCalledWith('{"a":2}');
  });

  it('stays controlled, honours plain/height/testId and submits on Ctrl+Enter', () => {
    const onSubmit = vi.fn();
    function Host() {
      const [v, setV] = useState('hello');
      return (
        <CodeEditor
          value={v}
          onChange={setV}
          language="plaintext"
          theme="dark"
          ariaLabel="Text"
          height={80}
          testId="ed"
          plain
          onSubmit={onSubmit}
        />
      );
    }
    render(<Host />);
    const input = screen.getByTestId('ed') as HTMLTextAreaElement;
    expect(screen.getByTestId('ed-box').style.height).toBe('80px');
    fireEvent.change(input, { target: { value: 'hello world' } });
    expect(input.value).toBe('hello world');
    fireEvent.keyDown(input, { key: 'Enter', ctrlKey: true });
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });
});
