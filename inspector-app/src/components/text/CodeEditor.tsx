import { useEffect, useRef, useState, type ReactElement } from 'react';
import type { editor } from 'monaco-editor/editor/editor.api';
import { applyTheme, monacoThemeName, monacoWanted, type MonacoThemeName } from './monaco-loader';
import { createEditor, useMonaco } from './use-monaco';
import './code-text.css';

export interface CodeEditorProps {
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly language: 'json' | 'plaintext';
  readonly theme: MonacoThemeName;
  /** Pixels; default 160. */
  readonly height?: number;
  readonly ariaLabel: string;
  /** data-testid of the plain <textarea>; the wrapper gets `${testId}-box`. Default `composer-input`. */
  readonly testId?: string;
  /** Always use the plain <textarea> (also forced by `?plain-editor` in the page URL). */
  readonly plain?: boolean;
  /** Ctrl/Cmd+Enter, in either editor. */
  readonly onSubmit?: () => void;
}

/**
 * Editable Monaco for composing frames. A <textarea> stands in until Monaco has loaded, in
 * jsdom, with `plain` and under `?plain-editor`; it is a normal controlled textarea, so tests
 * can type into it. Both report every edit through onChange.
 */
export function CodeEditor(props: CodeEditorProps): ReactElement {
  const { value, language, theme, ariaLabel, plain } = props;
  const height = props.height ?? 160;
  const testId = props.testId ?? 'composer-input';
  const wanted = !plain && monacoWanted();
  const hostRef = useRef<HTMLDivElement>(null);
  const { monaco, failed, fail } = useMonaco(wanted, 'keeping the plain editor');
  const [ed, setEd] = useState<editor.IStandaloneCodeEditor | null>(null);
  // Latest props for Monaco's callbacks, which are bound once per editor.
  const latest = useRef(props);
  latest.current = props;
  const applying = useRef(false);

  useEffect(() => {
    const host = hostRef.current;
    if (!wanted || !monaco || failed || !host) return;
    const p = latest.current;
    let created: editor.IStandaloneCodeEditor;
    const model = monaco.editor.createModel(p.value, p.language);
    try {
      created = createEditor(monaco, host, {
        model,
        theme: monacoThemeName(p.theme),
        ariaLabel: p.ariaLabel,
        lineNumbersMinChars: 3,
        tabSize: 2,
      });
    } catch (err) {
      model.dispose();
      fail(err);
      return;
    }
    const sub = model.onDidChangeContent(() => {
      if (!applying.current) latest.current.onChange(model.getValue());
    });
    created.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, () => latest.current.onSubmit?.());
    // Someone typing in the stand-in keeps typing, now in Monaco.
    if (document.activeElement && document.activeElement === host.parentElement?.querySelector('textarea')) {
      created.setPosition(model.getFullModelRange().getEndPosition());
      created.focus();
    }
    setEd(created);
    return () => {
      setEd(null);
      sub.dispose();
      created.dispose();
      model.dispose();
    };
  }, [wanted, monaco, failed, fail]);

  // Controlled value: push outside changes into the model as one undoable edit.
  useEffect(() => {
    const model = ed?.getModel();
    if (!model || model.getValue() === value) return;
    applying.current = true;
    try {
      model.pushEditOperations([], [{ range: model.getFullModelRange(), text: value }], () => null);
    } finally {
      applying.current = false;
    }
  }, [ed, value]);

  useEffect(() => {
    const model = ed?.getModel();
    if (model && monaco) monaco.editor.setModelLanguage(model, language);
  }, [ed, monaco, language]);

  useEffect(() => {
    ed?.updateOptions({ ariaLabel });
  }, [ed, ariaLabel]);

  useEffect(() => {
    if (monaco && wanted) applyTheme(monaco, theme);
  }, [monaco, wanted, theme]);

  const ready = ed !== null;
  return (
    <div
      className="code-editor"
      style={{ height }}
      data-testid={`${testId}-box`}
      data-editor={ready ? 'monaco' : 'plain'}
    >
      {!ready && (
        <textarea
          className="code-editor-textarea"
          data-testid={testId}
          aria-label={ariaLabel}
          spellCheck={false}
          value={value}
          onChange={(e) => props.onChange(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && props.onSubmit) {
              e.preventDefault();
              props.onSubmit();
            }
          }}
        />
      )}
      <div ref={hostRef} style={{ height: '100%' }} hidden={!wanted || !monaco || failed} />
    </div>
  );
}
