// @vitest-environment jsdom
/**
 * Opening the Text tab on a 2 MB frame must not block the page (a 335–538 ms task
 * under load): a text too big for the editor to take in at once is shown by a view that
 * puts only the lines in view in the DOM, still indented and highlighted.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { CodeView } from './CodeView';
import { MAX_LINE_CHARS } from './BigTextView';
import { lineIndex, lineTokens } from './text-tokens';

afterEach(cleanup);

/** Pretty-printed JSON of `n` records, as the worker writes it. */
const bigJson = (n: number) =>
  JSON.stringify(
    Array.from({ length: n }, (_, i) => ({ id: i, name: `juliet-${i}`, ok: i % 2 === 0, tags: ['<b>x</b>'] })),
    null,
    2,
  );

describe('big texts', () => {
  it('a 2 MB text: only the lines in view are drawn, highlighted, as text (never markup)', () => {
    const text = bigJson(20_000);
    expect(text.length).toBeGreaterThan(2_000_000);
    render(<CodeView text={text} language="json" theme="light" testId="text-view" />);
    const view = screen.getByTestId('text-view');
    expect(view.getAttribute('data-editor')).toBe('big');
    expect(view.getAttribute('data-complete')).toBe('true');
    expect(view.querySelector('pre')).toBeNull();
    const lines = screen.getAllByTestId('text-line');
    expect(lines.length).toBeLessThan(100);
    expect(Number(screen.getByTestId('big-text').getAttribute('data-lines'))).toBe(text.split('\n').length);
    expect(lines[1]!.textContent).toBe('2  {');
    expect(lines[2]!.querySelector('.code-tok-key')!.textContent).toBe('"id"');
    expect(lines[2]!.querySelector('.code-tok-number')!.textContent).toBe('0');
    expect(view.querySelector('b')).toBeNull();
  });

  it('scrolling draws the lines there', () => {
    const text = bigJson(20_000);
    render(<CodeView text={text} language="json" theme="light" />);
    const scroller = screen.getByTestId('big-text');
    scroller.scrollTop = 18 * 50_000;
    fireEvent.scroll(scroller);
    const numbers = screen
      .getAllByTestId('text-line')
      .map((l) => Number(l.querySelector('.code-line-no')!.textContent));
    expect(numbers).toContain(50_001);
    expect(screen.getAllByTestId('text-line').length).toBeLessThan(100);
  });

  it('a huge single line is drawn cut, and says so', () => {
    const text = `"${'x'.repeat(MAX_LINE_CHARS * 50)}"`;
    render(<CodeView text={text} language="json" theme="light" />);
    const line = screen.getAllByTestId('text-line')[0]!;
    expect(line.textContent!.length).toBeLessThan(MAX_LINE_CHARS + 200);
    expect(line.textContent).toMatch(/more characters on this line/);
  });

  it('tokens are exactly the line, with keys, strings, numbers, literals and EDN byte strings told apart', () => {
    const line = `  "a": [1.5e3, -2, true, null, "s\\"q"], 24(h'00ff'): 1_0`;
    const tokens = lineTokens(line, 'edn');
    expect(tokens.map(([, t]) => t).join('')).toBe(line);
    const kinds = Object.fromEntries(tokens.filter(([k]) => k !== 'plain' && k !== 'punct').map(([k, t]) => [t, k]));
    expect(kinds).toMatchObject({
      '"a"': 'key',
      '1.5e3': 'number',
      '-2': 'number',
      true: 'literal',
      null: 'literal',
      '"s\\"q"': 'string',
      "h'00ff'": 'bytes',
      '1_0': 'number',
    });
    expect(lineIndex('a\nbcd\n').starts).toEqual([0, 2, 6]);
    expect(lineIndex('a\nbcd\n').longest).toBe(3);
  });
});
