import { useEffect, useId, useRef, useState, type ReactElement, type ReactNode } from 'react';
import type { ComposeOutcome } from '../../worker/compose-text.js';
import type { EditSyntax } from '../../worker/edit-text.js';
import { formatBytes, formatCount } from '../shell/format.js';
import './frame-editor.css';

export const SYNTAX_NAME: Readonly<Record<EditSyntax, string>> = {
  edn: 'CBOR as EDN',
  msgpack: 'MessagePack edit text',
  json: 'JSON text',
  hex: 'hex',
  socketio: 'Socket.IO packet',
  mqtt: 'MQTT PUBLISH',
  stomp: 'STOMP frame',
  phoenix: 'Phoenix message',
  'graphql-ws': 'graphql-ws message',
  'subscriptions-transport-ws': 'subscriptions-transport-ws message',
  centrifugo: 'Centrifugo message',
  wamp: 'WAMP message',
};

/** What an edit gives, in one line: the size, and (against an original) the difference and where the bytes first differ. */
export function changeLine(outcome: Extract<ComposeOutcome, { ok: true }>): string {
  const c = outcome.change;
  if (!c) return `${formatBytes(outcome.bytes.length)} · a new frame`;
  if (c.identical) return `${formatBytes(c.size)} · the original bytes, unchanged`;
  const delta = c.sizeDelta === 0 ? 'same size' : `${c.sizeDelta > 0 ? '+' : ''}${c.sizeDelta} B`;
  return `${formatBytes(c.size)} (${delta}) · ${c.changedBytes} B changed in ${c.changedRanges.length} range${
    c.changedRanges.length === 1 ? '' : 's'
  }, first at offset ${c.firstDifference}`;
}

const PREVIEW_BYTES = 48;

/**
 * 48 of the new bytes in hex: from the start, or — when the first difference lies beyond
 * them — from a little before it, with its offset, so the changed bytes are in view.
 */
export function hexPreview(bytes: Uint8Array, firstDifference = 0): string {
  const from = firstDifference < PREVIEW_BYTES - 8 ? 0 : Math.max(0, (firstDifference - 8) & ~15);
  const to = Math.min(bytes.length, from + PREVIEW_BYTES);
  const shown = [...bytes.subarray(from, to)].map((b) => b.toString(16).padStart(2, '0')).join(' ');
  return `${from > 0 ? `@${formatCount(from)}: … ` : ''}${shown}${to < bytes.length ? ' …' : ''}`;
}

/** The editor's state handed to the buttons beside it: `bytes` only when the text shown encodes (never a stale or bad edit). */
export interface FrameEditorState {
  readonly syntax: EditSyntax;
  readonly text: string;
  readonly bytes: Uint8Array | null;
}

/**
 * The one editor behind Edit and send, New message, the inspector's Compose and the paste
 * page's edit: a text in a syntax (a choice of them when `syntaxes` has more than one), its
 * bytes and their size, the difference from an original when there is one, and a bad text's
 * line and column — with no bytes for the buttons, so nothing is sent. Encoding runs in the
 * worker (`encode`), a short moment after the last keystroke.
 */
export function FrameEditor(props: {
  /** The text box's label (the format is said beside it). */
  label: string;
  initial: { readonly syntax: EditSyntax; readonly text: string };
  syntaxes?: readonly EditSyntax[];
  encode: (syntax: EditSyntax, text: string) => Promise<ComposeOutcome | null>;
  /** The text for a newly chosen syntax (worker `composeSwitch`); without it the text is kept. */
  switchText?: (from: EditSyntax, text: string, to: EditSyntax) => Promise<string>;
  /** The buttons (Send, Cancel, …), given what the text encodes to now. */
  children: (state: FrameEditorState) => ReactNode;
  testId?: string;
  /** What a text that does not encode means on this page, after its error (default: "nothing will be sent"). */
  badTextNote?: string;
}): ReactElement {
  const { switchText } = props;
  // The latest `encode`, read when the text changes: a parent's new function is no new text.
  const encode = useRef(props.encode);
  encode.current = props.encode;
  const [syntax, setSyntax] = useState<EditSyntax>(props.initial.syntax);
  const [text, setText] = useState(props.initial.text);
  /** The outcome and the text and syntax it is for: a newer text has none until it is encoded. */
  const [result, setResult] = useState<{ syntax: EditSyntax; text: string; outcome: ComposeOutcome | null } | null>(
    null,
  );
  const textId = useId();
  const formatId = useId();

  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      void encode.current(syntax, text).then((outcome) => {
        if (live) setResult({ syntax, text, outcome });
      });
    }, 120);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [syntax, text]);

  const current = result && result.syntax === syntax && result.text === text ? result.outcome : null;
  const shown = result?.outcome ?? null;
  /** The text as last typed or set: a switch's answer does not overwrite what was typed while it was asked. */
  const typed = useRef(text);
  typed.current = text;
  const choose = async (to: EditSyntax) => {
    const before = text;
    setSyntax(to);
    if (!switchText) return;
    const next = await switchText(syntax, before, to);
    if (typed.current === before) setText(next);
  };
  const choices = props.syntaxes && props.syntaxes.length > 1 ? props.syntaxes : null;

  return (
    <div className="ws-frame-editor" data-testid={props.testId ?? 'frame-editor'}>
      <div className="ws-frame-editor-head">
        <label htmlFor={textId}>
          {props.label}
          {choices ? '' : ` (${SYNTAX_NAME[syntax]})`}
        </label>
        {choices && (
          <>
            <label htmlFor={formatId}>written as</label>
            <select
              id={formatId}
              data-testid="edit-format"
              value={syntax}
              onChange={(e) => void choose(e.target.value as EditSyntax)}
            >
              {choices.map((s) => (
                <option key={s} value={s}>
                  {SYNTAX_NAME[s]}
                </option>
              ))}
            </select>
          </>
        )}
      </div>
      <textarea
        className="ws-frame-editor-text"
        id={textId}
        data-testid="edit-text"
        spellCheck={false}
        value={text}
        onChange={(e) => setText(e.target.value)}
        rows={Math.min(16, Math.max(4, text.split('\n').length + 1))}
      />
      {shown?.ok === false ? (
        <p role="alert" className="ws-error" data-testid="edit-error">
          {shown.error.line}:{shown.error.column}: {shown.error.message} — {props.badTextNote ?? 'nothing will be sent'}
        </p>
      ) : shown?.ok ? (
        <p className="ws-frame-editor-change" data-testid="edit-change" aria-live="polite">
          {changeLine(shown)}
          <br />
          <code className="ws-mono" data-testid="edit-bytes">
            {hexPreview(shown.bytes, shown.change?.firstDifference ?? 0)}
          </code>
        </p>
      ) : null}
      <div className="ws-toolbar">{props.children({ syntax, text, bytes: current?.ok ? current.bytes : null })}</div>
    </div>
  );
}
