import { useEffect, useRef, useState, type ReactElement } from 'react';
import type { editor } from 'monaco-editor/editor/editor.api';
import { applyTheme, monacoThemeName, monacoWanted, type MonacoThemeName } from './monaco-loader';
import { createEditor, useMonaco } from './use-monaco';
import { BigTextView } from './BigTextView';
import './code-text.css';

export interface CodeViewProps {
  readonly text: string;
  readonly language: 'json' | 'edn' | 'plaintext';
  readonly theme: MonacoThemeName;
  /** The caller cut `text`; says so above the view. */
  readonly truncated?: boolean;
  readonly testId?: string;
}

const ariaLabelOf = (language: CodeViewProps['language']) =>
  language === 'json' ? 'JSON text' : language === 'edn' ? 'EDN text' : 'Frame bytes';

/**
 * Texts longer than this are shown by BigTextView (only the lines in view in the DOM), not
 * Monaco: taking in megabytes (a 2 MB frame pretty-prints to ~4,000,000 characters) blocked
 * the page in slices of 200,000 characters after a ~140 ms task evaluating Monaco itself.
 */
export const BIG_TEXT_CHARS = 400_000;

/**
 * The plain fallback shows at most this much while Monaco loads (or if it never does): a few
 * screenfuls. Laying out 200,000 characters took 55 ms (quiet) to 380 ms (loaded) in the task
 * that opened the Text tab on a 2 MB frame, for text shown a fraction of a second.
 */
export const FALLBACK_CHARS = 20_000;

/**
 * Read-only Monaco view of a frame's JSON or EDN text (folding, find, no minimap). Until Monaco
 * has loaded, and wherever it cannot (jsdom, `?plain-editor`), a <pre> shows the text via
 * textContent instead. A text over BIG_TEXT_CHARS goes to BigTextView (highlighted, only the
 * lines in view drawn) and Monaco is not loaded for it.
 */
export function CodeView(props: CodeViewProps): ReactElement {
  const { text, language, theme, truncated } = props;
  const big = text.length > BIG_TEXT_CHARS;
  const hostRef = useRef<HTMLDivElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const { monaco, failed, fail } = useMonaco(!big && monacoWanted(), 'showing plain text');
  const [view, setView] = useState<editor.IStandaloneCodeEditor | null>(null);
  const themeRef = useRef(theme);
  themeRef.current = theme;

  // One editor per mount; models come and go with the text below.
  useEffect(() => {
    const host = hostRef.current;
    if (!monaco || failed || !host) return;
    let ed: editor.IStandaloneCodeEditor;
    try {
      ed = createEditor(monaco, host, {
        model: null,
        readOnly: true,
        theme: monacoThemeName(themeRef.current),
        renderLineHighlight: 'none',
      });
    } catch (err) {
      fail(err);
      return;
    }
    setView(ed);
    return () => {
      setView(null);
      ed.dispose();
    };
  }, [monaco, failed, big, fail]);

  useEffect(() => {
    if (big) markProgress(rootRef.current, text.length, text.length);
  }, [big, text]);

  // The text in one model (big texts never come here: BigTextView shows them).
  useEffect(() => {
    if (!monaco || !view || big) return;
    const model = monaco.editor.createModel(text, language);
    view.updateOptions({ ariaLabel: ariaLabelOf(language) } as editor.IEditorOptions);
    view.setModel(model);
    markProgress(rootRef.current, text.length, text.length);
    return () => {
      view.setModel(null);
      model.dispose();
    };
  }, [monaco, view, text, language, big]);

  useEffect(() => {
    if (monaco) applyTheme(monaco, theme);
  }, [monaco, theme]);

  const ready = view !== null && !big;
  const loading = !failed && monacoWanted();
  const clipped = !ready && text.length > FALLBACK_CHARS;
  return (
    <div
      ref={rootRef}
      className="code-view"
      data-testid={props.testId ?? 'code-view'}
      data-editor={big ? 'big' : ready ? 'monaco' : 'plain'}
    >
      {truncated && (
        <div className="code-view-notice" role="note">
          text cut at {text.length.toLocaleString('en-US')} characters
        </div>
      )}
      {/* Only while Monaco itself loads: laying out 200,000 characters costs more than the editor's first frame. */}
      {big && <BigTextView text={text} language={language} ariaLabel={ariaLabelOf(language)} />}
      {!big && !ready && (!monaco || failed) && (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region takes focus so the keyboard can scroll it (axe: scrollable-region-focusable)
        <pre className="code-view-pre" role="region" aria-label={ariaLabelOf(language)} tabIndex={0}>
          {clipped ? text.slice(0, FALLBACK_CHARS) : text}
          {clipped && `\n… (showing the first ${FALLBACK_CHARS} characters${loading ? ' while the editor loads' : ''})`}
        </pre>
      )}
      {!big && <div ref={hostRef} className="code-view-host" hidden={!monaco || failed} />}
    </div>
  );
}

/** How much of the text the view holds (data-chars, data-complete, data-complete-at): for tests and bench:ui. */
function markProgress(root: HTMLElement | null, chars: number, total: number): void {
  if (!root) return;
  root.dataset.chars = String(chars);
  root.dataset.complete = String(chars >= total);
  if (chars >= total) root.dataset.completeAt = String(performance.now());
}
