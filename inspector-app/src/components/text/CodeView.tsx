import { useEffect, useRef, useState, type ReactElement } from 'react';
import type { editor } from 'monaco-editor/editor/editor.api';
import { applyTheme, loadMonaco, loadedMonaco, monacoThemeName, monacoWanted, type Monaco, type MonacoThemeName } from './monaco-loader';
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

/** The plain fallback shows at most this much while Monaco loads (or if it never does). */
export const FALLBACK_CHARS = 200_000;

/**
 * Read-only Monaco view of a frame's JSON or EDN text (folding, find, no minimap). Until Monaco
 * has loaded, and wherever it cannot (jsdom, `?plain-editor`), a <pre> shows the text via
 * textContent instead.
 */
export function CodeView(props: CodeViewProps): ReactElement {
  const { text, language, theme, truncated } = props;
  const hostRef = useRef<HTMLDivElement>(null);
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

  useEffect(() => {
    if (!monaco || !view) return;
    const model = monaco.editor.createModel(text, language);
    view.setModel(model);
    view.updateOptions({ ariaLabel: ariaLabelOf(language) });
    return () => {
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
    <div className="code-view" data-testid={props.testId ?? 'code-view'} data-editor={ready ? 'monaco' : 'plain'}>
      {truncated && (
        <div className="code-view-notice" role="note">
          text cut at {text.length} characters
        </div>
      )}
      {!ready && (
        <pre className="code-view-pre" aria-label={ariaLabelOf(language)}>
          {clipped ? text.slice(0, FALLBACK_CHARS) : text}
          {clipped && `\n… (showing the first ${FALLBACK_CHARS} characters${loading ? ' while the editor loads' : ''})`}
        </pre>
      )}
      <div ref={hostRef} className="code-view-host" hidden={!monaco || failed} />
    </div>
  );
}
