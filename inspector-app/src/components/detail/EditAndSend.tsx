import { useEffect, useState, type ReactElement } from 'react';
import type { FrameSummary } from '../../worker/api.js';
import type { WorkerClient } from '../../worker/client.js';
import type { EditSource } from '../../worker/edit-text.js';
import { DraftWatch } from '../compose/DraftWatch.js';
import { useEditorFold } from '../compose/editor-fold.js';
import { FrameEditor } from '../compose/FrameEditor.js';
import { actOutcomeText, actWithAttachments } from './act-with-attachments.js';
import type { PageActionsHost } from './page-actions-host.js';
import './edit-and-send.css';

/**
 * Edit and send: the frame in its own encoding (worker/edit-text.ts) in the shared frame
 * editor — its new bytes, their size and the difference from the original shown before
 * anything is sent; a text that does not encode shows its line and column and cannot be sent.
 */
export function EditAndSend(props: {
  worker: Pick<WorkerClient, 'call'>;
  frame: Pick<FrameSummary, 'frameId' | 'connectionId' | 'opcode'>;
  host: PageActionsHost;
  onClose: () => void;
  onOutcome: (ok: boolean, text: string) => void;
  /** The text or its syntax changed (also called once as the editor opens): an outcome said before is about another text. */
  onEdited?: () => void;
  /** What the editor is for, said by its group and its button: Edit and send / Send (default), or Edit and forward for a held frame. */
  purpose?: { readonly group: string; readonly button: string };
}): ReactElement {
  const { worker, frame, host, onClose, onOutcome, onEdited } = props;
  const purpose = props.purpose ?? { group: 'Edit and send', button: 'Send' };
  const [source, setSource] = useState<EditSource | null>(null);
  const [sending, setSending] = useState(false);
  const fold = useEditorFold('edit-and-send');

  useEffect(() => {
    let live = true;
    void worker.call('editSource', { frameId: frame.frameId }).then((s) => {
      if (live) setSource(s);
    });
    return () => {
      live = false;
    };
  }, [worker, frame.frameId]);

  if (!source) return <p className="ws-muted">reading the frame…</p>;
  const send = async (bytes: Uint8Array) => {
    setSending(true);
    try {
      const result = await actWithAttachments(worker, host, frame, 'send', bytes);
      onOutcome(result.ok, actOutcomeText(result, 'edited frame sent', 'edited frame not sent'));
      if (result.ok) onClose();
    } finally {
      setSending(false);
    }
  };

  return (
    <div
      className="ws-edit-send"
      role="group"
      aria-label={purpose.group}
      data-testid="edit-and-send"
      data-folded={fold.folded || undefined}
    >
      {fold.folded && (
        <p className="ws-muted" data-testid="edit-and-send-folded">
          {purpose.group}: folded while New message is open, the edit kept{' '}
          <button type="button" onClick={fold.show}>
            Show
          </button>{' '}
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </p>
      )}
      <div className="ws-edit-send-body" hidden={fold.folded}>
        {source.note ? (
          <p className="ws-muted" data-testid="edit-note">
            {source.note}
          </p>
        ) : null}
        <FrameEditor
          label="Edit the frame"
          initial={source}
          encode={(syntax, text) => worker.call('editBytes', { frameId: frame.frameId, syntax, text })}
        >
          {({ syntax, text, bytes }) => (
            <>
              {onEdited && <DraftWatch syntax={syntax} text={text} onChange={onEdited} />}
              <button type="button" disabled={!bytes || sending} onClick={() => bytes && void send(bytes)}>
                {purpose.button}
              </button>
              <button type="button" onClick={onClose}>
                Cancel
              </button>
            </>
          )}
        </FrameEditor>
      </div>
    </div>
  );
}
