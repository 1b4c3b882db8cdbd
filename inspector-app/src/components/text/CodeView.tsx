import { useEffect, useRef, useState, type ReactElement } from 'react';
import type { editor } from 'monaco-editor/editor/editor.api';
import { applyTheme, loadMonaco, loadedMonaco, monacoThemeName, monacoWanted, type Monaco, type MonacoThemeName } from './monaco-loader';
import { EDN_LANGUAGE_ID } from './edn-language';
import './code-text.css';

export interface CodeViewProps {
  readonly text: string;
  readonly language: 'json' | 'edn' | 'plaintext';
  readonly theme: MonacoThemeName;
  /** The caller cut `text`; says so above the view. */
  readonly truncated?: boolean;
  readonly testId?: string;
}

const ariaLabelOf = (language: CodeViewProps['language']) => (language === 'json' ? 'JSON text' : language === 'edn' ? 'EDN text' : 'Frame bytes');

/** Texts longer than this load into Monaco a slice at a time, without folding. */
const BIG_TEXT_CHARS = 400_000;
const SLICE_CHARS = 200_000;

/**
 * The plain fallback shows at most this much while Monaco loads (or if it never does): a few
 * screenfuls. Laying out 200,000 characters took 55 ms (quiet) to 380 ms (loaded) in the task
 * that opened the Text tab on a 2 MB frame, for text shown a fraction of a second.
 */
export const FALLBACK_CHARS = 20_000;

/**
 * Read-only Monaco view of a frame's JSON or EDN text (folding, find, no minimap). Until Monaco
 * has loaded, and wherever it cannot (jsdom, `?plain-editor`), a <pre> shows the text via
 * textContent instead.
 */
export function CodeView(props: CodeViewProps): ReactElement {
  const { text, language, theme, truncated } = props;
  const hostRef = useRef<HTMLDivElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const [monaco, setMonaco] = useState<Monaco | null>(() => (monacoWanted() ? loadedMonaco() : null));
  const [view, setView] = useState<editor.IStandaloneCodeEditor | null>(null);
  const [failed, setFailed] = useState(false);
  const themeRef = useRef(theme);
  themeRef.current = theme;

  useEffect(() => {
    if (monaco || failed || !monacoWanted()) return;
    let live = true;
    loadMonaco().then(
      (m) => live && setMonaco(m),
      (err: unknown) => {
        console.warn('wirescope: Monaco failed to load; showing plain text', err);
        if (live) setFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, [monaco, failed]);

  // One editor per mount; models come and go with the text below.
  useEffect(() => {
    const host = hostRef.current;
    if (!monaco || failed || !host) return;
    let ed: editor.IStandaloneCodeEditor;
    try {
      ed = monaco.editor.create(host, {
        model: null,
        readOnly: true,
        theme: monacoThemeName(themeRef.current),
        minimap: { enabled: false },
        folding: true,
        automaticLayout: true,
        fontSize: 12,
        wordWrap: 'off',
        scrollBeyondLastLine: false,
        renderLineHighlight: 'none',
      });
    } catch (err) {
      console.warn('wirescope: Monaco editor failed to start; showing plain text', err);
      setFailed(true);
      return;
    }
    setView(ed);
    return () => {
      setView(null);
      ed.dispose();
    };
  }, [monaco, failed]);

  // A big text goes into the model in slices, one task each, so no single task blocks the
  // page (a 2 MB frame pretty-prints to megabytes); folding, whose ranges are computed over
  // the whole model after every change, is off for those.
  useEffect(() => {
    if (!monaco || !view) return;
    const big = text.length > BIG_TEXT_CHARS;
    // JSON's language service (validation, symbols, sticky scroll) would parse all of it on
    // the main thread's side too: a big JSON text is highlighted by the EDN grammar (JSON
    // reads the same there) and bracket colouring, which builds a tree of every bracket, is off.
    const model = monaco.editor.createModel(big ? text.slice(0, SLICE_CHARS) : text, big && language === 'json' ? EDN_LANGUAGE_ID : language);
    view.updateOptions({ ariaLabel: ariaLabelOf(language), folding: !big, 'bracketPairColorization.enabled': !big, stickyScroll: { enabled: !big }, matchBrackets: big ? 'never' : 'always' } as editor.IEditorOptions);
    view.setModel(model);
    let at = big ? SLICE_CHARS : text.length;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const progress = () => markProgress(rootRef.current, at, text.length);
    progress();
    const appendSlice = () => {
      if (model.isDisposed()) return;
      const end = Math.min(text.length, at + SLICE_CHARS);
      const last = model.getFullModelRange().getEndPosition();
      model.applyEdits([{ range: new monaco.Range(last.lineNumber, last.column, last.lineNumber, last.column), text: text.slice(at, end) }]);
      at = end;
      progress();
      if (at < text.length) timer = setTimeout(appendSlice, 0);
    };
    if (at < text.length) timer = setTimeout(appendSlice, 0);
    return () => {
      clearTimeout(timer);
      view.setModel(null);
      model.dispose();
    };
  }, [monaco, view, text, language]);

  useEffect(() => {
    if (monaco) applyTheme(monaco, theme);
  }, [monaco, theme]);

  const ready = view !== null;
  const loading = !failed && monacoWanted();
  const clipped = !ready && text.length > FALLBACK_CHARS;
  return (
    <div ref={rootRef} className="code-view" data-testid={props.testId ?? 'code-view'} data-editor={ready ? 'monaco' : 'plain'}>
      {truncated && (
        <div className="code-view-notice" role="note">
          text cut at {text.length} characters
        </div>
      )}
      {/* Only while Monaco itself loads: laying out 200,000 characters costs more than the editor's first frame. */}
      {!ready && (!monaco || failed) && (
        <pre className="code-view-pre" aria-label={ariaLabelOf(language)}>
          {clipped ? text.slice(0, FALLBACK_CHARS) : text}
          {clipped && `\n… (showing the first ${FALLBACK_CHARS} characters${loading ? ' while the editor loads' : ''})`}
        </pre>
      )}
      <div ref={hostRef} className="code-view-host" hidden={!monaco || failed} />
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
