import { useEffect, useId, useState, type ReactElement } from 'react';
import type { FrameSummary } from '../../worker/api.js';
import type { WorkerClient } from '../../worker/client.js';
import type { EditOutcome, EditSource } from '../../worker/edit-text.js';
import { formatBytes } from '../shell/format.js';
import { actOutcomeText, actWithAttachments } from './act-with-attachments.js';
import type { PageActionsHost } from './page-actions-host.js';
import './edit-and-send.css';

const SYNTAX_NAME: Record<EditSource['syntax'], string> = {
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

/** What an edit changed, in one line: the new size, the difference, where the bytes first differ. */
function changeLine(outcome: Extract<EditOutcome, { ok: true }>): string {
  const c = outcome.change;
  if (c.identical) return `${formatBytes(c.size)} · the original bytes, unchanged`;
  const delta = c.sizeDelta === 0 ? 'same size' : `${c.sizeDelta > 0 ? '+' : ''}${c.sizeDelta} B`;
  return `${formatBytes(c.size)} (${delta}) · ${c.changedBytes} B changed in ${c.changedRanges.length} range${
    c.changedRanges.length === 1 ? '' : 's'
  }, first at offset ${c.firstDifference}`;
}

const hexPreview = (bytes: Uint8Array): string => {
  const shown = [...bytes.subarray(0, 48)].map((b) => b.toString(16).padStart(2, '0')).join(' ');
  return bytes.length > 48 ? `${shown} …` : shown;
};

/**
 * Edit and send: the frame in its own encoding (worker/edit-text.ts), its new bytes, their
 * size and the difference from the original shown before anything is sent; a text that does
 * not encode shows its line and column and cannot be sent. The encoding runs in the worker.
 */
export function EditAndSend(props: {
  worker: Pick<WorkerClient, 'call'>;
  frame: Pick<FrameSummary, 'frameId' | 'connectionId' | 'opcode'>;
  host: PageActionsHost;
  onClose: () => void;
  onOutcome: (ok: boolean, text: string) => void;
}): ReactElement {
  const { worker, frame, host, onClose, onOutcome } = props;
  const [source, setSource] = useState<EditSource | null>(null);
  const [text, setText] = useState('');
  const [outcome, setOutcome] = useState<EditOutcome | null>(null);
  const [sending, setSending] = useState(false);
  const textId = useId();

  useEffect(() => {
    let live = true;
    void worker.call('editSource', { frameId: frame.frameId }).then((s) => {
      if (!live) return;
      setSource(s);
      setText(s?.text ?? '');
    });
    return () => {
      live = false;
    };
  }, [worker, frame.frameId]);

  useEffect(() => {
    if (!source) return;
    let live = true;
    const timer = setTimeout(() => {
      void worker.call('editBytes', { frameId: frame.frameId, syntax: source.syntax, text }).then((o) => {
        if (live) setOutcome(o);
      });
    }, 120);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [worker, frame.frameId, source, text]);

  if (!source) return <p className="ws-muted">reading the frame…</p>;
  const send = async () => {
    if (!outcome?.ok) return;
    setSending(true);
    try {
      const result = await actWithAttachments(worker, host, frame, 'send', outcome.bytes);
      onOutcome(result.ok, actOutcomeText(result, 'edited frame sent', 'edited frame not sent'));
      if (result.ok) onClose();
    } finally {
      setSending(false);
    }
  };

  return (
    <div className="ws-edit-send" role="group" aria-label="Edit and send" data-testid="edit-and-send">
      {source.note ? (
        <p className="ws-muted" data-testid="edit-note">
          {source.note}
        </p>
      ) : null}
      <label htmlFor={textId}>Edit the frame ({SYNTAX_NAME[source.syntax]})</label>
      <textarea
        id={textId}
        data-testid="edit-text"
        spellCheck={false}
        value={text}
        onChange={(e) => setText(e.target.value)}
        rows={Math.min(16, Math.max(4, text.split('\n').length + 1))}
      />
      {outcome?.ok === false ? (
        <p role="alert" className="ws-error" data-testid="edit-error">
          {outcome.error.line}:{outcome.error.column}: {outcome.error.message} — nothing will be sent
        </p>
      ) : outcome?.ok ? (
        <p data-testid="edit-change">
          {changeLine(outcome)}
          <br />
          <code className="ws-mono">{hexPreview(outcome.bytes)}</code>
        </p>
      ) : null}
      <div className="ws-toolbar">
        <button type="button" disabled={!outcome?.ok || sending} onClick={() => void send()}>
          Send
        </button>
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </div>
  );
}
